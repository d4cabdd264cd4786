import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

// A destination added the way docs/architecture.md ("Adding a destination") says, here in the
// test target: a kind of list whose items a deep link names and whose detail is fetched on
// its own, its list pane and its detail pane. Each step is one of the recipe's five files; the
// two registries (panes, destinations) take steps 3 and 5 for the length of the test (their
// `@TaskLocal`), so the tests running beside it never see them; the link kind of step 2 needs
// no registry of its own (the destination names it). Leave any step out and the test fails.
// The paths below say where a kind built into the product keeps each step (the recipe's list
// of files); `Memo` is this test's own kind, so none of those files exists.

/// 1. The model (for a product kind: a file of its own in `MakimaKit/Models`).
struct Memo: WireModel, Sendable, Equatable, Identifiable {
    var id: String
    var title: String?
    var body: String?

    static let wireFields: [WireField<Memo>] = [
        .id("id", \.id), .text("title", \.title), .text("body", \.body),
    ]
    static var wireBlank: Memo { Memo(id: "") }
}

/// 2. Its kind (for a product kind: a file of its own in `MakimaKit/Lists/Kinds`): the list,
/// and beside it the link kind that names one item, fetched alone (`GET /memos/{id}`) and
/// kept in the list kind's store.
extension ListKinds {
    static let memos = ListKind<Memo>(name: "memos", path: ["memos"], refreshPeriod: 60)
}

extension DeepLink.Kind {
    static let memo = DeepLink.Kind("memo", naming: ListKinds.memos, fetchedAlone: true)
}

extension ListQuery {
    static let memos = ListKinds.memos.query()
}

/// 3. Its list pane (`Panes/PaneRegistry.swift`: the entry, and its `PaneID` beside it).
extension PaneID {
    static let memos = PaneID(rawValue: "memos")
    static let memo = PaneID(rawValue: "memo")
}

extension PaneSpec {
    static let memos = PaneSpec(
        id: .memos, shortTitle: "BRF", term: nil,
        queries: { _, _ in [.memos] },
        build: { src in
            let columns = ListColumns<Memo>(
                noun: "memo", columns: [.init("title", nil) { b, _ in (oneLine(b.title ?? b.id), CellStyle()) }],
                sorts: [])
            let list = src.hub.listStore(ListKinds.memos).list(.memos)
            return .list(columns.model(list, filter: nil, now: src.now, clock: src.hub.connection.serverClock))
        },
        openRow: { DeepLink(.memo, $0) },
        make: { ListPane(id: .memos) })
}

/// 4. Its detail pane (for a product kind: a file of its own in `MakimaTUI/Panes/Details`).
struct MemoPane: Pane {
    let id = PaneID.memo
    var section: PaneID { .memos }
    var memo: Memo
    var title: String { "MEMO" }
    var isTopLevel: Bool { false }
    var shownLink: DeepLink? { DeepLink(.memo, memo.id) }
    var detailLinks: [DeepLink] { [DeepLink(.memo, memo.id)] }

    mutating func handle(_ action: KeyAction) -> PaneResponse { .ignored }

    mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        buffer.fill(region, style: .plain)
        PaneHeader.render(title: title, term: nil, into: &buffer, row: region.row(0), context: context)
        let lines = [oneLine(memo.title ?? "…"), oneLine(memo.body ?? "loading…")]
        for (i, line) in lines.enumerated() where i + 2 < region.height {
            buffer.write(StyledLine(line, CellStyle()), x: region.x, y: region.y + 2 + i, maxX: region.maxX)
        }
    }
}

