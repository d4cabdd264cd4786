import Foundation

/// How long each kind of list stays fresh, and which lists are due. The one place the
/// dashboard's polling is decided: the pane on screen has its lists fetched again once they are
/// older than their period; a pane coming on screen has the ones that went stale while it was
/// hidden fetched at once; a new engine (start, a sign-in, a key accepted again) starts with
/// everything due.
///
/// The WebSocket carries task events only: daemons (status, heartbeats), contracts, directives
/// and listen sessions change on the server without a word on it, so they are read every
/// 30 s while shown. Task lists follow the status events; they get a slow safety refresh.
/// `RefreshCoordinator` keeps the requests bounded (never two in flight for one list, backoff
/// after errors); this only says when to ask.
public struct RefreshPolicy: Sendable {
    /// Seconds a list of this kind stays fresh: its kind's `refreshPeriod`.
    public static func period(of query: ListQuery) -> TimeInterval { query.kind.refreshPeriod }

    /// The most lists remembered (scopes make many task lists); past it, all are forgotten and
    /// simply count as due.
    public static let capacity = 256
    /// When each list was last asked for or answered, whichever is later.
    private var last: [ListQuery: Date] = [:]

    public init() {}

    /// A fetch of `query` was asked for (answered or not, it is not asked again before its period).
    public mutating func asked(_ query: ListQuery, at date: Date) { note(query, date) }

    /// The server answered `query` with data fetched at `date` (a cache snapshot does not count).
    public mutating func answered(_ query: ListQuery, at date: Date) { note(query, date) }

    private mutating func note(_ query: ListQuery, _ date: Date) {
        if last[query] == nil && last.count >= Self.capacity { last = [:] }
        if let before = last[query], before >= date { return }
        last[query] = date
    }

    /// Everything is due again (a new engine, a key accepted again).
    public mutating func forgetAll() { last = [:] }

    /// Those of `queries` never asked for, or older than their period.
    public func due(_ queries: [ListQuery], now: Date) -> [ListQuery] {
        queries.filter { q in last[q].map { now.timeIntervalSince($0) >= Self.period(of: q) } ?? true }
    }

    /// When the first of `queries` falls due (nil: none to watch).
    public func nextDue(_ queries: [ListQuery], now: Date) -> Date? {
        queries.map { q in last[q].map { $0.addingTimeInterval(Self.period(of: q)) } ?? now }.min()
    }
}
