import Foundation

/// Finds the items of a list body that are too large, before it is decoded: one pass over the
/// bytes, tracking strings and nesting, that measures each element of the list (a top-level
/// array, or an array held directly by the top-level object, such as `items`). Hand-written:
/// JSONSerialization and JSONDecoder give no byte sizes, and decoding a huge item to learn
/// its size is the cost being avoided.
enum ListItemSizes {
    /// `body` with every list element longer than `limit` bytes replaced by `null` (which the
    /// tolerant list decoding counts as skipped), and how many were.
    static func droppingOversized(_ body: Data, limit: Int) -> (body: Data, dropped: Int) {
        guard body.count > limit else { return (body, 0) }
        let spans = elementSpans(body).filter { $0.count > limit }
        guard !spans.isEmpty else { return (body, 0) }
        var out = Data()
        out.reserveCapacity(body.count)
        var at = body.startIndex
        for span in spans {
            out.append(body[at..<span.lowerBound])
            out.append(contentsOf: Array("null".utf8))
            at = span.upperBound
        }
        out.append(body[at...])
        return (out, spans.count)
    }

    /// The byte ranges of the list's elements, in order (absolute indices of `body`).
    static func elementSpans(_ body: Data) -> [Range<Data.Index>] {
        var spans: [Range<Data.Index>] = []
        var stack: [UInt8] = []
        var inString = false
        var escaped = false
        var start: Data.Index?
        var lastNonSpace = body.startIndex
        // In the list itself: inside the top-level array, or an array the top-level object holds.
        func atListLevel() -> Bool {
            stack.last == UInt8(ascii: "[") && (stack.count == 1 || (stack.count == 2 && stack[0] == UInt8(ascii: "{")))
        }
        for i in body.indices {
            let b = body[i]
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                    lastNonSpace = i
                }
                continue
            }
            switch b {
            case UInt8(ascii: " "), 0x0A, 0x0D, 0x09: continue
            case UInt8(ascii: "]") where atListLevel(), UInt8(ascii: ",") where atListLevel():
                if let s = start { spans.append(s..<(lastNonSpace + 1)) }
                start = nil
                if b == UInt8(ascii: "]") { stack.removeLast() }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
            default:
                if start == nil && atListLevel() { start = i }
                if b == UInt8(ascii: "\"") { inString = true }
                if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") { stack.append(b) }
            }
            lastNonSpace = i
        }
        return spans
    }
}
