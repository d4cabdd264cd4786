import Foundation
import TestSupport
import Testing

@testable import MakimaKit
@testable import MakimaTUI

// A kind of list added the way docs/architecture.md ("Adding a kind of list") says, here in
// the test target: a model, its `ListKind` entry, its pane columns and its pane. Nothing else in the
// app knows it, and it is fetched by the sync engine, saved to the cache, read back, shown
// in a pane model, marked stale and forgotten like the kinds the dashboard ships with. It
// reads the dev server's API keys (`GET /auth/api-keys`), a list no kind uses.

/// 1. The model: its wire fields listed once.
struct KeyRow: WireModel, Sendable, Equatable, Identifiable {
    var id: String
    var name: String?
    var prefix: String?

    static let wireFields: [WireField<KeyRow>] = [.id("id", \.id), .text("name", \.name), .text("prefix", \.prefix)]
    static var wireBlank: KeyRow { KeyRow(id: "") }
}

/// 2. Its entry: endpoint, refresh period, its rows in the shared cache table, its store (the
/// hub's keyed store, since it names none), and its query.
extension ListKinds {
    static let keyRows = ListKind<KeyRow>(name: "key_rows", path: ["auth", "api-keys"], refreshPeriod: 120)
}

extension ListQuery {
    static let keyRows = ListKinds.keyRows.query()
}

/// 3. Its pane columns.
extension ListColumns where Item == KeyRow {
    static let keyRows = ListColumns(
        noun: "key",
        columns: [
            Column("name", 24) { k, _ in (oneLine(k.name ?? k.id), CellStyle(fg: .foreground)) },
            Column("prefix", nil) { k, _ in (k.prefix ?? "", CellStyle(fg: .foregroundMuted)) },
        ],
        sorts: [Sort("name") { ($0.name ?? $0.id).lowercased() }])
}

/// 4. Its pane: an id and a `PaneRegistry` entry with the queries for its filter and its model.
extension PaneID {
    static let keyRows = PaneID(rawValue: "keys")
}

extension PaneSpec {
    static let keyRows = PaneSpec(
        id: .keyRows, shortTitle: "KEY", term: nil,
        queries: { _, _ in [.keyRows] },
        build: { src in
            let list = src.hub.listStore(ListKinds.keyRows).list(.keyRows)
            return .list(
                ListColumns.keyRows.model(list, filter: nil, now: src.now, clock: src.hub.connection.serverClock))
        },
        make: { ListPane(id: .keyRows) })
}

@Suite(.timeLimit(.minutes(2))) struct ListKindRecipeTests {
    /// Every update the engine posts for `query` within `timeout`, until the first list.
    private func firstList(_ outbox: SyncOutbox, _ query: ListQuery, timeout: TimeInterval) -> SyncUpdate? {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            for update in outbox.wait(until: Date().addingTimeInterval(0.2)) {
                if case .list(let q, _, _, _) = update, q == query { return update }
            }
        }
        return nil
    }

    @Test func aKindDeclaredInTheTestTargetIsFetchedCachedShownMarkedStaleAndForgotten() async throws {
        let server = try DevServer()
        let dir = TempDirectory()
        let cacheFile = URL(fileURLWithPath: dir.sub("cache.sqlite"))
        let cache = try CacheStore.open(file: cacheFile).store
        defer { cache.close() }
        let outbox = SyncOutbox()
        let engine = try SyncEngine(client: try server.client(), apiKey: server.apiKey, cache: cache, outbox: outbox)
        defer { engine.stop() }

        // Fetched by the sync engine, from the endpoint its entry names.
        #expect(engine.refresh(.keyRows, force: true))
        let fetched = try #require(firstList(outbox, .keyRows, timeout: 20))
        guard case .list(_, let payload, let fetchedAt, let fromCache) = fetched else { return }
        let rows = try #require(payload.items(as: KeyRow.self))
        #expect(!fromCache)
        #expect(!rows.isEmpty && rows.allSatisfy { $0.name != nil && $0.prefix != nil }, "\(rows)")
        #expect(ListQuery.keyRows.endpoint.segments == ["auth", "api-keys"])

        // Saved in the shared snapshot table, with its kind, and read back from it.
        engine.flushCache()
        let check = try SQLiteDatabase(path: cacheFile.path)
        #expect(
            try check.scalarInt("SELECT count(*) FROM list_items WHERE kind = 'key_rows'") == Int64(rows.count))
        check.close()
        let cached = CacheBridge(cache: cache).cachedUpdates(for: [.keyRows])
        #expect(cached.problem == nil)
        let fromTheCache = try #require(cached.updates.first)

        // Its refresh period is its entry's.
        #expect(RefreshPolicy.period(of: .keyRows) == 120)

        try await MainActor.run {
            // The cache's snapshot fills a fresh hub, stale until the server confirms it.
            let restarted = StoreHub()
            restarted.apply(fromTheCache)
            let restored = restarted.listStore(ListKinds.keyRows).list(.keyRows)
            #expect(restored.items == rows && restored.isStale)
            #expect(restored.fetchedAt.map { abs($0.timeIntervalSince(fetchedAt)) < 0.001 } == true)

            // The fresh fetch is filed in the kind's keyed store, and its pane model shows it.
            let hub = StoreHub()
            hub.apply(fetched)
            let store = hub.listStore(ListKinds.keyRows)
            #expect(store.list(.keyRows).items == rows && !store.list(.keyRows).isStale)
            let model = ListColumns.keyRows.model(store.list(.keyRows), filter: nil, now: fetchedAt, clock: .zero)
            #expect(model.window.count == rows.count)
            #expect(model.sorts == ["name"])
            let first = try #require(rows.first)
            #expect(model.rows.first { $0.id == first.id }?.line.text.contains(first.prefix ?? "?") == true)

            // Its pane, registered for this task: a NAV// entry with a number key, its lists
            // read from the cache at start-up, its model built from the stores by its entry.
            PaneRegistry.$current.withValue(PaneRegistry.current.adding(.keyRows)) {
                #expect(PaneID.topLevel.last == .keyRows && PaneID.keyRows.number == 8)
                #expect(PaneRegistry.startQueries.contains(.keyRows))
                #expect(PaneID.keyRows.spec.make().id == .keyRows)
                let source = PaneSource(hub: hub, filter: nil, now: fetchedAt) {
                    SettingsFacts(server: "", maskedKey: "", keySource: "", cachePath: "", version: "", connection: "")
                }
                guard case .list(let built) = PaneID.keyRows.spec.build(source) else {
                    Issue.record("the pane's entry builds a list")
                    return
                }
                #expect(built.rows.map(\.id) == model.rows.map(\.id))
            }
            #expect(!PaneID.topLevel.contains(.keyRows), "registered for the task that added it alone")

            // Marked stale after a refused key, forgotten on a server switch, like every kind.
            hub.markAllStale()
            #expect(store.list(.keyRows).isStale && store.list(.keyRows).items == rows)
            hub.forgetServer()
            #expect(store.list(.keyRows).items.isEmpty && !store.list(.keyRows).hasLoaded)
        }
    }
}
