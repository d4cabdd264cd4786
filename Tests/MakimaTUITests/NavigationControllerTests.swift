import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// Drilling down through the real controller on a memory terminal: keys in, frames out, the
/// server's answers posted as the engine posts them.
@MainActor @Suite("Navigation on a memory terminal: detail panes, breadcrumbs, not found, contract filter")
struct NavigationControllerTests {
    let at = Date()
    /// A directive whose supervisor question waits (both directive lists hold it).
    let asking = Directive(
        id: "r1", title: "Ship payments", status: "active", hasPendingQuestion: true,
        pendingQuestion: SupervisorQuestion(id: "q", text: "May I migrate the orders table now?", taskID: "t1"))

    func seed(_ h: ControllerHarness) {
        h.post(
            .list(
                .contracts(status: nil),
                .contracts([
                    Contract(id: "c1", name: "Mesh scheduler", phase: "executing", status: .active, updatedAt: at),
                    Contract(
                        id: "c2", name: "Billing", phase: "review", status: .active,
                        updatedAt: at.addingTimeInterval(-60)),
                ]), fetchedAt: at, fromCache: false),
            .list(
                .tasks(status: nil, contractID: nil),
                .tasks([
                    MeshTask(id: "t1", contractID: "c1", title: "Cache heartbeats", status: .running, updatedAt: at),
                    MeshTask(
                        id: "t2", contractID: "c2", title: "Invoice export", status: .failed,
                        updatedAt: at.addingTimeInterval(-30)),
                ]), fetchedAt: at, fromCache: false),
            .list(.directives(pendingOnly: false), .directives([asking]), fetchedAt: at, fromCache: false),
            .list(.directives(pendingOnly: true), .directives([asking]), fetchedAt: at, fromCache: false),
            .list(
                .listenSessions(limit: 1),
                .listenSessions([ListenSession(id: "l1", title: nil, startedAt: at.addingTimeInterval(-600))]),
                fetchedAt: at, fromCache: false))
    }

    @Test(
        "Home → Tab to contracts → Enter → contract detail → Enter → task output; breadcrumbs; Esc back with focus kept"
    )
    func drillDownAndBack() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        seed(h)
        h.type(.tab, .tab)
        #expect(h.shows("▸ Mesh scheduler"), "\(h.screen)")
        h.type(.enter)
        #expect(h.shows("NAV// │ HOME › CONTRACT Mesh scheduler"), "\(h.screen)")
        #expect(h.engine.details.contains(.contract("c1")))
        #expect(h.engine.refreshed.contains { $0.query == .tasks(status: nil, contractID: "c1") })
        h.post(
            .list(
                .tasks(status: nil, contractID: "c1"),
                .tasks([
                    MeshTask(id: "t1", contractID: "c1", title: "Cache heartbeats", status: .running, createdAt: at)
                ]),
                fetchedAt: at, fromCache: false))
        #expect(h.shows("▸ RUNNING     Cache heartbeats"), "\(h.screen)")
        h.type(.enter)
        #expect(h.shows("NAV// │ HOME › CONTRACT Mesh scheduler › TASK Cache heartbeats"), "\(h.screen)")
        #expect(h.engine.followed == ["t1"])
        h.type(.escape)
        #expect(h.shows("NAV// │ HOME › CONTRACT Mesh scheduler"))
        h.type(.escape, .escape)
        #expect(h.shows("NAV// │ 1 HOME  2 CONTRACTS"), "\(h.screen)")
        #expect(h.shows("▸ Mesh scheduler"), "focus and selection are where they were")
        let home = h.session.topPane as? HomePane
        #expect(home?.focus == .contracts)
    }

    @Test("directives: Enter opens the directive with its whole question; Enter there opens the task that asked")
    func directiveDetail() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        seed(h)
        h.type(.char("4"))
        h.type(.enter)
        #expect(h.shows("DIRECTIVE//"), "\(h.screen)")
        #expect(h.shows("May I migrate the orders table now?"))
        #expect(h.shows("Cache heartbeats  RUNNING"))
        #expect(
            h.shows("NAV// │ DIRECTIVES › DIRECTIVE Ship payments")
                || h.shows("HOME › DIRECTIVES › DIRECTIVE Ship payments"))
        h.type(.enter)
        #expect(h.engine.followed == ["t1"])
        #expect(h.shows("› TASK Cache heartbeats"), "\(h.screen)")
    }

    @Test("listen: Enter opens the transcript, named by its start time; it fills in when the detail arrives")
    func transcript() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        seed(h)
        h.type(.tab, .tab, .tab, .tab)
        h.type(.enter)
        #expect(h.engine.details.contains(.listen("l1")))
        #expect(h.shows("TRANSCRIPT//"), "\(h.screen)")
        #expect(h.shows("loading transcript…"))
        #expect(!h.shows("l1"), "never the raw id")
        h.post(
            .listenSession(
                ListenSession(
                    id: "l1", startedAt: at.addingTimeInterval(-600),
                    transcript: [
                        TranscriptLine(speaker: "ops", text: "deploy is green", at: at),
                        TranscriptLine(speaker: "dev", text: "rolling back the canary", at: at),
                    ])))
        #expect(h.shows("deploy is green"), "\(h.screen)")
        h.type(.char("/"), .char("c"), .char("a"), .char("n"), .enter)
        #expect(h.shows("/can 1/1"), "\(h.screen)")
    }

    @Test("not found: a 404 for the contract on screen, and a deep link to a directive the list lacks")
    func notFound() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        seed(h)
        h.type(.tab, .tab, .enter)
        h.post(.detailNotFound(.contract("c1")))
        #expect(h.shows("CONTRACT NOT FOUND"), "\(h.screen)")
        #expect(h.shows("c1"))
        #expect(h.shows("NAV// │ HOME › NOT FOUND c1"))
        h.type(.escape)
        #expect(h.shows("2 CONTRACTS//"))

        let deep = try ControllerHarness(deepLink: .directive("r-missing"))
        defer { deep.cleanUp() }
        #expect(deep.shows("DIRECTIVE//") || deep.shows("DIRECTIVES//"), "\(deep.screen)")
        deep.post(
            .list(
                .directives(pendingOnly: false), .directives([Directive(id: "r1", title: "Other", status: "active")]),
                fetchedAt: Date(), fromCache: false))
        #expect(deep.shows("DIRECTIVE NOT FOUND"), "\(deep.screen)")
        #expect(deep.shows("r-missing"))
        deep.type(.escape)
        #expect(deep.shows("DIRECTIVES//"), "Esc shows the list the link landed on")
    }

    @Test("a deep link to a known directive selects its row and opens it")
    func deepLinkSelects() throws {
        let h = try ControllerHarness(deepLink: .directive("r2"))
        defer { h.cleanUp() }
        h.post(
            .list(
                .directives(pendingOnly: false),
                .directives([
                    Directive(id: "r1", title: "First", status: "active"),
                    Directive(id: "r2", title: "Second", status: "active"),
                ]), fetchedAt: Date(), fromCache: false))
        #expect(h.shows("NAV// │ HOME › DIRECTIVES › DIRECTIVE Second"), "\(h.screen)")
        h.type(.escape)
        #expect(h.shows("▸ Second"), "\(h.screen)")
    }

    @Test("tasks: c picks a contract from a list; the list is narrowed and fetched for it; “all” clears")
    func contractFilter() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        seed(h)
        h.type(.char("3"))
        #expect(h.shows("Invoice export") && h.shows("Cache heartbeats"))
        h.engine.forgetRefreshes()
        h.type(.char("c"))
        #expect(h.shows("PICK CONTRACT//"), "\(h.screen)")
        #expect(h.shows("all contracts"))
        h.type(.char("/"), .char("b"), .char("i"), .char("l"), .enter, .enter)
        #expect(h.engine.refreshed.contains { $0.query == .tasks(status: nil, contractID: "c2") })
        h.post(
            .list(
                .tasks(status: nil, contractID: "c2"),
                .tasks([MeshTask(id: "t2", contractID: "c2", title: "Invoice export", status: .failed, updatedAt: at)]),
                fetchedAt: at, fromCache: false))
        #expect(h.shows("TASKS//"), "\(h.screen)")
        #expect(h.shows("CONTRACT BILLING"), "the header names the contract: \(h.screen)")
        #expect(h.shows("Invoice export") && !h.shows("Cache heartbeats"), "\(h.screen)")
        h.type(.char("c"))
        h.type(.char("g"), .enter)
        #expect(h.shows("Cache heartbeats"), "all contracts again: \(h.screen)")
    }
}

