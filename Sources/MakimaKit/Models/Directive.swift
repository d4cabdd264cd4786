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

public struct Directive: Decodable, Sendable, Equatable, Identifiable {
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

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = try c.id("id")
        title = c.text("title") ?? id
        status = c.text("status") ?? "unknown"
        updatedAt = c.date("updated_at")
        if let q = try? c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("pending_question")),
            let text = q.text("text")
        {
            pendingQuestion = SupervisorQuestion(
                id: q.idIfPresent("id") ?? "", text: text, askedAt: q.date("asked_at"), taskID: q.idIfPresent("task_id")
            )
        } else {
            pendingQuestion = nil
        }
        hasPendingQuestion = c.bool("has_pending_question") ?? (pendingQuestion != nil)
    }
}

extension Directive: Encodable {
    /// The wire shape `init(from:)` reads (the cache stores models this way).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(id, forKey: AnyKey("id"))
        try c.encode(title, forKey: AnyKey("title"))
        try c.encode(status, forKey: AnyKey("status"))
        try c.encode(hasPendingQuestion, forKey: AnyKey("has_pending_question"))
        if let q = pendingQuestion {
            var qc = c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("pending_question"))
            try qc.encode(q.id, forKey: AnyKey("id"))
            try qc.encode(q.text, forKey: AnyKey("text"))
            try qc.encodeIfPresent(q.askedAt.map(RFC3339.format), forKey: AnyKey("asked_at"))
            try qc.encodeIfPresent(q.taskID, forKey: AnyKey("task_id"))
        }
        try c.encodeIfPresent(updatedAt.map(RFC3339.format), forKey: AnyKey("updated_at"))
    }
}
