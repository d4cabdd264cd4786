import MakimaKit

extension TaskOutputController {
    /// Events asked for by one scroll above the oldest line held.
    static let olderOutputPage = 500

    /// Older output of the task on screen: a page, or (`toStart`) everything back to the
    /// output's start that the reading window holds. The buffer says it is loading (the view's
    /// top line shows it, rebuilt since it read the buffer) until the engine answers, with
    /// lines or without.
    func loadOlderOutput(_ id: String, toStart: Bool) {
        guard let engine = engines.engine, let buffer = hub.tasks.outputs[id], let before = buffer.olderBefore,
            !buffer.olderLoading, !buffer.readingWindowFull
        else { return }
        let room = max(1, TaskOutputBuffer.readingWindow - buffer.lineCount)
        hub.tasks.outputs[id]?.olderLoading = true
        engine.loadOlderOutput(taskID: id, beforeSeq: before, count: toStart ? room : min(room, Self.olderOutputPage))
    }
}
