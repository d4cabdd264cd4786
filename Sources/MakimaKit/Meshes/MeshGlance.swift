import Foundation

/// What the background reads know of a mesh not on screen, as the MESHES// card and the
/// toasts use it: each figure as its last read left it, nil until it was first read (the
/// card shows `…` for it, never a wrong 0).
public struct MeshGlance: Sendable, Equatable {
    public var running: Int?
    public var questions: Int?
    /// Each waiting question (directive id and question id) with its directive's title.
    public var questionKeys: [String: String]?
    /// Each task failed in the last hour, by id, with its title.
    public var failureTitles: [String: String]?
    /// The figures counted from one page of more: lower bounds.
    public var atLeast: Set<MeshFigure> = []

    public var failedLastHour: Int? { failureTitles?.count }

    public init(
        running: Int? = nil, questions: Int? = nil, questionKeys: [String: String]? = nil,
        failureTitles: [String: String]? = nil, atLeast: Set<MeshFigure> = []
    ) {
        self.running = running
        self.questions = questions
        self.questionKeys = questionKeys
        self.failureTitles = failureTitles
        self.atLeast = atLeast
    }

    /// A glance that knows only `reading`'s figure.
    @MainActor
    public init(_ reading: MeshReading) {
        self.init()
        file(reading)
    }

    /// Replaces the figure `reading` read, counted with the rule `status` and Home use; the
    /// other figures stay as their own last reads left them.
    @MainActor
    public mutating func file(_ reading: MeshReading) {
        if reading.more { atLeast.insert(reading.figure) } else { atLeast.remove(reading.figure) }
        switch reading.figure {
        case .running:
            running = MeshSummary.counting(reading.lists, at: reading.readAt).runningTasks
        case .questions:
            questions = MeshSummary.counting(reading.lists, at: reading.readAt).pendingQuestions
            var keys: [String: String] = [:]
            for (_, payload) in reading.lists {
                for d in payload.items(as: Directive.self) ?? [] {
                    guard let q = d.pendingQuestion else { continue }
                    keys[d.id + "/" + (q.id.isEmpty ? q.text : q.id)] = d.title
                }
            }
            questionKeys = keys
        case .failures:
            var failed: [String: String] = [:]
            for t in reading.failures { failed[t.id] = t.displayTitle }
            failureTitles = failed
        }
    }
}
