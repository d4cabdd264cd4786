import Foundation

public struct SupervisorQuestion: Sendable, Equatable {
    public var id: String
    public var text: String
    public var askedAt: Date?
    public var taskID: String?
    public init(id: String, text: String, askedAt: Date? = nil, taskID: String? = nil) {
        self.id = id; self.text = text; self.askedAt = askedAt; self.taskID = taskID
    }
}

public struct Directive: Decodable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String
    public var status: String
    public var hasPendingQuestion: Bool
    public var pendingQuestion: SupervisorQuestion?
    public var updatedAt: Date?

    public init(id: String, title: String, status: String, hasPendingQuestion: Bool = false,
                pendingQuestion: SupervisorQuestion? = nil, updatedAt: Date? = nil) {
        self.id = id; self.title = title; self.status = status
        self.hasPendingQuestion = hasPendingQuestion; self.pendingQuestion = pendingQuestion; self.updatedAt = updatedAt
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = try c.id("id")
        title = c.text("title") ?? id
        status = c.text("status") ?? "unknown"
        updatedAt = c.date("updated_at")
        if let q = try? c.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("pending_question")), let text = q.text("text") {
            pendingQuestion = SupervisorQuestion(id: q.idIfPresent("id") ?? "", text: text, askedAt: q.date("asked_at"), taskID: q.idIfPresent("task_id"))
        } else {
            pendingQuestion = nil
        }
        hasPendingQuestion = c.bool("has_pending_question") ?? (pendingQuestion != nil)
    }
}
