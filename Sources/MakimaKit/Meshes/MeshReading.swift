import Foundation

/// The figures of a mesh's line on the MESHES// card, each read by one light request of its
/// own: a background read asks for one of them a turn, in this order (`MeshSchedule`), so a
/// mesh costs one request a minute and each figure is at most `allCases.count` minutes old.
public enum MeshFigure: Int, CaseIterable, Sendable, Hashable {
    /// Running tasks: one page of `GET /mesh/tasks?status=running`.
    case running
    /// Questions waiting: one page of `GET /directives?pending=true`.
    case questions
    /// Tasks failed in the last hour: one page of `GET /mesh/tasks?status=failed`, newest first.
    case failures

    static let first = MeshFigure.running
    /// The figure read after this one.
    var following: MeshFigure { Self(rawValue: (rawValue + 1) % Self.allCases.count) ?? .first }
}

/// What one background read of a mesh not on screen brought: one figure's page. Running tasks
/// and questions come as the list `status` reads (counted on the UI thread by
/// `MeshSummary.counting`, the one rule), failures as the tasks that failed in the hour
/// before the read. Server text in it was cleaned when decoded.
public struct MeshReading: Sendable {
    public var figure: MeshFigure
    /// The page read, for `.running` and `.questions`.
    public var lists: [(ListQuery, ListPayload)]
    /// Failed in the hour before `readAt`, newest first (`.failures`).
    public var failures: [MeshTask]
    /// The server has more than the page held: the figure is a lower bound ("50+").
    public var more: Bool
    public var readAt: Date

    public init(
        figure: MeshFigure, lists: [(ListQuery, ListPayload)] = [], failures: [MeshTask] = [], more: Bool = false,
        readAt: Date
    ) {
        self.figure = figure
        self.lists = lists
        self.failures = failures
        self.more = more
        self.readAt = readAt
    }

    /// Items asked for in one page: a figure counts up to this many, and says "+" past it.
    public static let page = 50
    /// Every request of a background read: a dead or slow server costs at most this, and an
    /// answer is never larger than `maxResponseBytes`.
    public static let transport = HTTPTransport(
        configuration: HTTPConfiguration(
            connectTimeout: .seconds(5), totalTimeout: .seconds(20), maxResponseBytes: 4 << 20))

    /// Reads `figure` with one request, on the calling thread (the reader's own).
    public static func read(_ figure: MeshFigure, using client: APIClient, now: @Sendable () -> Date) throws
        -> MeshReading
    {
        switch figure {
        case .running:
            let p = try client.getBlocking(
                ListEnvelope<MeshTask>.self, .tasks(status: .running, contractID: nil, limit: page))
            return MeshReading(
                figure: figure, lists: [(.tasks(status: .running, contractID: nil), .tasks(p.items))],
                more: p.nextCursor != nil, readAt: now())
        case .questions:
            let p = try client.getBlocking(ListEnvelope<Directive>.self, .directives(pending: true))
            return MeshReading(
                figure: figure, lists: [(.directives(pendingOnly: true), .directives(p.items))],
                more: p.nextCursor != nil, readAt: now())
        case .failures:
            return try failures(using: client, now: now)
        }
    }

    /// The newest failed tasks, those that failed in the hour before now kept. The server
    /// stamps `completedAt` on its own clock: each is read on ours through the offset this
    /// very answer's `Date` header measured (the client is the read's own, so its
    /// `ServerClock` holds that one sample), so a server hours off still counts the last hour.
    static func failures(using client: APIClient, now: @Sendable () -> Date) throws -> MeshReading {
        let p = try client.getBlocking(
            ListEnvelope<MeshTask>.self, .tasks(status: .failed, contractID: nil, limit: page))
        let at = now()
        let clock = client.serverClock.offset
        let failed = p.items.filter { t in
            guard t.status == .failed, let when = t.completedAt ?? t.updatedAt else { return false }
            return clock.local(when) > at.addingTimeInterval(-3600)
        }
        // Every task of a full page failed within the hour: older pages may hold more.
        let more = p.nextCursor != nil && failed.count == p.items.count
        return MeshReading(figure: .failures, failures: failed, more: more, readAt: at)
    }
}
