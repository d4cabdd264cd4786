import Foundation

/// The pipeline's two page loops, each a `RetryLoop`: a task's hole fill (its first gap, page
/// by page, until it has none) and a catch-up (a task's history after what is held, to its end).
extension TaskEventPipeline {
    // MARK: Hole fills

    func startFill(_ task: String) {
        let delay = state.withLock { s -> TimeInterval? in
            guard !s.filling.contains(task) else { return nil }
            s.filling.insert(task)
            s.counters.holeFills += 1
            // Setbacks are kept across fills: a task whose server keeps failing is retried
            // later and later, not at the event rate.
            return retry.delay(afterFailures: s.fillFailures[task] ?? 0)
        }
        if let delay { submitFill(task, delay: delay) }
    }

    private func submitFill(_ task: String, delay: TimeInterval) {
        let queued = pool.submit(key: "fill " + task, after: delay) { [self] in fillStep(task) }
        if !queued { state.withLock { _ = $0.filling.remove(task) } }  // full: the next event retries
    }

    /// One page of `GET /mesh/tasks/{id}/output?after_seq=` for the task's first gap; queues
    /// the next step until the task has no gap, or gives up.
    private func fillStep(_ task: String) {
        let gap = state.withLock { s -> (after: Int, upTo: Int)? in
            guard let range = s.sequencer.missingRange(for: task) else {
                s.filling.remove(task)
                return nil
            }
            return (range.lowerBound - 1, s.sequencer.highestWanted(for: task) ?? range.upperBound)
        }
        guard let gap else { return }
        let page: TaskOutputPage
        do { page = try fetchPage(task, gap.after, pageSize) } catch {
            return fillSetback(task, retryAfter: retryAfter(error), why: "\(error)")
        }
        var progress = false
        var denied = false
        apply { s in
            let before = s.sequencer.lastApplied[task] ?? 0
            let (applied, lost) = s.sequencer.acceptPage(task: task, after: gap.after, events: page.events)
            s.counters.eventsLost += lost
            progress = (s.sequencer.lastApplied[task] ?? 0) > before
            if !progress && !page.events.contains(where: { $0.taskID == task }) {
                // Nothing of this task after the mark on the server: what was seen above it
                // is not the server's. (A page of old events is a server ignoring
                // `after_seq`: a setback, retried and then given up, below.)
                s.sequencer.forget(task, upTo: gap.upTo)
                denied = true
            }
            return applied
        }
        if progress || denied {
            let more = state.withLock { s -> Bool in
                if progress { s.fillFailures[task] = nil }
                if s.sequencer.missingRange(for: task) != nil { return true }
                s.filling.remove(task)
                s.heldSince[task] = nil
                return false
            }
            if more { submitFill(task, delay: 0) }
            return
        }
        fillSetback(task, retryAfter: nil, why: "the page after seq \(gap.after) moved nothing")
    }

    /// A fill step failed or moved nothing: retry later, or give up after `Limits.attempts`
    /// (or at once when the gap closed meanwhile).
    private func fillSetback(_ task: String, retryAfter: TimeInterval?, why: String) {
        let next = state.withLock { s -> TimeInterval? in
            let failures = (s.fillFailures[task] ?? 0) + 1
            s.fillFailures[task] = failures
            let range = s.sequencer.missingRange(for: task)
            if case .retry(let delay) = retry.next(afterSetback: failures, retryAfter: retryAfter, stop: range == nil) {
                s.counters.fetchRetries += 1
                return delay
            }
            if let range {
                let before = s.sequencer.heldDropped
                s.sequencer.forget(task, upTo: s.sequencer.highestWanted(for: task) ?? range.upperBound)
                s.counters.heldDropped += s.sequencer.heldDropped - before
                s.counters.fetchesAbandoned += 1
            }
            s.filling.remove(task)
            s.heldSince[task] = nil
            return nil
        }
        if let next { return submitFill(task, delay: next) }
        onProblem(
            "task \(UntrustedText.clean(task)): missing output could not be fetched (\(why)); "
                + "gave up for now (asked for again with the task's next event or reconnect)")
    }

    // MARK: Catch-up

    func submitCatchUp(_ task: String, failures: Int, delay: TimeInterval) {
        let queued = pool.submit(key: "catch-up " + task, after: delay, priority: 1) { [self] in
            catchUpStep(task, failures: failures)
        }
        if !queued {
            finishCatchUp(task, error: APIError.transport("the sync engine is stopped or has too many fetches queued"))
        }
    }

    private func catchUpStep(_ task: String, failures: Int) {
        let after = state.withLock { $0.sequencer.lastApplied[task] ?? 0 }
        let page: TaskOutputPage
        do { page = try fetchPage(task, after, pageSize) } catch {
            // A stopped engine or a refused key ends the loop at once.
            let stop = error is CancellationError || (error as? APIError)?.isUnauthorized == true
            switch retry.next(afterSetback: failures + 1, retryAfter: retryAfter(error), stop: stop) {
            case .giveUp: return finishCatchUp(task, error: error)
            case .retry(let delay):
                state.withLock { $0.counters.fetchRetries += 1 }
                return submitCatchUp(task, failures: failures + 1, delay: delay)
            }
        }
        var progress = false
        apply { s in
            let (applied, lost) = s.sequencer.acceptPage(task: task, after: after, events: page.events)
            s.counters.eventsLost += lost
            progress = (s.sequencer.lastApplied[task] ?? 0) > after
            return applied
        }
        if progress { return submitCatchUp(task, failures: 0, delay: 0) }
        if page.events.filter({ $0.taskID == task }).isEmpty { return finishCatchUp(task, error: nil) }
        // Events, but none after the mark that could be applied: the server ignored `after_seq`
        // or sent seqs no server has. Back off, then give up visibly.
        switch retry.next(afterSetback: failures + 1) {
        case .giveUp:
            state.withLock { $0.counters.fetchesAbandoned += 1 }
            finishCatchUp(task, error: FetchProblem.noProgress(attempts: failures + 1))
        case .retry(let delay):
            state.withLock { $0.counters.fetchRetries += 1 }
            submitCatchUp(task, failures: failures + 1, delay: delay)
        }
    }

    private func finishCatchUp(_ task: String, error: Error?) {
        let waiters = state.withLock { $0.catchUpWaiters.removeValue(forKey: task) ?? [] }
        for done in waiters { done(error) }
    }
}
