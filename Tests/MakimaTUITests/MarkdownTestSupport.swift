import Foundation
import MakimaKit

@_spi(Fuzzing) @testable import MakimaTUI

/// Builds task events and renders a document into a cell buffer, for the markdown tests.
enum MarkdownFixture {
    static func output(_ seq: Int, _ text: String, stream: String = "assistant") -> TaskEvent {
        TaskEvent(
            eventID: Int64(seq), taskID: "t", seq: seq, type: .output,
            payload: .output(text: UntrustedText.cleanKeepingSGR(text), stream: stream))
    }

    /// The rendered lines of `events` (through the buffer and the incremental converter).
    static func lines(_ events: [TaskEvent]) -> [RenderedLine] {
        var buffer = TaskOutputBuffer(capacity: 100_000)
        buffer.append(events)
        var conv = TaskOutputLines()
        return conv.lines(of: buffer)
    }

    /// `markdown` rendered whole at `width`, as the rows a view shows.
    static func rows(_ markdown: String, width: Int = 60) -> [String] {
        lines([output(1, markdown)]).flatMap { $0.rows(width: width) }.map { row in
            var s = row.text
            while s.last == " " { s.removeLast() }
            return s
        }
    }

    /// Every row of `lines` drawn into a cell buffer `width` wide (what the pane draws).
    static func cells(_ lines: [RenderedLine], width: Int) -> CellBuffer {
        let rows = lines.flatMap { $0.rows(width: width) }
        var buffer = CellBuffer(width: width, height: max(1, rows.count))
        for (y, row) in rows.enumerated() { buffer.write(row, x: 0, y: y, maxX: width) }
        return buffer
    }

    static let sample = """
        ## Plan

        I read `BatchWriter.swift` first. The **contract id** race is *real* and ~~old~~ new.

        - [x] write the failing test
        - [ ] move the retry loop
          - nested item

        1. one
        2. two

        > quoted **text**
        > second line

        | Name | 幅 | Note |
        |:-----|---:|:----:|
        | 契約 | 12 | ok |
        | a | 3 | longer note |

        See [the docs](https://example.com/docs) and https://example.com/raw.

        ---

        ```swift
        struct BatchWriter {
            let db: Database // the store
            func write() throws { try db.run("x", 42) }
        }
        ```

        ```diff
        +added
        -removed
        ```

        Wrapping up.

        <COMPLETION_GATE>
        ready: true
        summary: Batched upserts land in one transaction.
        files_changed: 3
        </COMPLETION_GATE>

        """
}
