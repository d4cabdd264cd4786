import MakimaKit

/// How current a section's data is, for its `STALE 4m` marker.
public enum Freshness: Equatable, Sendable {
    /// Confirmed by the server this session.
    case fresh
    /// Nothing known yet; a fetch is running.
    case loading
    /// Nothing known yet.
    case unknown
    /// From the cache (an earlier session), `age` old, not yet confirmed.
    case stale(age: String)
    /// The last refresh failed; the data shown (if any) is `age` old.
    case failed(age: String?, message: String)

    /// `STALE 4m`, `LOADING`, `ERROR`; nil when there is nothing to say.
    public var marker: String? {
        switch self {
        case .fresh, .unknown: return nil
        case .loading: return "LOADING"
        case .stale(let age): return "STALE \(age)"
        case .failed(let age?, _): return "STALE \(age)"
        case .failed(nil, _): return "ERROR"
        }
    }

    public var level: StatusRow.Level {
        switch self {
        case .fresh, .unknown, .loading: return .muted
        case .stale: return .warn
        case .failed(let age, _): return age == nil ? .danger : .warn
        }
    }

    public var isStale: Bool {
        switch self {
        case .stale, .failed: return true
        case .fresh, .loading, .unknown: return false
        }
    }
}

/// The composite Home dashboard: what the stores know, in the form the cards draw. Server
/// text here was cleaned at decode time.
public struct HomeMeshModel: Equatable, Sendable {
    public struct TaskLine: Equatable, Sendable {
        public var id: String
        public var title: String
        public var status: TaskStatus
        public init(id: String, title: String, status: TaskStatus) {
            self.id = id
            self.title = title
            self.status = status
        }
    }

    public struct ContractLine: Equatable, Sendable {
        public var id: String
        public var name: String
        public var phase: String
        public init(name: String, phase: String, id: String = "") {
            self.id = id
            self.name = name
            self.phase = phase
        }
    }

    public struct QuestionLine: Equatable, Sendable {
        public var directiveID: String
        public var directive: String
        public var question: String
        public init(directive: String, question: String, directiveID: String = "") {
            self.directiveID = directiveID
            self.directive = directive
            self.question = question
        }
    }

    public struct ListenLine: Equatable, Sendable {
        public var id: String
        public var title: String
        /// "started 3h ago", or "" when the server did not say.
        public var started: String
        public var preview: String
        public init(title: String, started: String, preview: String, id: String = "") {
            self.id = id
            self.title = title
            self.started = started
            self.preview = preview
        }
    }

    public struct DaemonLine: Equatable, Sendable {
        public var id: String
        public var host: String
        public var status: DaemonStatus
        public init(id: String, host: String, status: DaemonStatus) {
            self.id = id
            self.host = host
            self.status = status
        }
    }

    public var daemonsOnline = 0
    public var daemonsOffline = 0
    public var offlineHosts: [String] = []
    /// Every daemon, offline ones first (Home shows as many as fit).
    public var daemonLines: [DaemonLine] = []
    public var daemons = Freshness.unknown

    public var runningCount = 0
    public var recentTasks: [TaskLine] = []
    public var tasks = Freshness.unknown

    public var activeContractsCount = 0
    public var topContracts: [ContractLine] = []
    public var contracts = Freshness.unknown

    public var pendingQuestions: [QuestionLine] = []
    public var directives = Freshness.unknown

    public var latestListen: ListenLine?
    /// Sessions after the latest, newest first (shown when there is room).
    public var olderListen: [ListenLine] = []
    public var listen = Freshness.unknown

    /// One line under the badge: cached data, or why the last refresh failed.
    public var summary: NoticeLine?

    /// The MESHES// card (empty: fewer than two profiles, no card).
    public var meshes: [MeshLine] = []

    /// One line of the NEEDS YOU// card: what waits, oldest first.
    public struct NeedsYouLine: Equatable, Sendable {
        public var id: String
        public var kind: NeedsYouItem.Kind
        public var label: String
        public var text: String
        /// `3m`, or "" when nothing says since when.
        public var age: String
    }
    /// What waits on the operator (`NeedsYouStore`), at most `needsYouShown`; the count is all of them.
    public var needsYou: [NeedsYouLine] = []
    public var needsYouCount = 0
    public static let needsYouShown = 50

    public init() {}
}
