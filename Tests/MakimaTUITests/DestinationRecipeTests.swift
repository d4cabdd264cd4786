import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

// A destination added the way docs/architecture.md ("Adding a destination") says, here in the
// test target: a kind of list whose items a deep link names and whose detail is fetched on
// its own, its list pane and its detail pane. Each step is one of the recipe's files; the
// registries take them for the length of the test (their `@TaskLocal`), so the tests running
// beside it never see them. Leave any step out and the test fails.

/// 1. The model (`MakimaKit/Models/Brief.swift`).
struct Brief: WireModel, Sendable, Equatable, Identifiable {
    var id: String
    var title: String?
    var body: String?

    static let wireFields: [WireField<Brief>] = [
        .id("id", \.id), .text("title", \.title), .text("body", \.body),
    ]
    static var wireBlank: Brief { Brief(id: "") }
}

/// 2. Its kind (`MakimaKit/Lists/Kinds/Briefs.swift`): the list, and the link that names one
/// item, fetched alone (`GET /briefs/{id}`).
extension DeepLink.Kind {
    static let brief = DeepLink.Kind(rawValue: "brief")
}

extension ListKinds {
    static let briefs = ListKind<Brief>(
        name: "briefs", path: ["briefs"], refreshPeriod: 60, link: ItemLink(.brief, fetchedAlone: true))
}

extension ListQuery {
    static let briefs = ListKinds.briefs.query()
}

/// 3. Its list pane (`Panes/PaneRegistry.swift`: the entry, and its `PaneID` beside it).
extension PaneID {
    static let briefs = PaneID(rawValue: "briefs")
    static let brief = PaneID(rawValue: "brief")
}

extension PaneSpec {
    static let briefs = PaneSpec(
        id: .briefs, shortTitle: "BRF", term: nil,
        queries: { _, _ in [.briefs] },
        build: { src in
            let columns = ListColumns<Brief>(
                noun: "brief", columns: [.init("title", nil) { b, _ in (oneLine(b.title ?? b.id), CellStyle()) }],
                sorts: [])
            let list = src.hub.listStore(ListKinds.briefs).list(.briefs)
            return .list(columns.model(list, filter: nil, now: src.now, clock: src.hub.connection.serverClock))
        },
        openRow: { DeepLink(.brief, $0) },
        make: { ListPane(id: .briefs) })
}

/// 4. Its detail pane (`Panes/Details/BriefPane.swift`).
struct BriefPane: Pane {
    let id = PaneID.brief
    var section: PaneID { .briefs }
    var brief: Brief
    var title: String { "BRIEF" }
    var isTopLevel: Bool { false }
    var shownLink: DeepLink? { DeepLink(.brief, brief.id) }
    var detailLinks: [DeepLink] { [DeepLink(.brief, brief.id)] }

    mutating func handle(_ action: KeyAction) -> PaneResponse { .ignored }

    mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        buffer.fill(region, style: .plain)
        PaneHeader.render(title: title, term: nil, into: &buffer, row: region.row(0), context: context)
        let lines = [oneLine(brief.title ?? "…"), oneLine(brief.body ?? "loading…")]
        for (i, line) in lines.enumerated() where i + 2 < region.height {
            buffer.write(StyledLine(line, CellStyle()), x: region.x, y: region.y + 2 + i, maxX: region.maxX)
        }
    }
}

/// 5. Its destination (`Controller/Destinations.swift`): the pane it opens, what it fetches,
/// and how the pane is rebuilt from the stores.
extension Destination {
    static let brief = Destination(
        pane: .brief, noun: "brief", link: .brief, list: .briefs, landsOnList: true,
        open: { live, id, _ in
            live.navigation.show(BriefPane(brief: Brief(id: id)))
            live.engine?.loadDetail(DeepLink(.brief, id))
        },
        rebuild: { live, pane, _ in
            guard let link = pane.shownLink else { return }
            if let brief = live.hub.listStore(ListKinds.briefs).details[link.id] {
                live.navigation.replaceTop(as: BriefPane.self) { $0.brief = brief }
            } else if live.hub.missing.links.contains(link) {
                live.navigation.showNotFound(link)
            }
        })
}

@MainActor @Suite("Adding a destination: a kind, its list pane, its detail and its deep link, from the test target")
struct DestinationRecipeTests {
    /// Runs `body` with the recipe's entries in the three registries.
    func withTheRecipe(_ body: () throws -> Void) throws {
        try ListKinds.$destinations.withValue(ListKinds.destinations.adding(ListKinds.briefs)) {
            try PaneRegistry.$current.withValue(PaneRegistry.current.adding(.briefs)) {
                try Destinations.$current.withValue(Destinations.current.adding(.brief), operation: body)
            }
        }
    }

    @Test func aDestinationDeclaredInTheTestTargetIsListedOpenedFetchedKeptLinkedAndNotFound() throws {
        try withTheRecipe {
            let h = try ControllerHarness()
            defer { h.cleanUp() }

            // The list pane: a NAV// entry and a number key, reached by name, its list asked for.
            #expect(PaneID.topLevel.last == .briefs && PaneID.briefs.number == 8)
            h.type(.char(":"))
            for c in "briefs" { h.type(.char(c)) }
            h.type(.enter)
            #expect(h.session.topPane.id == .briefs)
            #expect(h.engine.refreshed.contains { $0.query == .briefs })
            let now = h.live.now()
            h.post(
                .list(
                    .briefs, ListPayload([Brief(id: "b1", title: "First brief"), Brief(id: "b2", title: "Second")]),
                    fetchedAt: now, fromCache: false))
            #expect(h.shows("First brief"), "\(h.screen)")

            // Enter on a row opens its detail, fetched alone through the engine.
            h.type(.enter)
            let first = DeepLink(.brief, "b1")
            #expect(h.session.topPane.id == .brief && h.session.topPane.shownLink == first)
            #expect(h.engine.details == [first])
            #expect(h.shows("loading…"), "\(h.screen)")

            // The engine's answer is kept in the kind's store and the pane follows it.
            h.post(.detail(first, ListPayload([Brief(id: "b1", title: "First brief", body: "The body of the brief")])))
            #expect(h.live.hub.listStore(ListKinds.briefs).details["b1"]?.body == "The body of the brief")
            #expect(h.shows("The body of the brief"), "\(h.screen)")
            #expect(h.shows("BRIEFS › BRIEF"), "breadcrumbs: \(h.screen)")

            // A deep link of the new kind parses, prints, lands on its list with the row
            // selected and opens the detail on top.
            h.type(.char("1"))
            let second = try #require(DeepLink("makima://brief/b2"))
            #expect(second == DeepLink(.brief, "b2") && second.description == "makima://brief/b2")
            h.live.navigation.openDeepLink(second)
            h.settle()
            #expect(h.loop.app.stack.ids == [.home, .briefs, .brief], "\(h.screen)")
            #expect(h.engine.details.last == second)

            // The server has no such brief: the not-found screen stands in its place.
            h.post(.detailNotFound(second))
            #expect(h.shows("BRIEF NOT FOUND"), "\(h.screen)")
        }
    }

    @Test func theRecipesEntriesAreSeenByTheTaskThatAddsThemAlone() throws {
        #expect(DeepLink("makima://brief/b1") == nil)
        #expect(!PaneID.topLevel.contains(.briefs))
        try withTheRecipe {
            #expect(DeepLink("makima://brief/b1") != nil)
            #expect(PaneID.topLevel.contains(.briefs))
            #expect(Destinations.reached(by: .brief)?.pane == .brief)
        }
    }
}
