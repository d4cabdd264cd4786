/// What is new on a mesh not on screen, said in one line naming it ("staging: 1 new
/// question", "prod: task failed: nightly build"). The first read of a mesh only sets what
/// is already there (nothing is announced for it); each later read is compared with the one
/// before. Pure: the controller feeds it each reading's glance and toasts what it returns.
public struct MeshAlerts: Sendable, Equatable {
    struct Known: Sendable, Equatable {
        var questions: Set<String>
        var failures: Set<String>
    }

    private var known: [String: Known] = [:]

    public init() {}

    /// The lines to announce for `glance`, read from the mesh called `name`.
    public mutating func observe(_ name: String, _ glance: MeshGlance) -> [String] {
        let now = Known(questions: Set(glance.questionKeys.keys), failures: Set(glance.failureTitles.keys))
        defer { known[name] = now }
        guard let before = known[name] else { return [] }
        var lines: [String] = []
        let questions = now.questions.subtracting(before.questions).count
        if questions > 0 { lines.append("\(name): \(questions) new question\(questions == 1 ? "" : "s")") }
        let failed = glance.failureTitles.filter { !before.failures.contains($0.key) }
        if failed.count == 1, let title = failed.first?.value {
            lines.append("\(name): task failed: \(title)")
        } else if failed.count > 1 {
            lines.append("\(name): \(failed.count) tasks failed")
        }
        return lines
    }

    /// Forgets what was known of `name` (it is on screen now; when it leaves the screen its
    /// first read sets the baseline again).
    public mutating func forget(_ name: String) { known[name] = nil }
}
