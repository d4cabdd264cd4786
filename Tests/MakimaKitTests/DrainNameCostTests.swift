import Foundation
import Testing

@testable import MakimaKit

/// A drain of events costs the UI thread no cache read per event: which tasks still need a
/// name is known in memory (`TaskNameLedger`), each id read from the task table once, when
/// first seen. Counted in statements run on the table's connection (`TaskTable.queriesRun`),
/// on a real cache file read as the dashboard reads it.
@MainActor @Suite struct DrainNameCostTests {
    let dir = CacheTempDir()
    let t0 = Date(timeIntervalSince1970: 2_000_000)

    private func output(_ task: String, _ seq: Int) -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: task, seq: seq, type: .output,
            payload: .output(text: String(repeating: "x", count: 1 + seq % 40), stream: "assistant"))
    }

    /// A hub reading a cache whose table holds `named` tasks with titles.
    private func reading(named: [String]) throws -> (StoreHub, CacheStore) {
        let store = try CacheStore.open(file: dir.databaseFile).store
        var pass = try store.beginTaskPass(.init(), key: "tasks")
        let tasks = named.map { MeshTask(id: $0, title: "Task \($0)", status: .running, updatedAt: t0) }
        try store.writeTaskPage(tasks, into: &pass)
        try store.finishTaskPass(pass, fetchedAt: t0, whole: true)
        let hub = StoreHub()
        hub.tasks.useTable(TaskTable.reading(store.file))
        return (hub, store)
    }

    /// Twenty streaming tasks, `drains` batches of 50 events each, asked after each drain as
    /// the dashboard asks (`unnamedTasks`).
    private func stream(_ hub: StoreHub, tasks: [String], drains: Int) -> [[String]] {
        var seq = 0
        var asked: [[String]] = []
        for _ in 0..<drains {
            var batch: [TaskEvent] = []
            for _ in 0..<50 {
                seq += 1
                batch.append(output(tasks[seq % tasks.count], seq))
            }
            let updates = [SyncUpdate.events(batch)]
            for u in updates { hub.apply(u) }
            asked.append(hub.unnamedTasks(in: updates))
        }
        return asked
    }

    @Test("known tasks cost no read however many drains; an unknown one is read once and reported every drain")
    func drainsReadEachIdOnce() throws {
        let named = (1...19).map { "t\($0)" }
        let (hub, _) = try reading(named: named)
        let before = hub.tasks.table.queriesRun
        let asked = stream(hub, tasks: named + ["born-live"], drains: 200)
        // Twenty ids seen, each read once: 10,000 events, 200 drains.
        #expect(hub.tasks.table.queriesRun - before == 20)
        // The unknown task is handed to the namer every drain (it dedupes), the named never.
        #expect(asked.allSatisfy { $0 == ["born-live"] })

        // Named by its fetch: no longer asked, and no read for it either.
        hub.apply(.tasksNamed([MeshTask(id: "born-live", title: "Born live", status: .running)]))
        let afterNaming = hub.tasks.table.queriesRun
        let askedAfter = stream(hub, tasks: named + ["born-live"], drains: 50)
        #expect(askedAfter.allSatisfy { $0.isEmpty })
        #expect(hub.tasks.table.queriesRun == afterNaming)
    }

    @Test("a table change reads the unnamed ids again once (the writer may have named them), never the named")
    func aTableChangeRereadsOnlyTheUnnamed() throws {
        let (hub, store) = try reading(named: ["t1"])
        _ = stream(hub, tasks: ["t1", "late"], drains: 3)
        let before = hub.tasks.table.queriesRun
        // The cache's list writer names `late` behind the store's back, then says rows changed.
        var pass = try store.beginTaskPass(.init(status: .running), key: "running")
        try store.writeTaskPage([MeshTask(id: "late", title: "Late", status: .running, updatedAt: t0)], into: &pass)
        try store.finishTaskPass(pass, fetchedAt: t0, whole: false)
        hub.apply(.taskRowsChanged)
        let queriesOfTheChange = hub.tasks.table.queriesRun - before
        let asked = stream(hub, tasks: ["t1", "late"], drains: 20)
        #expect(asked.allSatisfy { $0.isEmpty })
        #expect(hub.tasks.table.queriesRun - before - queriesOfTheChange == 1)
    }
}