/// 5. Its destination (`Controller/Destinations.swift`): the link kind that reaches it (which
/// makes `makima://memo/…` parse), the pane it opens, what it fetches, and how the pane is
/// rebuilt from the stores.
extension Destination {
    static let memo = Destination(
        pane: .memo, noun: "memo", link: .memo, list: .memos, landsOnList: true,
        open: { live, id, _ in
            live.navigation.show(MemoPane(memo: Memo(id: id)))
            live.engine?.loadDetail(DeepLink(.memo, id))
        },
        rebuild: { live, pane, _ in
            guard let link = pane.shownLink else { return }
            if let memo = live.hub.listStore(ListKinds.memos).details[link.id] {
                live.navigation.replaceTop(as: MemoPane.self) { $0.memo = memo }
            } else if live.hub.missing.links.contains(link) {
                live.navigation.showNotFound(link)
            }
        })
}

@MainActor @Suite("Adding a destination: a kind, its list pane, its detail and its deep link, from the test target")
struct DestinationRecipeTests {
    /// Runs `body` with the recipe's entries in the two registries.
    func withTheRecipe(_ body: () throws -> Void) throws {
        try PaneRegistry.$current.withValue(PaneRegistry.current.adding(.memos)) {
            try Destinations.$current.withValue(Destinations.current.adding(.memo), operation: body)
        }
    }

    @Test func aDestinationDeclaredInTheTestTargetIsListedOpenedFetchedKeptLinkedAndNotFound() throws {
        try withTheRecipe {
            let h = try ControllerHarness()
            defer { h.cleanUp() }

            // The list pane: a NAV// entry and a number key, reached by name, its list asked for.
            #expect(PaneID.topLevel.last == .memos && PaneID.memos.number == 8)
            h.type(.char(":"))
            for c in "memos" { h.type(.char(c)) }
            h.type(.enter)
            #expect(h.session.topPane.id == .memos)
            #expect(h.engine.refreshed.contains { $0.query == .memos })
            let now = h.live.now()
            h.post(
                .list(
                    .memos, ListPayload([Memo(id: "b1", title: "First memo"), Memo(id: "b2", title: "Second")]),
                    fetchedAt: now, fromCache: false))
            #expect(h.shows("First memo"), "\(h.screen)")

            // Enter on a row opens its detail, fetched alone through the engine.
            h.type(.enter)
            let first = DeepLink(.memo, "b1")
            #expect(h.session.topPane.id == .memo && h.session.topPane.shownLink == first)
            #expect(h.engine.details == [first])
            #expect(h.shows("loading…"), "\(h.screen)")

            // The engine's answer is kept in the kind's store and the pane follows it.
            h.post(.detail(first, ListPayload([Memo(id: "b1", title: "First memo", body: "The body of the memo")])))
            #expect(h.live.hub.listStore(ListKinds.memos).details["b1"]?.body == "The body of the memo")
            #expect(h.shows("The body of the memo"), "\(h.screen)")
            #expect(h.shows("MEMOS › MEMO"), "breadcrumbs: \(h.screen)")

            // A deep link of the new kind parses, prints, lands on its list with the row
            // selected and opens the detail on top.
            h.type(.char("1"))
            let second = try #require(DeepLink("makima://memo/b2"))
            #expect(second == DeepLink(.memo, "b2") && second.description == "makima://memo/b2")
            h.live.navigation.openDeepLink(second)
            h.step()
            #expect(h.loop.app.stack.ids == [.home, .memos, .memo], "\(h.screen)")
            #expect(h.engine.details.last == second)

            // The server has no such memo: the not-found screen stands in its place.
            h.post(.detailNotFound(second))
            #expect(h.shows("MEMO NOT FOUND"), "\(h.screen)")
        }
    }

    @Test func theRecipesEntriesAreSeenByTheTaskThatAddsThemAlone() throws {
        #expect(DeepLink("makima://memo/b1") == nil)
        #expect(!PaneID.topLevel.contains(.memos))
        try withTheRecipe {
            #expect(DeepLink("makima://memo/b1") != nil)
            #expect(PaneID.topLevel.contains(.memos))
            #expect(Destinations.reached(by: .memo)?.pane == .memo)
        }
    }
}
