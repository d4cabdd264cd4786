import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// A task known by id alone (its events came before any list held it) is never shown as a
/// bare id in a title's place: `loading… <first 8>` until its fetch, then its title, or
/// `not on the server · <first 8>` after a 404.
@MainActor @Suite struct UnnamedTaskRowTests {
    let id = "c2b961e9-a2c0-49ad-a4b0-5f2d7a1c9e11"
    let now = MeshFixture.now

    func status(_ hub: StoreHub) {
        hub.apply(
            .events([
                TaskEvent(
                    eventID: 1, taskID: id, seq: 1, type: .status, ts: now,
                    payload: .status(status: .running, previous: nil, reason: nil))
            ]))
    }

    func tasksRow(_ hub: StoreHub) -> String {
        let window = ListPaneModels.tasks(hub, status: nil, now: now).window
        return window.count > 0 ? window.row(0).line.text : ""
    }

    @Test func aTaskKnownByIdAloneReadsLoadingThenItsTitle() {
        let hub = StoreHub()
        status(hub)
        #expect(hub.unnamedTasks(in: [.events([])]).isEmpty)
        #expect(hub.tasks.needsName(id))
        #expect(tasksRow(hub).hasPrefix("loading… c2b961e9"), "\(tasksRow(hub))")
        #expect(!tasksRow(hub).contains(id))
        let home = HomeMeshModel.from(hub, now: now).recentTasks.map(\.title)
        #expect(home == ["loading… c2b961e9"])

        hub.apply(.tasksNamed([MeshTask(id: id, title: "Tidy the heartbeat", status: .running, daemonID: "d1")]))
        #expect(!hub.tasks.needsName(id))
        #expect(tasksRow(hub).hasPrefix("Tidy the heartbeat"), "\(tasksRow(hub))")
        #expect(HomeMeshModel.from(hub, now: now).recentTasks.map(\.title) == ["Tidy the heartbeat"])
    }

    @Test func aTaskTheServerHasNotSaysSoRatherThanLoading() {
        let hub = StoreHub()
        status(hub)
        hub.apply(.detailNotFound(.task(id)))
        #expect(tasksRow(hub).hasPrefix("not on the server · c2b961e9"), "\(tasksRow(hub))")
        #expect(HomeMeshModel.from(hub, now: now).recentTasks.map(\.title) == ["not on the server · c2b961e9"])
    }

    @Test func aDirectivesAskedByNamesAnUnknownTaskAsLoading() throws {
        let hub = StoreHub()
        let directive = Directive(
            id: "r1", title: "Ship payments", status: "active", hasPendingQuestion: true,
            pendingQuestion: SupervisorQuestion(id: "q", text: "May I?", taskID: id))
        let update = SyncUpdate.list(
            .directives(pendingOnly: false), .directives([directive]), fetchedAt: now, fromCache: false)
        hub.apply(update)
        #expect(hub.unnamedTasks(in: [update]) == [id])
        let model = try #require(DirectiveDetailModel.from(hub, id: "r1", now: now))
        #expect(model.taskTitle == "loading… c2b961e9")
    }
}
