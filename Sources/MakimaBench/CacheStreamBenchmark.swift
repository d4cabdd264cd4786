import Foundation
import MakimaKit
import MakimaTUI

/// Figures for `make bench` (not a test): a sustained stream at an agent's pace through the
/// cache's writer thread into a fresh cache file on disk, and the bytes the process wrote for
/// it (`/proc/self/io`): what the cache's cost per event is measured by.
///
/// `rate` events a second for `seconds`, sent in 10 ms ticks, each a piece of 1–40 characters
/// cut anywhere from a build log and a long code block (no blank lines), across `tasks` tasks.
package enum CacheStreamBenchmark {
    /// Keys: `events`, `seconds`, `tasks`, `write_bytes` and `wchar` (the process's, from its
    /// first event to the cache closed, less the last catch-up below), `bytes_per_event`
    /// (`write_bytes` over events), `searchable_bytes_per_event` (with the lines and the
    /// search index brought up to every event first, as a search would: the catch-up every
    /// 30 s leaves up to 30 s of them to the next, outside the measure otherwise),
    /// `wchar_per_event`, `batches` (the writer's appends), `db_bytes` and `wal_bytes` (file
    /// sizes at the end), `kept_events`; `error` = 1 if the cache failed.
    /// `indexInterval`: the seconds between the search index's catch-ups (nil: the cache's own).
    package static func run(
        rate: Int = 1_000, seconds: Double = 60, tasks: Int = 20, indexInterval: TimeInterval? = nil
    ) -> [String: Double] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "makima-cache-stream-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(CacheLocation.fileName)
        var figures: [String: Double] = ["seconds": seconds, "tasks": Double(tasks)]
        do {
            let store = try CacheStore.open(file: file).store
            if let indexInterval { store.indexInterval.withLock { $0 = indexInterval } }
            let batches = Counter()
            let writer = CacheEventWriter(into: store) { _, _ in batches.add() }
            var source = StreamSource(tasks: tasks)
            let before = ProcessIO.read()
            let start = Clocks.monotonic()
            let ticks = Int(seconds * 100)
            let perTick = max(1, rate / 100)
            for tick in 0..<ticks {
                let due = start + Double(tick) / 100
                let wait = due - Clocks.monotonic()
                if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
                writer.enqueue(source.next(perTick))
            }
            writer.stop()
            let stopped = ProcessIO.read()
            try store.indexPendingLines()
            let caught = ProcessIO.read()
            var kept = 0
            for task in 0..<tasks { kept += try store.eventCount(taskID: StreamSource.taskID(task)) }
            figures["kept_events"] = Double(kept)
            store.close()
            let after = ProcessIO.read()
            let events = Double(ticks * perTick)
            let written = after.writeBytes - before.writeBytes
            let catchUp = caught.writeBytes - stopped.writeBytes
            figures["events"] = events
            figures["batches"] = Double(batches.value)
            figures["write_bytes"] = Double(written - catchUp)
            figures["wchar"] = Double(after.wchar - before.wchar - (caught.wchar - stopped.wchar))
            figures["bytes_per_event"] = Double(written - catchUp) / events
            figures["searchable_bytes_per_event"] = Double(written) / events
            figures["wchar_per_event"] = figures["wchar"]! / events
            figures["db_bytes"] = Double(fileSize(file.path))
            figures["wal_bytes"] = Double(fileSize(file.path + "-wal"))
        } catch {
            figures["error"] = 1
        }
        return figures
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    private final class Counter: @unchecked Sendable {
        // @unchecked: `count` is guarded by `lock`.
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }
}

/// The process's I/O counters (`/proc/self/io`): `write_bytes`, what it caused to be written
/// to storage (counted as pages are dirtied), and `wchar`, what it passed to write calls.
package struct ProcessIO {
    package var writeBytes = 0
    package var wchar = 0

    package static func read() -> ProcessIO {
        var io = ProcessIO()
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return io }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":")
            guard parts.count == 2, let n = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { continue }
            if parts[0] == "write_bytes" { io.writeBytes = n } else if parts[0] == "wchar" { io.wchar = n }
        }
        return io
    }
}

/// Output as agents stream it: each task walks its own text (a build log, then a long code
/// block, without blank lines), cut into pieces of 1–40 characters at any point, tasks
/// taking turns at random. Deterministic (a fixed seed), so two runs send the same bytes.
struct StreamSource {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var seqs: [Int]
    private var offsets: [Int]
    private var eventID: Int64 = 0
    private let text: [Character]

    static func taskID(_ n: Int) -> String { "stream-task-\(String(n, radix: 16))-4f1c-9a2b-7d3e5f60a1b2" }

    init(tasks: Int) {
        seqs = [Int](repeating: 0, count: tasks)
        offsets = (0..<tasks).map { $0 * 997 }
        var lines: [String] = []
        for i in 0..<400 {
            lines.append("[\(i)/400] Compiling MakimaKit Sources/MakimaKit/Cache/File\(i % 37).swift")
        }
        for i in 0..<400 {
            lines.append("    let value\(i) = try store.appendEvents(batch[\(i)...], serverClock: clock.offset)")
        }
        text = Array(lines.joined(separator: "\n") + "\n")
    }

    private mutating func random(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }

    /// The next `count` events, stamped now (as live events are).
    mutating func next(_ count: Int) -> [TaskEvent] {
        let now = Date()
        return (0..<count).map { _ in
            let task = random(seqs.count)
            let length = 1 + random(40)
            var piece = ""
            for _ in 0..<length {
                piece.append(text[offsets[task] % text.count])
                offsets[task] += 1
            }
            seqs[task] += 1
            eventID += 1
            return TaskEvent(
                eventID: eventID, taskID: Self.taskID(task), seq: seqs[task], type: .output, ts: now,
                payload: .output(text: piece, stream: "assistant"), arrivedAt: now)
        }
    }
}
