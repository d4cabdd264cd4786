/// How many terminal cells text occupies. Our own table (see `CellWidthTable`), not the C
/// library's `wcwidth`, so layout is the same on every machine and in tests: East Asian Wide
/// and Fullwidth characters and emoji with emoji presentation take 2 cells, combining marks,
/// zero-width joiners and other format characters take 0, controls take 0.
public enum CellWidth {
    /// Cells taken by one Unicode scalar on its own.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return 1 }
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if contains(CellWidthTable.zero, v) { return 0 }
        if contains(CellWidthTable.wide, v) { return 2 }
        return 1
    }

    /// Cells taken by one grapheme cluster: the widest of its scalars (a base character with
    /// combining marks keeps the base's width; an emoji ZWJ sequence is one wide glyph), and a
    /// pair of regional indicators (a flag) is 2, and so is a character asking for emoji
    /// presentation with VS16 (`❤️`, `1️⃣`), as terminals draw it.
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first { return of(only) }
        var width = 0
        var regionalIndicators = 0
        for s in scalars {
            if s.value == 0xFE0F { return 2 }
            if (0x1F1E6...0x1F1FF).contains(s.value) { regionalIndicators += 1 }
            width = max(width, of(s))
            if width == 2 { return 2 }
        }
        return regionalIndicators >= 2 ? 2 : width
    }

    /// Cells taken by a string: the sum over its grapheme clusters.
    public static func of(_ string: String) -> Int {
        // Printable ASCII, most of any screen: one cell per byte, no grapheme breaking.
        if isPrintableASCII(string) { return string.utf8.count }
        var total = 0
        for c in string { total += of(c) }
        return total
    }

    /// True when every byte is printable ASCII (0x20–0x7E): then each is one grapheme of one cell.
    static func isPrintableASCII(_ string: String) -> Bool {
        string.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    private static func contains(_ ranges: [ClosedRange<UInt32>], _ v: UInt32) -> Bool {
        var lo = 0
        var hi = ranges.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let r = ranges[mid]
            if v < r.lowerBound { hi = mid - 1 } else if v > r.upperBound { lo = mid + 1 } else { return true }
        }
        return false
    }
}
