import Foundation
import Testing

@testable import MakimaKit

/// Every value read back from the cache is untrusted: each damaged value is written with raw
/// SQL into a real cache file (the way any other program, a bad disk or an older build could
/// leave it), then read through the store's own paths, which must neither trap nor hand out a
/// value that makes a caller's arithmetic trap.
@Suite struct CacheDamagedValueTests {
    let dir = CacheTempDir()
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static var minute: Int { ActivityMinute.minute(of: now) }

    /// A cache made by the store, then changed behind its back by a raw connection.
    private func damaged(_ sql: String) throws -> URL {
        let file = dir.databaseFile
        try CacheStore.open(file: file, now: Self.now).store.close()
        let raw = try SQLiteDatabase(path: file.path)
        try raw.exec(sql)
        raw.close()
        return file
    }

    /// The values that ended every start with "arithmetic overflow": two counts that overflow
    /// when summed, the smallest count, text, a huge real, a fraction, and a minute far past
    /// any clock; beside one sane minute that must still count.
    static let damagedMinutes = """
        INSERT INTO activity_minutes (minute, output, completed, failed, daemons_online) VALUES
            (\(minute - 1), 9223372036854775807, 9223372036854775807, -9223372036854775808, 9223372036854775807),
            (\(minute - 2), 9223372036854775807, 'lots', 1.5e300, 'x'),
            (\(minute - 3), -9223372036854775808, 2.5, -1, -5),
            (\(minute - 4), 1.5e300, 9223372036854775807, 9223372036854775807, 1.5e300),
            (9223372036854775807, 5, 5, 5, 5),
            (\(minute - 5), 7, 1, 2, 3);
        """

    @Test func overflowingActivityCountsReadAsSaneSums() throws {
        let file = try damaged(Self.damagedMinutes)
        let store = try CacheStore.open(file: file, now: Self.now).store
        defer { store.close() }
        let history = try store.activity(hours: 24, now: Self.now)
        let hour = history.lastHour
        // A count that is not a whole number in 0...maxCount reads as 0; the sane minute counts.
        #expect(hour.output == 7 && hour.completed == 1 && hour.failed == 2, "\(hour)")
        #expect(history.outputPerMinute().allSatisfy { (0...ActivityHistory.maxSum).contains($0) })
        let perHour = history.finishedPerHour()
        #expect((perHour.completed + perHour.failed).allSatisfy { (0...ActivityHistory.maxSum).contains($0) })
        #expect(history.daemonsOnlinePerHour().last == 3)
        #expect(history.minutes.allSatisfy { $0.minute > Self.minute - 24 * 60 && $0.minute <= Self.minute })
    }

    @Test func aHistoryMadeOfExtremeCountsSumsWithoutOverflow() {
        let extreme = (0..<60).map {
            ActivityMinute(minute: 1_000 - $0, output: .max, completed: .max, failed: .min, daemonsOnline: .max)
        }
        let history = ActivityHistory(minutes: extreme, now: 1_000)
        #expect(history.lastHour.output == min(ActivityHistory.maxSum, 60 * ActivityMinute.maxCount))
        #expect(history.lastHour.failed == 0)
    }

    @Test func damagedTimesStampsAndSeqsReadAsNothingNotATrap() throws {
        let file = try damaged(
            """
            INSERT INTO task_rows (id, status, title, folded, created_at, updated_at, completed_at, seen) VALUES
                ('huge', 'running', 'huge', 'huge', 1.5e300, -1.5e300, 'soon', 9223372036854775807),
                ('fine', 'completed', 'fine', 'fine', 1700000000, 1700000100, 1700000200, 1);
            INSERT INTO collections (key, fetched_at) VALUES ('daemons', 'yesterday'), ('contracts', 1.5e300),
                ('tasks?status=running', 1700000000);
            INSERT INTO list_items (collection, position, id, json, kind) VALUES ('daemons', 0, 'd', '{}', 'daemons');
            INSERT INTO task_activity (num, task_id, last_at, finished) VALUES (900, 'far', 1.5e300, 'yes'),
                (901, 'u', 0, 0);
            INSERT INTO task_chunks (num, first_seq, last_seq, text, pieces) VALUES
                (900, 9223372036854775807, 9223372036854775807, '', X'7B7D'), (901, 3, 3, '', X'7B7D');
            INSERT INTO search_tasks (num, task_id, unindexed_from) VALUES (1099511627776, 't', 'from here');
            """)
        let store = try CacheStore.open(file: file, now: Self.now).store
        defer { store.close() }
        let table = TaskTable.reading(file)
        defer { table.close() }
        let huge = try #require(table.task(id: "huge"))
        #expect(huge.createdAt == nil && huge.updatedAt == nil && huge.completedAt == nil)
        #expect(table.task(id: "fine")?.completedAt == Date(timeIntervalSince1970: 1_700_000_200))
        let times = try store.collectionFetchTimes()
        #expect(times["daemons"] == nil && times["contracts"] == nil)
        #expect(times["tasks?status=running"] == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try store.load(Daemon.self, from: .daemons, query: "") == nil, "a fetch time that is no time")
        // A seq past what the sequencer accepts is not handed to a resync.
        #expect(try store.lastSeenSeqs() == ["u": 3])
        #expect(try store.contiguousSeqs() == ["u": 3])
        // A stamp at Int64.max: the next pass and status still write (no `+ 1` overflow).
        var pass = try store.beginTaskPass(.init(), key: "tasks")
        try store.writeTaskPage([MeshTask(id: "new", title: "new", status: .running)], into: &pass)
        try store.finishTaskPass(pass, fetchedAt: Self.now, whole: false)
        #expect(table.task(id: "new")?.title == "new")
        // A task number past what a rowid holds: indexed without overflow, found by search.
        try store.appendEvents([
            TaskEvent(
                eventID: 2, taskID: "t", seq: 5, type: .output, payload: .output(text: "findme\n", stream: "tool"))
        ])
        _ = try store.searchOutput("findme")
    }
}
