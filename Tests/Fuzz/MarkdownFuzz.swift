import MakimaKit
@_spi(Fuzzing) import MakimaTUI

/// Task output through the markdown renderer (cmark-gfm, cards, logs), fed as it streams: the
/// input is cut at NUL bytes into `task.output` events (a chunk starting with 0x01 is a tool
/// log). Invariants: nothing traps; no row drawn holds a terminal control or a newline; a row fits an
/// 80-column view; and rendering as the events arrive gives the same lines as rendering
/// everything at once (the converter re-parses only the unfinished tail).
enum MarkdownFuzz {
    static func check(_ bytes: [UInt8]) -> String? {
        let chunks = bytes.prefix(8_192).split(separator: 0, omittingEmptySubsequences: false)
        var buffer = TaskOutputBuffer(capacity: 2_000)
        var streamed = TaskOutputLines()
        for (i, chunk) in chunks.enumerated() {
            let isLog = chunk.first == 1
            let text = UntrustedText.cleanKeepingSGR(String(decoding: chunk.dropFirst(isLog ? 1 : 0), as: UTF8.self))
            let event = TaskEvent(
                eventID: Int64(i + 1), taskID: "t", seq: i + 1, type: .output,
                payload: .output(text: text, stream: isLog ? "tool" : "assistant"))
            buffer.append([event])
            _ = streamed.lines(of: buffer)
        }
        let lines = streamed.lines(of: buffer)
        var whole = TaskOutputLines()
        if whole.lines(of: buffer) != lines { return "streamed rendering differs from rendering at once" }
        for line in lines {
            for row in line.rows(width: 80) {
                let text = row.text
                if let bad = Invariant.firstControl(in: text) ?? (text.contains("\n") ? "a newline" : nil) {
                    return "row holds \(bad): \(Invariant.excerpt(text))"
                }
                if CellWidth.of(text) > 80 { return "row of \(CellWidth.of(text)) cells: \(Invariant.excerpt(text))" }
            }
        }
        return nil
    }
}
