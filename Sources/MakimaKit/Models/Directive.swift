import Foundation

public struct SupervisorQuestion: Sendable, Equatable {
    public var id: String
    public var text: String
    public var askedAt: Date?
    public var taskID: String?
    public init(id: String, text: String, askedAt: Date? = nil, taskID: String? = nil) {
        self.id = id
        self.text = text
        self.askedAt = askedAt
        self.taskID = taskID
    }
}

public struct Directive: WireModel, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    public var status: String
    public var hasPendingQuestion: Bool
    public var pendingQuestion: SupervisorQuestion?
    public var updatedAt: Date?

    public init(
        id: String, title: String, status: String, hasPendingQuestion: Bool = false,
        pendingQuestion: SupervisorQuestion? = nil, updatedAt: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.status = status
        self.hasPendingQuestion = hasPendingQuestion
        self.pendingQuestion = pendingQuestion
        self.updatedAt = updatedAt
    }

    public static let wireFields: [WireField<Directive>] = [
        .id("id", \.id), .text("title", \.title, otherwise: \.id), .text("status", \.status),
        .date("updated_at", \.updatedAt), pendingQuestionField,
        .bool("has_pending_question", \.hasPendingQuestion, otherwise: { $0.pendingQuestion != nil }),
    ]
    public static var wireBlank: Directive { Directive(id: "", title: "", status: "unknown") }

    /// `pending_question`: an object with at least its text, else none.
    private static let pendingQuestionField = WireField<Directive>.custom(
        read: { c, directive in
            if let q = try? c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("pending_question")),
                let text = q.text("text")
            {
                directive.pendingQuestion = SupervisorQuestion(
                    id: q.idIfPresent("id") ?? "", text: text, askedAt: q.date("asked_at"),
                    taskID: q.idIfPresent("task_id"))
            }
        },
        write: { directive, c in
            guard let q = directive.pendingQuestion else { return }
            var qc = c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("pending_question"))
            try qc.encode(q.id, forKey: AnyKey("id"))
            try qc.encode(q.text, forKey: AnyKey("text"))
            try qc.encodeIfPresent(q.askedAt.map(RFC3339.format), forKey: AnyKey("asked_at"))
            try qc.encodeIfPresent(q.taskID, forKey: AnyKey("task_id"))
        })
}
