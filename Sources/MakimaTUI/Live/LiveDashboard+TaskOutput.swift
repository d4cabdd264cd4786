import Foundation
import MakimaKit

/// The task whose output is on screen, and its lines converted so far.
struct OutputView {
    let taskID: String
    var lines: TaskOutputLines
    var historyLoading = false
}

extension LiveDashboard {
    /// Pushes the output view of a task: cached output at once, then the task's detail, and
    /// its history from the server when nothing of it is known here.
    func openTask(_ id: String) {
        guard let engine else { return }
        let held = hub.tasks.outputs[id]
        if held == nil || (held!.droppedLines == 0 && (held!.firstSeq ?? Int.max) > 1) {
            let cached = engine.cachedOutput(taskID: id)
            if !cached.isEmpty { hub.apply(.olderOutput(taskID: id, events: cached)) }
        }
        output = OutputView(taskID: id, lines: TaskOutputLines(glyphs: session.glyphs))
        if (hub.tasks.outputs[id]?.lineCount ?? 0) == 0 {
            output?.historyLoading = true
            fetchHistory(id, engine: engine)
        }
        session.cancelTimer(id: "home-poll")
        session.push(TaskOutputPane(model: outputModel()))
        engine.loadDetail(.task(id))
    }

    func rebuildOutput() {
        guard let id = output?.taskID else { return }
        let model = outputModel()
        session.updatePanes { $0.update(.tasks, as: TaskOutputPane.self) { pane in if pane.model.taskID == id { pane.update(model) } } }
    }

    private func outputModel() -> TaskOutputViewModel {
        guard let id = output?.taskID else { return TaskOutputViewModel(taskID: "", title: "") }
        let task = hub.tasks.details[id] ?? hub.tasks.lists.values.lazy.compactMap { $0.items.first { $0.id == id } }.first
        let buffer = hub.tasks.outputs[id] ?? TaskOutputBuffer()
        let lines = output?.lines.lines(of: buffer) ?? []
        let note = output?.historyLoading == true ? "loading output…" : (unauthorized ? Self.refusedKey : "no output yet")
        return TaskOutputViewModel(taskID: id, title: taskTitle(id) ?? id, status: buffer.status ?? task?.status,
                                   lines: lines, firstLineNumber: buffer.droppedLines, note: note)
    }

    /// The task's output from its first event (up to `historyLimit` events), on a thread of its
    /// own; it arrives as `.olderOutput`, which keeps only what is older than what is held.
    private func fetchHistory(_ id: String, engine: SyncEngine) {
        let fetcher = engine.fetcher, outbox = engine.outbox
        let limit = Self.historyLimit
        Thread.detachNewThread {
            var events: [TaskEvent] = []
            var after = 0
            do {
                while events.count < limit {
                    let page = try fetcher.outputPage(taskID: id, afterSeq: after, limit: 500)
                    let mine = page.events.filter { $0.taskID == id && $0.seq > after }
                    guard let last = mine.last else { break }
                    events += mine
                    after = last.seq
                }
                outbox.post(.olderOutput(taskID: id, events: events))
            } catch {
                let failure = MeshFetcher.classify(error)
                outbox.post(failure.isUnauthorized ? .unauthorized(message: failure.message) : .olderOutput(taskID: id, events: events))
                if !failure.isUnauthorized { outbox.post(.notice("task output: \(failure.message)")) }
            }
        }
    }

    static let historyLimit = 4000
}
