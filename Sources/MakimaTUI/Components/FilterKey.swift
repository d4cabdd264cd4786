/// Text as the `/` filter compares it: lower-cased (Unicode case mapping) UTF-8 bytes, so a
/// match is a byte search. Foundation's `localizedCaseInsensitiveContains` costs microseconds
/// a row, too slow for a keystroke over tens of thousands of rows; the standard library has no
/// substring search over bytes, hence this one.
///
/// A match is on code points, not grapheme clusters: "e" finds the "e" of a decomposed "é".
struct FilterKey: Sendable {
    private let bytes: [UInt8]

    init(_ text: String) { bytes = Array(text.lowercased().utf8) }

    var isEmpty: Bool { bytes.isEmpty }

    /// Whether `needle`'s bytes occur in this key.
    func contains(_ needle: FilterKey) -> Bool {
        let n = needle.bytes
        let count = n.count
        guard count > 0 else { return true }
        guard count <= bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { hay in
            n.withUnsafeBufferPointer { pin in
                let first = pin[0]
                var i = 0
                let last = hay.count - count
                while i <= last {
                    if hay[i] == first {
                        var j = 1
                        while j < count && hay[i + j] == pin[j] { j += 1 }
                        if j == count { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }
}
