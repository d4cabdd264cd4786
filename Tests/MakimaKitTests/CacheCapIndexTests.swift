import Foundation
import Testing

@testable import MakimaKit

/// The cap counts the search index as it really is on disk: the rows of a task's lines taken
/// out of the index must leave it before the file is measured again, or the cap's last resort
/// removes whole tasks that trimming to their newest event would have kept.
@Suite struct CacheCapIndexTests {
    let dir = CacheTempDir()
    static let cap = 1 << 20

    /// Output of ordinary shape: words and numbers, so the trigram index holds as much as a
    /// real task's lines give it.
    static func output(_ task: Int, events: Int) -> [TaskEvent] {
        (1...events).map { seq in
            // Hashes and ids, as build and test logs print them: most trigrams are new ones.
            var state = UInt64(task * 100_003 + seq) &* 0x9E37_79B9_7F4A_7C15
            let ids = (0..<6).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return String(state >> 8, radix: 16)
            }
            let text = "task \(task) step \(seq): " + ids.joined(separator: " ") + "\n"
            return TaskEvent(
                eventID: Int64(seq), taskID: "task-\(task)", seq: seq, type: .output,
                payload: .output(text: text, stream: "assistant"))
        }
    }

    @Test func tasksWithinRetentionAreTrimmedNotRemovedWhenTheIndexIsWhatFillsTheCap() throws {
        let policy = CacheRetention(eventsPerTask: 2_000, finishedTaskAge: 7 * 86_400, maxBytes: Self.cap)
        let store = try CacheStore.open(file: dir.databaseFile, retention: policy).store
        // Every line indexed as it is written, as a long-running dashboard's catch-ups do.
        store.indexInterval.withLock { $0 = 0 }
        let tasks = 60
        for t in 0..<tasks { try store.appendEvents(Self.output(t, events: 150)) }
        let result = try store.prune()
        let used = try store.usedBytes()
        #expect(used <= Self.cap, "\(used) bytes in use")
        // Trimmed to their newest event, the 60 tasks take a few KB: none had to go whole.
        let kept = try store.lastSeenSeqs()
        #expect(kept.count == tasks, "\(tasks - kept.count) tasks removed whole")
        #expect(result.tasksEvicted == 0)
        // The newest task, the most recently active, keeps all its output and its lines.
        #expect(try store.eventCount(taskID: "task-\(tasks - 1)") == 150)
        #expect(try store.searchOutput("task \(tasks - 1) step 150:").count == 1)
        #expect(store.integrityCheck())
    }
}
