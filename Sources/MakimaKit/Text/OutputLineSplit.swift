import Foundation

/// How a task's output text becomes lines: the one rule the task view (`TaskOutputBuffer`) and
/// the cache's lines (`TaskLineAssembler`) both follow, so a line number or a search hit means
/// the same line in both.
///
/// - Text is cut after each newline (LF); the last piece of an event without one is an open
///   line, continued by the next text of the same stream, whatever event it comes in.
/// - Text of another stream, or any other event (a status, a completion gate, a question),
///   ends the open line first.
public enum OutputLineSplit {
    /// Calls `piece` with each part of `text` between newlines, in order; `ended` is true when
    /// a newline followed it. A text ending in a newline has no last open piece; an empty text
    /// calls nothing.
    ///
    /// Cut on newline bytes: the same cuts as splitting Characters (a grapheme always breaks
    /// after LF, and cleaned text holds no CR), without grapheme breaking. The newlines are
    /// found with memchr over the UTF-8 and the pieces taken as substrings of `text` (no bytes
    /// validated again; one allocation per line, none for a short one).
    public static func forEachPiece(
        of text: String, _ piece: (_ part: Substring, _ ended: Bool) throws -> Void
    ) rethrows {
        var text = text
        let cuts = text.withUTF8 { bytes -> [Int] in
            guard let base = bytes.baseAddress else { return [] }
            var cuts: [Int] = []
            var from = 0
            while from < bytes.count, let hit = memchr(base + from, 0x0A, bytes.count - from) {
                let at = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base
                cuts.append(at)
                from = at + 1
            }
            return cuts
        }
        let utf8 = text.utf8
        var start = utf8.startIndex
        for cut in cuts {
            let end = utf8.index(utf8.startIndex, offsetBy: cut)
            try piece(text[start..<end], true)
            start = utf8.index(after: end)
        }
        if start != utf8.endIndex { try piece(text[start...], false) }
    }

    /// What `forEachPiece` would call, counted without making a piece: how many pieces, and
    /// whether the last is open (no newline after it).
    public static func shape(of text: String) -> (pieces: Int, endsOpen: Bool) {
        guard let last = text.utf8.last else { return (0, false) }
        let endsOpen = last != 0x0A
        return (newlines(in: text) + (endsOpen ? 1 : 0), endsOpen)
    }

    /// How many newlines `text` holds: the pieces `forEachPiece` calls with `ended`.
    public static func newlines(in text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return 0 }
            var count = 0
            var from = 0
            while from < bytes.count, let hit = memchr(base + from, 0x0A, bytes.count - from) {
                count += 1
                from = UnsafeRawPointer(hit).assumingMemoryBound(to: UInt8.self) - base + 1
            }
            return count
        }
    }

    /// The text after the last newline: the open piece `forEachPiece` calls last (empty when
    /// the text ends in a newline).
    public static func lastPiece(of text: String) -> Substring {
        let utf8 = text.utf8
        guard let newline = utf8.lastIndex(of: 0x0A) else { return text[...] }
        return text[utf8.index(after: newline)...]
    }

    /// Whether text of `stream` continues an open line of `openStream` (nil: no open line).
    public static func continues(openStream: String?, with stream: String) -> Bool {
        openStream == stream
    }
}
