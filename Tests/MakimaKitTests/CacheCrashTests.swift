import Foundation
import Testing

@testable import MakimaKit

/// kill -9 at random moments while another process appends: after each kill the cache opens
/// clean, every batch the writer reported as committed is there, and every batch is whole.
///
/// The writer is this same test binary, started again with `--testing-library swift-testing
/// --filter crashWriterAppendsUntilKilled` and `MAKIMA_CACHE_CRASH_WRITER=<db path>`: that test
/// is enabled only when the variable is set (fork is unsafe in a Swift process, and the
/// package has no helper executable for tests).
@Suite struct CacheCrashTests {
    static let writerVariable = "MAKIMA_CACHE_CRASH_WRITER"
    static let writerTarget = ProcessInfo.processInfo.environment[writerVariable]
    static let tasks = ["crash-a", "crash-b", "crash-c"]
    static let snapshotSize = 200

    /// The event text names its batch, so a torn batch would show.
    static func batch(task: String, seqs: ClosedRange<Int>) -> [TaskEvent] {
        seqs.map { seq in
            TaskEvent(
                eventID: Int64(seq), taskID: task, seq: seq, type: .output, ts: nil,
                payload: .output(
                    text: "\(task) \(seq) batch \(seqs.lowerBound)-\(seqs.upperBound)\n", stream: "assistant"))
        }
    }

    static func batchRange(of event: TaskEvent) -> ClosedRange<Int>? {
        guard case .output(let text, _) = event.payload,
            let range = text.split(separator: " ").last?.split(separator: "-").compactMap({
                Int($0.trimmingCharacters(in: .newlines))
            }),
            range.count == 2, range[0] <= range[1]
        else { return nil }
        return range[0]...range[1]
    }

    @Test(.enabled(if: writerTarget != nil, "runs only as the child of survivesKillNineAtRandomMoments"))
    func crashWriterAppendsUntilKilled() throws {
        let path = try #require(Self.writerTarget)
        let out = FileHandle.standardOutput
        out.write(Data("CRASHWRITER ready\n".utf8))
        let store = try CacheStore.open(file: URL(fileURLWithPath: path)).store
        var seqs = try store.lastSeenSeqs()
        var generation =
            try store.load(MeshTask.self, from: .taskSnapshots, query: "")?.items.first.flatMap { Int($0.title ?? "") }
            ?? 0
        let parent = getppid()
        var round = 0
        // Stops by itself if the parent is gone, and after a bound, should the kill never come.
        while getppid() == parent, round < 20_000 {
            round += 1
            let task = Self.tasks[round % Self.tasks.count]
            let first = (seqs[task] ?? 0) + 1
            let last = first + Int.random(in: 0..<1_500)
            try store.appendEvents(Self.batch(task: task, seqs: first...last))
            seqs[task] = last
            out.write(Data("CRASHWRITER committed \(task) \(last)\n".utf8))
            if round % 4 == 0 {
                generation += 1
                let list = (0..<Self.snapshotSize).map {
                    MeshTask(id: "g\($0)", title: "\(generation)", status: .running)
                }
                try store.replace(list, in: .taskSnapshots, query: "", fetchedAt: Date())
                out.write(Data("CRASHWRITER snapshot \(generation)\n".utf8))
            }
        }
    }

    @Test func survivesKillNineAtRandomMoments() throws {
        let dir = CacheTempDir()
        let file = dir.databaseFile
        let executable = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        var committed: [String: Int] = [:]
        var snapshotGeneration = 0
        var totalCommits = 0

        for _ in 1...10 {
            let writer = Process()
            writer.executableURL = executable
            writer.arguments = ["--testing-library", "swift-testing", "--filter", "crashWriterAppendsUntilKilled"]
            var environment = ProcessInfo.processInfo.environment
            environment[Self.writerVariable] = file.path
            writer.environment = environment
            let pipe = Pipe()
            writer.standardOutput = pipe
            writer.standardError = FileHandle.nullDevice
            try writer.run()

            // Kill after a random number of commits (0: while it opens), plus a random delay
            // so the kill lands anywhere, mostly inside a transaction.
            let commitsBeforeKill = Int.random(in: 0...25)
            var reader = LineReader(pipe.fileHandleForReading)
            var commitsThisRound = 0
            func note(_ line: Substring) {
                let words = line.split(separator: " ")
                if words.count == 4, words[1] == "committed", let seq = Int(words[3]) {
                    committed[String(words[2])] = seq
                    commitsThisRound += 1
                } else if words.count == 3, words[1] == "snapshot", let g = Int(words[2]) {
                    snapshotGeneration = g
                }
            }
            var ready = false
            while let line = reader.next() {
                note(line)
                if line == "CRASHWRITER ready" { ready = true }
                if ready && commitsThisRound >= commitsBeforeKill { break }
            }
            usleep(UInt32.random(in: 0...20_000))
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
            // Lines written before the kill are commits too.
            while let line = reader.next() { note(line) }
            #expect(ready)
            #expect(
                writer.terminationReason == .uncaughtSignal,
                "the writer stopped by itself: status \(writer.terminationStatus)")
            totalCommits += commitsThisRound

            let opened = try CacheStore.open(file: file)
            #expect(opened.notice == nil)
            let store = opened.store
            #expect(store.integrityCheck())
            let seen = try store.lastSeenSeqs()
            for (task, seq) in committed {
                #expect((seen[task] ?? 0) >= seq, "task \(task): committed \(seq), cached \(seen[task] ?? 0)")
            }
            for (task, newest) in seen {
                try expectWholeBatches(try store.events(taskID: task, limit: 10_000), task: task, newest: newest)
            }
            if let snapshot = try store.load(MeshTask.self, from: .taskSnapshots, query: "") {
                let generations = Set(snapshot.items.map { $0.title ?? "" })
                #expect(snapshot.items.count == Self.snapshotSize)
                #expect(generations.count == 1)
                #expect((generations.first.flatMap { Int($0) } ?? -1) >= snapshotGeneration)
            }
            store.close()
        }
        #expect(totalCommits > 0)
    }

    /// Seqs run without a gap up to `newest` (the window of 2000 after pruning), and each batch
    /// is whole, except the oldest one, which pruning may have cut from below.
    private func expectWholeBatches(_ events: [TaskEvent], task: String, newest: Int) throws {
        let seqs = events.map(\.seq)
        let contiguous = seqs == Array(max(1, newest - 1_999)...newest)
        #expect(
            contiguous,
            "task \(task): \(seqs.count) events \(seqs.first ?? 0)...\(seqs.last ?? 0) are not the window up to \(newest)"
        )
        var byBatch: [ClosedRange<Int>: [Int]] = [:]
        for event in events {
            let range = try #require(Self.batchRange(of: event))
            byBatch[range, default: []].append(event.seq)
        }
        let oldest = seqs.first ?? 0
        for (range, members) in byBatch {
            let expected = range.contains(oldest) ? Array(oldest...range.upperBound) : Array(range)
            let whole = members == expected
            #expect(whole, "task \(task): batch \(range) is torn: \(members.count) of its events are cached")
        }
    }
}

/// Lines from a pipe, blocking; nil at end of file.
struct LineReader {
    private let handle: FileHandle
    private var buffer = Data()
    private var atEnd = false

    init(_ handle: FileHandle) { self.handle = handle }

    mutating func next() -> Substring? {
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return Substring(line)
            }
            if atEnd { return nil }
            let chunk = handle.availableData
            if chunk.isEmpty { atEnd = true } else { buffer.append(chunk) }
        }
    }
}
