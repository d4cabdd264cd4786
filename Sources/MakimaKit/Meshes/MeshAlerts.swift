/// What is new on a mesh not on screen, said in one line naming it ("staging: 1 new
/// question", "prod: task failed: nightly build"). Each figure's first read only sets what is
/// already there (nothing is announced for it); each later read of it is compared with the
/// one before. Pure: the controller feeds it each reading's glance and toasts what it returns.
public struct MeshAlerts: Sendable, Equatable {
    struct Known: Sendable, Equatable {
        /// nil: not read yet (its first read is the baseline).
        var questions: Set<String>?
        var failures: Set<String>?
    }

    private var known: [String: Known] = [:]

    public init() {}

    /// The lines to announce for `glance`, read from the mesh called `name`.
    public mutating func observe(_ name: String, _ glance: MeshGlance) -> [String] {
        let before = known[name] ?? Known()
        let now = Known(
            questions: glance.questionKeys.map { Set($0.keys) } ?? before.questions,
            failures: glance.failureTitles.map { Set($0.keys) } ?? before.failures)
        known[name] = now
        var lines: [String] = []
        if let was = before.questions, let questions = now.questions?.subtracting(was).count, questions > 0 {
            lines.append("\(name): \(questions) new question\(questions == 1 ? "" : "s")")
        }
        if let was = before.failures {
            let failed = (glance.failureTitles ?? [:]).filter { !was.contains($0.key) }
            if failed.count == 1, let title = failed.first?.value {
                lines.append("\(name): task failed: \(title)")
            } else if failed.count > 1 {
                lines.append("\(name): \(failed.count) tasks failed")
            }
        }
        return lines
    }

    /// Forgets what was known of `name` (it is on screen now; when it leaves the screen each
    /// figure's first read sets its baseline again).
    public mutating func forget(_ name: String) { known[name] = nil }
}
