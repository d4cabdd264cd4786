/// What one line of output may cost. The parser's table extension and the table layout grow
/// with the square of the columns, and a line is laid out again each frame it is on screen, so
/// one hostile line (a table of 32,000 columns, a 4 MB line) could freeze the view. A line over
/// these bounds is not handed to the parser: it is shown as plain text, cut after
/// `maximumLineBytes` with a marker saying how much is left out; `y` copies the line whole (up
/// to what the clipboard takes).
///
/// The decision looks at the finished line alone, so the same text gives the same lines
/// whatever the chunks it arrived in.
enum OutputLimits {
    /// Bytes of one line drawn; the rest is left out behind a marker.
    static let maximumLineBytes = 8_192
    /// A line with more `|` than this would be a table too wide to lay out: plain text.
    static let maximumPipes = 256

    /// Too long or too wide for the markdown parser.
    static func isOversized(_ line: String) -> Bool {
        if line.utf8.count > maximumLineBytes { return true }
        var pipes = 0
        for byte in line.utf8 where byte == UInt8(ascii: "|") {
            pipes += 1
            if pipes > maximumPipes { return true }
        }
        return false
    }

    /// The start of `line` that is drawn (cut at a character boundary after at most
    /// `maximumLineBytes` bytes) and how many bytes are left out.
    static func cut(_ line: String) -> (shown: Substring, omittedBytes: Int) {
        let total = line.utf8.count
        guard total > maximumLineBytes else { return (line[...], 0) }
        var bytes = 0
        var end = line.startIndex
        while end < line.endIndex {
            let next = line.index(after: end)
            let n = line.utf8.distance(from: end, to: next)
            if bytes + n > maximumLineBytes { break }
            bytes += n
            end = next
        }
        return (line[..<end], total - bytes)
    }

    /// The marker after a cut line.
    static func marker(omittedBytes: Int, glyphs: Glyphs) -> String {
        "\(glyphs.ellipsis) \(omittedBytes) more bytes, y copies the line"
    }

    /// What `y` copies of a cut line: as much as the clipboard takes.
    static func copyText(_ line: String) -> String { String(line.prefix(Clipboard.maximumBytes)) }
}
