import Foundation

/// What happened in one minute, as the cache saw it: output events and tasks completed and
/// failed (each counted once, when first cached: in the minute it arrived for a live event,
/// else the minute of its `ts` on our clock when the server sent one from the kept span, else
/// the minute it was cached), and the daemons online the last time the daemons list was saved
/// in that minute.
public struct ActivityMinute: Sendable, Equatable, Codable {
    /// Minutes since 1970 (UTC).
    public var minute: Int
    public var output: Int
    public var completed: Int
    public var failed: Int
    public var daemonsOnline: Int?

    public init(minute: Int, output: Int = 0, completed: Int = 0, failed: Int = 0, daemonsOnline: Int? = nil) {
        self.minute = minute
        self.output = output
        self.completed = completed
        self.failed = failed
        self.daemonsOnline = daemonsOnline
    }

    public static func minute(of date: Date) -> Int { Int((date.timeIntervalSince1970 / 60).rounded(.down)) }

    /// The most one minute's count may say (`SQLiteStatement.maxCount`).
    public static let maxCount = 1 << 31

    /// Every count within `0...maxCount`.
    func clamped() -> ActivityMinute {
        func bound(_ n: Int) -> Int { min(max(n, 0), Self.maxCount) }
        return ActivityMinute(
            minute: minute, output: bound(output), completed: bound(completed), failed: bound(failed),
            daemonsOnline: daemonsOnline.map(bound))
    }
}

/// The per-minute counts of a span, oldest first, and the sums the Home card and
/// `status --json` show.
public struct ActivityHistory: Sendable, Equatable {
    public var minutes: [ActivityMinute]
    /// The minute the span ends with (the current one).
    public var now: Int

    /// Counts are clamped to `0...ActivityMinute.maxCount` (a damaged or hostile cache can
    /// say anything), and every sum below saturates at `maxSum`: no history traps the card or
    /// `status --json`, and a bar's arithmetic on a sum (`v * 4`) stays far from overflow.
    public init(minutes: [ActivityMinute], now: Int) {
        self.minutes = minutes.map { $0.clamped() }
        self.now = now
    }

    /// The most a sum of counts says.
    public static let maxSum = 1 << 48

    private static func add(_ a: inout Int, _ b: Int) { a = min(maxSum, a + min(b, maxSum)) }

    /// Output events per minute over the last `count` minutes, oldest first.
    public func outputPerMinute(last count: Int = 60) -> [Int] {
        var out = [Int](repeating: 0, count: count)
        for m in minutes where m.minute > now - count && m.minute <= now {
            Self.add(&out[count - 1 - (now - m.minute)], m.output)
        }
        return out
    }

    /// Completed and failed tasks per hour over the last `count` hours, oldest first.
    public func finishedPerHour(last count: Int = 24) -> (completed: [Int], failed: [Int]) {
        var completed = [Int](repeating: 0, count: count)
        var failed = completed
        for m in minutes where m.minute > now - count * 60 && m.minute <= now {
            let slot = count - 1 - (now - m.minute) / 60
            Self.add(&completed[slot], m.completed)
            Self.add(&failed[slot], m.failed)
        }
        return (completed, failed)
    }

    /// The most daemons seen online in each of the last `count` hours (nil: never recorded).
    public func daemonsOnlinePerHour(last count: Int = 24) -> [Int?] {
        var out = [Int?](repeating: nil, count: count)
        for m in minutes where m.minute > now - count * 60 && m.minute <= now {
            guard let n = m.daemonsOnline else { continue }
            let slot = count - 1 - (now - m.minute) / 60
            out[slot] = max(out[slot] ?? 0, n)
        }
        return out
    }

    /// Sums over the last hour: (output events, completed, failed).
    public var lastHour: (output: Int, completed: Int, failed: Int) {
        var sums = (0, 0, 0)
        for m in minutes where m.minute > now - 60 && m.minute <= now {
            Self.add(&sums.0, m.output)
            Self.add(&sums.1, m.completed)
            Self.add(&sums.2, m.failed)
        }
        return sums
    }
}

extension CacheStore {
    /// How long per-minute counts are kept.
    public static let activityKeptMinutes = 7 * 1_440

    /// The per-minute counts of the last `hours` hours, oldest first.
    public func activity(hours: Int = 24, now: Date = Date()) throws(CacheError) -> ActivityHistory {
        let current = ActivityMinute.minute(of: now)
        let hours = min(max(1, hours), Self.activityKeptMinutes / 60)
        let rows: [ActivityMinute] = try withDatabase { db in
            let select = try db.prepare(
                """
                SELECT minute, output, completed, failed, daemons_online FROM activity_minutes
                WHERE minute > ?1 AND minute <= ?2 ORDER BY minute
                """)
            try select.bind(current - hours * 60, at: 1)
            try select.bind(current, at: 2)
            var rows: [ActivityMinute] = []
            let span = Int64(current - hours * 60 + 1)...Int64(current)
            while try select.step() {
                // A minute that is not a whole number in the span is a damaged row: skipped.
                guard let minute = select.integer(0, in: span) else { continue }
                rows.append(
                    ActivityMinute(
                        minute: Int(minute), output: select.count(1), completed: select.count(2),
                        failed: select.count(3), daemonsOnline: select.isNull(4) ? nil : select.count(4)))
            }
            return rows
        }
        return ActivityHistory(minutes: rows, now: current)
    }

    /// Records how many daemons were online in the current minute (from a saved daemons list).
    public func recordDaemonsOnline(_ count: Int, at date: Date = Date()) throws(CacheError) {
        try withDatabase { db in
            let upsert = try db.prepare(
                """
                INSERT INTO activity_minutes (minute, daemons_online) VALUES (?1, ?2)
                ON CONFLICT (minute) DO UPDATE SET daemons_online = excluded.daemons_online
                """)
            try upsert.bind(ActivityMinute.minute(of: date), at: 1)
            try upsert.bind(count, at: 2)
            try upsert.step()
        }
    }

    /// Adds counts to their minutes and drops minutes older than `activityKeptMinutes`.
    static func addActivity(_ counts: [Int: ActivityMinute], now: Int, in db: SQLiteDatabase) throws {
        guard !counts.isEmpty else { return }
        let upsert = try db.prepare(
            """
            INSERT INTO activity_minutes (minute, output, completed, failed) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT (minute) DO UPDATE SET output = output + excluded.output,
                completed = completed + excluded.completed, failed = failed + excluded.failed
            """)
        for (minute, c) in counts { try upsert.run(minute, c.output, c.completed, c.failed) }
        let forget = try db.prepare("DELETE FROM activity_minutes WHERE minute <= ?1")
        try forget.bind(now - activityKeptMinutes, at: 1)
        try forget.step()
    }

    /// The minute an event counts in: when it happened on our clock (`EventRow.countedAt`)
    /// when within the kept span (and not ahead of now), else the minute it is cached.
    static func activityMinute(of time: Date?, now: Int) -> Int {
        guard let time else { return now }
        let m = ActivityMinute.minute(of: time)
        return m > now - activityKeptMinutes && m <= now ? m : now
    }
}
