import Foundation

/// How much task output the cache keeps. Read from the config file's `settings.cache` object
/// (every field optional):
///
/// ```json
/// "settings": { "cache": { "max_mb": 64, "tasks_max_mb": 128, "finished_task_days": 7, "events_per_task": 2000 } }
/// ```
///
/// - `events_per_task`: the newest events kept per task (the output viewer's 2,000 lines), and
///   the newest lines of output kept per task for search (`TaskLines`);
/// - `finished_task_days`: a task whose last event says it completed, failed or was cancelled,
///   and that has been quiet this long, loses its cached events;
/// - `max_mb`: the whole database file is held under this size: past it, the events of the
///   least recently active tasks go first (finished ones before running ones), down to each
///   task's newest event, which stays so a resync still knows where the task was; if that is
///   still too much (many tasks, each with one large event), whole tasks go, oldest first.
///   One event is never stored larger than `maxEventBytes` (its text is cut, with a marker),
///   so no shape of data (one huge event, many tasks of one event each) gets past the cap.
/// - `tasks_max_mb`: the task table's own budget (every task's row, its indexes and its title
///   in the search index), on top of `max_mb`; twice `max_mb` unless set (128 MB at the
///   standard 64: 131,072 tasks of realistic titles). The file keeps to the two together.
public struct CacheRetention: Sendable, Equatable {
    public var eventsPerTask: Int
    public var finishedTaskAge: TimeInterval
    public var maxBytes: Int
    public var taskBytes: Int

    /// The most one cached event may take: 1/256 of the cap, between 4 KiB and 256 KiB
    /// (256 KiB at the standard 64 MB: far more than an output chunk, a status or a question).
    public var maxEventBytes: Int { max(4 << 10, min(256 << 10, maxBytes / 256)) }

    public static let standard = CacheRetention(eventsPerTask: 2_000, finishedTaskAge: 7 * 86_400, maxBytes: 64 << 20)

    public init(eventsPerTask: Int, finishedTaskAge: TimeInterval, maxBytes: Int, taskBytes: Int? = nil) {
        self.eventsPerTask = max(1, eventsPerTask)
        self.finishedTaskAge = max(0, finishedTaskAge)
        self.maxBytes = max(1 << 20, maxBytes)
        self.taskBytes = max(1 << 20, taskBytes ?? self.maxBytes.multipliedReportingOverflow(by: 2).partialValue)
    }

    /// The policy in `settings.cache`; values missing, of the wrong type or absurd fall back to
    /// the standard ones.
    public init(settings: [String: JSONValue]) {
        let s = Self.standard
        guard case .object(let c)? = settings["cache"] else {
            self = s
            return
        }
        func number(_ key: String, in range: ClosedRange<Double>) -> Double? {
            guard let n = c[key]?.numberValue, n.isFinite, range.contains(n) else { return nil }
            return n
        }
        self.init(
            eventsPerTask: number("events_per_task", in: 1...1_000_000).map { Int($0) } ?? s.eventsPerTask,
            finishedTaskAge: number("finished_task_days", in: 0...36_500).map { $0 * 86_400 } ?? s.finishedTaskAge,
            maxBytes: number("max_mb", in: 1...1_000_000).map { Int($0 * 1_048_576) } ?? s.maxBytes,
            taskBytes: number("tasks_max_mb", in: 1...1_000_000).map { Int($0 * 1_048_576) })
    }

    /// The policy in the config file found from `environment`; the standard one when there is
    /// no readable config file.
    public static func configured(environment: [String: String]) -> CacheRetention {
        let store = ConfigStore(location: ConfigLocation.resolve(environment: environment))
        guard let config = try? store.load() else { return .standard }
        return CacheRetention(settings: config.settings)
    }
}