@MainActor @Suite("Toasts name tasks by title; o opens the newest")
struct ToastTitleTests {
    let at = Date()

    @Test("a notification about a task the stores do not know waits for its title, never shows the id; o opens it")
    func unknownTaskIsFetched() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.post(
            .notifications([
                MeshNotification(
                    id: EventIdentity(taskID: "t", seq: 7), kind: .taskCompleted, title: "Task completed",
                    body: "t-unknown-42 completed",
                    link: .task("t-unknown-42"), at: at)
            ]))
        #expect(h.engine.details.contains(.task("t-unknown-42")))
        #expect(!h.shows("t-unknown-42"), "\(h.screen)")
        h.post(.task(MeshTask(id: "t-unknown-42", title: "Rotate the signing keys", status: .completed)))
        #expect(h.shows("Task completed: Rotate the signing keys completed"), "\(h.screen)")
        h.type(.char(":"))
        for c in "notifications" { h.type(.char(c)) }
        h.type(.enter)
        #expect(h.shows("NOTIFICATIONS//"), "\(h.screen)")
        #expect(h.shows("Rotate the signing keys completed"))
        h.type(.escape)
        h.type(.char("o"))
        #expect(h.engine.followed == ["t-unknown-42"], "o opens the task the newest notification is about")
        #expect(h.shows("› TASK Rotate the signing keys"), "\(h.screen)")
    }

    @Test("when the task cannot be fetched the toast still goes out after a short wait, naming no id")
    func titleNeverArrives() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.post(
            .notifications([
                MeshNotification(
                    id: EventIdentity(taskID: "t", seq: 8), kind: .taskFailed, title: "Task failed",
                    body: "t-gone failed", link: .task("t-gone"), at: at
                )
            ]))
        #expect(!h.shows("Task failed"))
        h.advance(NotificationController.titleWaitSeconds + 0.5)
        #expect(h.shows("Task failed: a task failed"), "\(h.screen)")
        #expect(!h.shows("t-gone"))
    }
}
