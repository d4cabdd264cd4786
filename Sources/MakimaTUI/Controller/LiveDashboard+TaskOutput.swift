import Foundation
import MakimaKit

/// The task whose output is on screen, and its lines converted so far.
struct OutputView {
    let taskID: String
    var lines: TaskOutputLines
    var historyLoading = false
    /// The task's output changed since the view's model was last built: it is built again
    /// before the next frame (at most 30 a second), not once per batch of a burst.
    var stale = false
    /// The plan rendered for the header section, kept until the plan text changes.
    var plan: (source: String, lines: [RenderedLine]) = ("", [])
    /// Opened from a `:grep` hit: the pattern and line to put the view on, once shown.
    var seek: (pattern: String, line: String)?
}

extension LiveDashboard {
    /// Pushes the output view of a task: cached output at once, then the task's detail, and
    /// the rest of its history from the server.
    func openTask(_ id: String) {
        guard let engine else { return }
        let held = hub.tasks.outputs[id]
        hub.tasks.keepOutput(of: id)
        if held == nil || (held!.droppedLines == 0 && (held!.firstSeq ?? Int.max) > 1) {
            let cached = engine.cachedOutput(taskID: id)
            if !cached.isEmpty { hub.apply(.olderOutput(taskID: id, events: cached)) }
        }
        output = OutputView(taskID: id, lines: TaskOutputLines(glyphs: session.glyphs))
        // History after what the cache holds comes through the engine, like live events: in
        // order, into the cache, and never twice.
        output?.historyLoading = (hub.tasks.outputs[id]?.lineCount ?? 0) == 0
        engine.follow(taskID: id)
        session.cancelTimer(id: "poll")
        session.push(TaskOutputPane(model: outputModel()))
        engine.loadDetail(.task(id))
    }

    func rebuildOutput() {
        guard let id = output?.taskID else { return }
        let model = outputModel()
        session.updatePanes {
            $0.update(.tasks, as: TaskOutputPane.self) { pane in if pane.model.taskID == id { pane.update(model) } }
        }
        seekGrepHit()
    }

    private func outputModel() -> TaskOutputViewModel {
        guard let id = output?.taskID else { return TaskOutputViewModel(taskID: "", title: "") }
        let task =
            hub.tasks.details[id] ?? hub.tasks.lists.values.lazy.compactMap { $0.items.first { $0.id == id } }.first
        let buffer = hub.tasks.outputs[id] ?? TaskOutputBuffer()
        let lines = output?.lines.lines(of: buffer) ?? []
        let note =
            output?.historyLoading == true ? "loading output…" : (unauthorized ? Self.refusedKey : "no output yet")
        var model = TaskOutputViewModel(
            taskID: id, title: notifications.taskTitle(id) ?? id, status: buffer.status ?? task?.status,
            lines: lines, firstLineNumber: output?.lines.firstLineNumber ?? 0, note: note)
        model.links = output?.lines.links.map(\.url) ?? []
        if let converted = output?.lines { model.adopt(converted) }
        if let task {
            model.facts = facts(of: task)
            if output?.plan.source != task.plan {
                output?.plan = (task.plan, TaskPlan.render(task.plan, glyphs: session.glyphs))
            }
            model.plan = output?.plan.lines ?? []
        }
        return model
    }

    /// The header's facts, with names from the stores where they are known.
    private func facts(of task: MeshTask) -> TaskFacts {
        let daemon = task.daemonID.map { id in hub.daemons.list.items.first { $0.id == id }?.hostname ?? id }
        let contract = task.contractID.map { id in
            hub.contracts.details[id]?.name
                ?? hub.contracts.lists.values.lazy.compactMap { $0.items.first { $0.id == id }?.name }.first ?? id
        }
        return TaskFacts(
            daemon: daemon, contract: contract, created: task.createdAt, updated: task.updatedAt,
            completed: task.completedAt, parent: task.parentID.map { notifications.taskTitle($0) ?? $0 })
    }

}
