import Foundation

/// One cached output line read back by its number (`grep -C`'s context).
public struct CachedOutputLine: Sendable, Equatable {
    /// The line's number in the task's output (`TaskLines`: from 1).
    public var number: Int
    /// The whole line (SGR removed), as the cache assembled it.
    public var text: String

    public init(number: Int, text: String) {
        self.number = number
        self.text = text
    }
}

/// Lines `grep -C` prints together: one or more hits of one task with the lines around them,
/// in reading order; windows that touch or overlap are one group (as GNU grep joins them).
public struct OutputHitGroup: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        /// The line's number in the task's output; 0 for its title or plan.
        public var number: Int
        public var text: String
        /// The line holds the pattern (else it is context).
        public var isHit: Bool
    }

    public var taskID: String
    public var lines: [Line]

    /// Where each group's lines lie: the hits in the order given (a search's: newest first),
    /// each widened by `context` lines either side; a hit whose window touches or overlaps
    /// the last group's (same task) joins it. A title or plan hit (line 0) is a group of its own.
    static func windows(_ hits: [OutputSearchHit], context: Int) -> [(hits: [OutputSearchHit], lines: ClosedRange<Int>)]
    {
        var out: [(hits: [OutputSearchHit], lines: ClosedRange<Int>)] = []
        for hit in hits {
            let n = hit.lineNumber
            let window = n == 0 ? 0...0 : max(1, n - context)...(n + context)
            if n != 0, let last = out.last, last.hits[0].taskID == hit.taskID, last.lines.lowerBound != 0,
                window.lowerBound <= last.lines.upperBound + 1, window.upperBound + 1 >= last.lines.lowerBound
            {
                let joined =
                    min(window.lowerBound, last.lines.lowerBound)...max(window.upperBound, last.lines.upperBound)
                out[out.count - 1] = (last.hits + [hit], joined)
            } else {
                out.append(([hit], window))
            }
        }
        return out
    }
}

extension CacheStore {
    /// The hits with `context` lines of cached output before and after each (`grep -C`), in
    /// groups as `OutputHitGroup.windows` makes them, in the hits' order. Each line is whole
    /// (trailing blanks dropped); a hit whose line has left the cache since keeps its text.
    public func contextGroups(for hits: [OutputSearchHit], context: Int) throws(CacheError) -> [OutputHitGroup] {
        var groups: [OutputHitGroup] = []
        for window in OutputHitGroup.windows(hits, context: max(0, context)) {
            let task = window.hits[0].taskID
            let hitLines = Dictionary(window.hits.map { ($0.lineNumber, $0.line) }, uniquingKeysWith: { a, _ in a })
            var found: [Int: String] = [:]
            if window.lines.lowerBound > 0 {
                for line in try outputLines(of: task, numbered: window.lines) { found[line.number] = line.text }
            }
            let numbers = Set(found.keys).union(hitLines.keys).sorted()
            let lines = numbers.map { n in
                var text = found[n] ?? hitLines[n] ?? ""
                while text.last?.isWhitespace == true { text.removeLast() }
                return OutputHitGroup.Line(number: n, text: text, isHit: hitLines[n] != nil)
            }
            groups.append(OutputHitGroup(taskID: task, lines: lines))
        }
        return groups
    }

    /// Most lines one read of a task's lines returns: `grep -C`'s widest window (a hit and 50
    /// lines either side) for each of the most hits a search returns.
    public static let maxOutputLinesRead = maxSearchHits * 101

    /// The task's cached output lines numbered in `numbers` that the cache still holds (the
    /// oldest go as new ones come, `CacheRetention`), in order, at most `maxOutputLinesRead`.
    public func outputLines(of taskID: String, numbered numbers: ClosedRange<Int>) throws(CacheError)
        -> [CachedOutputLine]
    {
        guard numbers.upperBound >= 1 else { return [] }
        let low = max(1, numbers.lowerBound)
        return try withDatabase { db in
            let select = try db.prepare(
                """
                SELECT line_no, text FROM task_lines
                WHERE num = \(TaskLines.taskNumber) AND line_no BETWEEN ?2 AND ?3
                ORDER BY line_no LIMIT ?4
                """)
            try select.bind(taskID, at: 1)
            try select.bind(low, at: 2)
            try select.bind(numbers.upperBound, at: 3)
            try select.bind(Self.maxOutputLinesRead, at: 4)
            var lines: [CachedOutputLine] = []
            while try select.step() {
                lines.append(CachedOutputLine(number: select.int(0), text: select.text(1) ?? ""))
            }
            return lines
        }
    }
}
