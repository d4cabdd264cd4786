import Foundation

/// The pipeline's timeouts: a replay whose `resync.done` never comes, events held too long.
extension TaskEventPipeline {
    // MARK: Timeouts

    /// While a replay runs or events are held, checks the waits every second or so.
    func scheduleSweep() {
        let go = state.withLock { s -> Bool in
            if s.sweepQueued { return false }
            s.sweepQueued = true
            return true
        }
        guard go else { return }
        let interval = max(0.05, min(1, limits.replayTimeout / 4, limits.heldTimeout / 4))
        if !pool.submit(key: "sweep", after: interval, priority: 2, { [self] in sweep() }) {
            state.withLock { $0.sweepQueued = false }
        }
    }

    /// A replay whose `resync.done` is overdue counts as done; events held past
    /// `Limits.heldTimeout` without a fill working on them are let go and fetched over REST.
    private func sweep() {
        let t = now()
        var toFill: [String] = []
        let again = state.withLock { s -> Bool in
            s.sweepQueued = false
            if s.replaying && t.timeIntervalSince(s.replayStartedAt) >= limits.replayTimeout {
                s.replaying = false
                s.counters.resyncTimeouts += 1
                toFill += s.sequencer.tasksWithGaps
            }
            let gaps = Set(s.sequencer.tasksWithGaps)
            for (task, since) in s.heldSince {
                if !gaps.contains(task) {
                    s.heldSince[task] = nil
                } else if !s.replaying && !s.filling.contains(task) && t.timeIntervalSince(since) >= limits.heldTimeout
                {
                    let before = s.sequencer.heldDropped
                    s.sequencer.releaseHeld(task)
                    s.counters.heldDropped += s.sequencer.heldDropped - before
                    s.heldSince[task] = nil
                    toFill.append(task)
                }
            }
            return s.replaying || !s.heldSince.isEmpty
        }
        for task in Set(toFill) { startFill(task) }
        if again { scheduleSweep() }
    }
}
