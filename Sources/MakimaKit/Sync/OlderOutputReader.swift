/// Reads a task's output backwards from a seq, for a reader who scrolled above what is held:
/// window by window (at most `pageSize` seqs each, newest window first), each read whole from
/// the cache when the cache holds all of it, else from the server in forward pages
/// (`GET /mesh/tasks/{id}/output?after_seq=`, which may answer fewer events than asked).
/// Bounded by `count` events and `maxRequests` requests, whatever the server answers.
public struct OlderOutputReader {
    public let taskID: String
    public let before: Int
    public let count: Int
    public var pageSize = 500
    /// Server requests, all windows together.
    public var maxRequests = 400
    /// The cache's events after a seq, at most `limit` of them.
    public var cached: (_ after: Int, _ limit: Int) -> [TaskEvent] = { _, _ in [] }
    /// One page of the server's events after a seq.
    public let fetch: (_ after: Int, _ limit: Int) throws -> [TaskEvent]
    /// What was read, in seq order, all before `before`.
    public private(set) var events: [TaskEvent] = []
    /// `events` are every event the server has from this seq up to `before` (nil: no whole
    /// window was read). 1: the output's start.
    public private(set) var from: Int?
    public private(set) var requests = 0

    public init(
        taskID: String, before: Int, count: Int, fetch: @escaping (_ after: Int, _ limit: Int) throws -> [TaskEvent]
    ) {
        self.taskID = taskID
        self.fetch = fetch
        self.before = before
        self.count = max(0, count)
    }

    /// Reads until `count` events, the output's start, or the request bound. A thrown error
    /// keeps what whole windows were read before it.
    public mutating func read() throws {
        var cursor = before
        while cursor > 1 && events.count < count {
            let after = max(0, cursor - 1 - min(max(1, pageSize), count - events.count))
            guard let window = try readWindow(after: after, before: cursor) else { return }
            events.insert(contentsOf: window, at: 0)
            from = after + 1
            cursor = after + 1
        }
    }

    /// The events in (after, before): nil when the request bound cut the window short.
    private mutating func readWindow(after: Int, before: Int) throws -> [TaskEvent]? {
        let wanted = before - 1 - after
        let fromCache = cached(after, wanted).filter { $0.taskID == taskID && $0.seq > after && $0.seq < before }
        if fromCache.count == wanted && Set(fromCache.map(\.seq)).count == wanted { return fromCache }
        var out: [TaskEvent] = []
        var mark = after
        while mark < before - 1 {
            guard requests < maxRequests else { return nil }
            let page = try fetch(mark, before - 1 - mark)
            requests += 1
            var seen = Set<Int>()
            let fresh =
                page
                .filter { $0.taskID == taskID && $0.seq > mark && $0.seq < before }
                .sorted { $0.seq < $1.seq }
                .filter { seen.insert($0.seq).inserted }
            // Nothing more in the window on the server: it has what it has.
            guard let last = fresh.last else { break }
            out += fresh
            mark = last.seq
        }
        return out
    }
}
