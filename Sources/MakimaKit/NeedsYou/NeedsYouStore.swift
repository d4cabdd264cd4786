import Foundation
import Observation

/// What waits on the operator now (`NeedsYouItem`), learnt from what reaches the stores: the
/// work per batch follows what the batch holds (its status, gate and question events, the rows
/// of a list just read), never the size of the mesh or the length of a stream. Lives on the UI
/// thread with the other stores; the hub feeds it (`StoreHub.apply`).
@MainActor @Observable
public final class NeedsYouStore {
    /// Oldest first, acknowledged ones left out.
    public private(set) var items: [NeedsYouItem] = []
    /// Counts changes of `items`: what reacts to them (the masthead count, the notify command)
    /// does its work once per change, not once per batch.
    @ObservationIgnored public private(set) var version: UInt64 = 0

    @ObservationIgnored private var questions: [String: (item: NeedsYouItem, learnt: Date)] = [:]
    @ObservationIgnored private var gates: [String: NeedsYouItem] = [:]
    @ObservationIgnored private var failures: [String: NeedsYouItem] = [:]
    @ObservationIgnored private var offline: [String: NeedsYouItem] = [:]
    /// Acknowledged items by id, and when (the cache keeps them: `restore`).
    @ObservationIgnored public private(set) var acknowledged: [String: Date] = [:]
    /// Acknowledgements made or forgotten since the owner last saved them (`takeUnsaved`).
    @ObservationIgnored private var unsaved: [(item: String, at: Date?)] = []
    @ObservationIgnored private var changed = false

    public init() {}

    /// The acknowledgements the cache kept.
    public func restore(acknowledged kept: [String: Date]) {
        acknowledged = kept
        publish(force: true)
    }

    /// `x`: the item leaves the list, here and after a restart.
    public func acknowledge(_ id: String, at now: Date = Date()) {
        guard acknowledged[id] == nil, id.utf8.count <= NeedsYouItem.longestID else { return }
        acknowledged[id] = now
        unsaved.append((id, now))
        publish(force: true)
    }

    /// What to write to the cache since the last call.
    public func takeUnsaved() -> [(item: String, at: Date?)] {
        defer { unsaved = [] }
        return unsaved
    }

    /// Forgets every item (another server); acknowledgements come again from its cache.
    public func reset() {
        (questions, gates, failures, offline, acknowledged, unsaved) = ([:], [:], [:], [:], [:], [])
        publish(force: true)
    }

    // MARK: - Learning

    func events(_ events: [TaskEvent], clock: ClockOffset, now: Date) {
        for e in events {
            switch e.payload {
            case .output, .unknown: continue
            case .status(let status, _, _):
                let at = e.arrivedAt ?? e.ts.map(clock.local)
                taskStatus(
                    e.taskID, status, title: failures[e.taskID]?.title ?? gates[e.taskID]?.title, at: at, now: now)
            case .completionGate(let ready, let summary, _):
                if ready {
                    let since = e.arrivedAt ?? e.ts.map(clock.local)
                    put(
                        NeedsYouItem(
                            kind: .gate, subjectID: e.taskID, title: gates[e.taskID]?.title ?? summary, since: since,
                            link: DeepLink(.task, e.taskID), taskID: e.taskID), in: &gates)
                } else {
                    drop(e.taskID, from: &gates)
                }
            case .supervisorQuestion(let qid, let text, let directiveID):
                guard !qid.isEmpty else { continue }
                let link = directiveID.map { DeepLink(.directive, $0) } ?? DeepLink(.task, e.taskID)
                let item = NeedsYouItem(
                    kind: .question, subjectID: qid, title: text, since: e.arrivedAt ?? e.ts.map(clock.local),
                    link: link, taskID: e.taskID)
                if questions[item.subjectID] == nil { questions[item.subjectID] = (item, now) }
                changed = true
            }
        }
        publish()
    }

