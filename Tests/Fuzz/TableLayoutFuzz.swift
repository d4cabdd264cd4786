import MakimaKit
@_spi(Fuzzing) import MakimaTUI

/// Markdown tables through the whole output path (the markdown bounds, cmark-gfm's table
/// extension, the table layout). Each line of the input is repeated up to 256 times (the
/// first byte says how many), so a small input such as `|a` makes a table of thousands of
/// columns. Invariants: no rendered line is wider than the layout's bound (the columns shown
/// times the widest cell, or a cut line and its marker); no row drawn holds a control; the
/// time per input is bounded by libFuzzer's `-timeout` (see scripts/fuzz.sh), which a table
/// laid out in time growing with the square of its columns would exceed.
enum TableLayoutFuzz {
    /// The widest a rendered line may be, in cells: 64 columns of 120 cells with their bars,
    /// and the marker; a plain line cut at 8 KiB (a byte can be two cells) and its marker.
    static let widestLine = 20_000

    static func check(_ bytes: [UInt8]) -> String? {
        let repeats = Int(bytes.first ?? 0) + 1
        let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
        let markdown =
            text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(repeating: String($0), count: repeats) }.joined(separator: "\n") + "\n"
        var buffer = TaskOutputBuffer(capacity: 2_000)
        buffer.append([
            TaskEvent(
                eventID: 1, taskID: "t", seq: 1, type: .output,
                payload: .output(text: UntrustedText.cleanKeepingSGR(markdown), stream: "assistant"))
        ])
        var converter = TaskOutputLines()
        let lines = converter.lines(of: buffer)
        for line in lines {
            let width = line.prefix.width + line.content.width
            if width > widestLine { return "a line of \(width) cells: \(Invariant.excerpt(line.text))" }
            for row in line.rows(width: 80).prefix(400) {
                if let bad = Invariant.firstControl(in: row.text) { return "row holds \(bad)" }
            }
        }
        return nil
    }
}
