import Foundation

/// What one background read of a mesh not on screen brought: the lists `status` counts
/// (`MeshSummary.queries`, counted on the UI thread by `MeshSummary.counting`, the one rule)
/// and one page of its newest failed tasks, those that failed in the last hour kept. Server
/// text in it was cleaned when decoded.
public struct MeshReading: Sendable {
    public var lists: [(ListQuery, ListPayload)]
    /// Failed in the hour before `readAt` (on our clock), newest first.
    public var failures: [MeshTask]
    public var readAt: Date

    public init(lists: [(ListQuery, ListPayload)], failures: [MeshTask], readAt: Date) {
        self.lists = lists
        self.failures = failures
        self.readAt = readAt
    }

    /// Failed tasks asked for in one page: "failed in the last hour" counts up to this many.
    public static let failedPage = 50
    /// Bytes one list of a background read may bring (a mesh not on screen is a glance).
    public static let listBudget = 8 << 20
    /// Every request of a background read: a dead or slow server costs at most this.
    public static let transport = HTTPTransport(
        configuration: HTTPConfiguration(
            connectTimeout: .seconds(5), totalTimeout: .seconds(20), maxResponseBytes: 4 << 20))

    /// Reads the lists one after the other on the calling thread (the reader's own); the
    /// first failure ends the read.
    public static func read(using client: APIClient, now: @Sendable () -> Date) throws -> MeshReading {
        var lists: [(ListQuery, ListPayload)] = []
        for query in MeshSummary.queries {
            lists.append((query, try MeshSummary.list(query, using: client, maxBytes: listBudget)))
        }
        let page = try client.getBlocking(
            ListEnvelope<MeshTask>.self, .tasks(status: .failed, contractID: nil, limit: failedPage))
        let at = now()
        let clock = client.serverClock.offset
        let failures = page.items.filter { t in
            guard t.status == .failed, let when = t.completedAt ?? t.updatedAt else { return false }
            return clock.local(when) > at.addingTimeInterval(-3600)
        }
        return MeshReading(lists: lists, failures: failures, readAt: at)
    }
}

/// A background read's numbers, as the MESHES// card and the toasts use them.
public struct MeshGlance: Sendable, Equatable {
    public var running: Int
    public var questions: Int
    public var failedLastHour: Int
    /// Each waiting question (directive id and question id) with its directive's title.
    public var questionKeys: [String: String]
    /// Each task failed in the last hour, by id, with its title.
    public var failureTitles: [String: String]

    public init(
        running: Int = 0, questions: Int = 0, questionKeys: [String: String] = [:],
        failureTitles: [String: String] = [:]
    ) {
        self.running = running
        self.questions = questions
        self.failedLastHour = failureTitles.count
        self.questionKeys = questionKeys
        self.failureTitles = failureTitles
    }

    /// Counts a reading with the rule `status` and Home use.
    @MainActor
    public init(_ reading: MeshReading) {
        let summary = MeshSummary.counting(reading.lists, at: reading.readAt)
        var keys: [String: String] = [:]
        for (_, payload) in reading.lists {
            for d in payload.items(as: Directive.self) ?? [] {
                guard let q = d.pendingQuestion else { continue }
                keys[d.id + "/" + (q.id.isEmpty ? q.text : q.id)] = d.title
            }
        }
        var failed: [String: String] = [:]
        for t in reading.failures { failed[t.id] = t.displayTitle }
        self.init(
            running: summary.runningTasks, questions: summary.pendingQuestions, questionKeys: keys,
            failureTitles: failed)
    }
}