    /// Rows of a task list just read (any filter): a failed one is an item, one that is not
    /// failed any more ends its failure. Tasks the list does not hold are left as they were.
    func tasksListed(_ tasks: [MeshTask], clock: ClockOffset, now: Date) {
        for task in tasks { taskKnown(task, clock: clock, now: now) }
        publish()
    }

    /// A task read on its own (named, or its detail).
    func taskKnown(_ task: MeshTask, clock: ClockOffset, now: Date) {
        let title = task.isUnnamed ? nil : task.displayTitle
        if task.status == .failed {
            if var known = failures[task.id] {
                if known.title == nil, let title { (known.title, changed) = (title, true) }
                failures[task.id] = known
            } else if let item = NeedsYouRules.failure(task, clock: clock, now: now) {
                put(item, in: &failures)
            }
        } else {
            taskStatus(task.id, task.status, title: title, at: nil, now: now)
        }
        if let title, gates[task.id]?.title == nil, gates[task.id] != nil {
            gates[task.id]?.title = title
            changed = true
        }
    }

    /// The directives waiting on a question, from a list read at `fetchedAt`: it says what is
    /// waiting, except for questions that arrived live after it was read.
    func questionsListed(_ directives: [Directive], fetchedAt: Date, clock: ClockOffset) {
        var next: [String: (item: NeedsYouItem, learnt: Date)] = questions.filter { $0.value.learnt > fetchedAt }
        for d in directives {
            guard let item = NeedsYouRules.question(d, clock: clock) else { continue }
            next[item.subjectID] = (questions[item.subjectID]?.item ?? item, fetchedAt)
        }
        questions = next
        changed = true
        publish()
    }

    /// The whole daemons list: an offline daemon holding running tasks is an item from the
    /// first list that says so (kept as it was while it stays so).
    func daemonsListed(_ daemons: [Daemon], clock: ClockOffset, now: Date) {
        var next: [String: NeedsYouItem] = [:]
        for d in daemons.prefix(NeedsYouRules.keptPerKind) {
            let since = offline[d.id]?.since ?? d.lastHeartbeat.map(clock.local) ?? now
            if let item = NeedsYouRules.offline(d, since: min(since, now)) { next[d.id] = item }
        }
        if next != offline { (offline, changed) = (next, true) }
        publish()
    }

    // MARK: - Bookkeeping

    private func taskStatus(_ id: String, _ status: TaskStatus, title: String?, at: Date?, now: Date) {
        if status == .failed {
            // A failure replayed from history (the cache, a reconnect's resync) counts by the
            // same window as one read from a list.
            if let at, now.timeIntervalSince(at) > NeedsYouRules.failureWindow { return }
            if failures[id] == nil {
                put(
                    NeedsYouItem(
                        kind: .failed, subjectID: id, title: title, since: at ?? now, link: DeepLink(.task, id),
                        taskID: id), in: &failures)
            }
        } else if status != .unknown, failures[id] != nil {
            // Run again: a later failure is a new one, to be seen again.
            drop(id, from: &failures)
            forget("failed:\(id)")
        }
        if status.isFinal { drop(id, from: &gates) }
    }

    private func put(_ item: NeedsYouItem, in kind: inout [String: NeedsYouItem]) {
        kind[item.subjectID] = item
        if kind.count > NeedsYouRules.keptPerKind,
            let oldest = kind.values.min(by: { ($0.since ?? .distantFuture) < ($1.since ?? .distantFuture) })
        {
            kind[oldest.subjectID] = nil
        }
        changed = true
    }

    private func drop(_ id: String, from kind: inout [String: NeedsYouItem]) {
        if kind.removeValue(forKey: id) != nil { changed = true }
    }

    private func forget(_ item: String) {
        guard acknowledged.removeValue(forKey: item) != nil else { return }
        unsaved.append((item, nil))
    }

    private func publish(force: Bool = false) {
        guard changed || force else { return }
        changed = false
        let all = questions.values.map(\.item) + gates.values + failures.values + offline.values
        let shown = NeedsYouRules.ordered(all.filter { acknowledged[$0.id] == nil })
        if shown != items {
            items = shown
            version &+= 1
        }
    }
}
