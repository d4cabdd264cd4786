/// Eight bytes tested at once (SWAR), so the hot scans over server text (the sanitiser's check,
/// the cache's JSON escaping, the WebSocket's UTF-8 repair) skip plain runs a word at a time.
/// Each test uses the zero-byte trick: `(x - 0x01…01) & ~x & 0x80…80` is non-zero exactly when
/// some byte of `x` is zero (a byte after a real hit may be flagged too, never a clean word), so
/// "nothing found" is exact and a hit sends the caller to its byte-by-byte path.
enum ByteWord {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let high: UInt64 = 0x8080_8080_8080_8080

    /// Some byte is 0x80 or above (not ASCII).
    @inline(__always) static func hasNonASCII(_ w: UInt64) -> Bool { w & high != 0 }

    /// Some byte is below `limit` (`limit` at most 0x80).
    @inline(__always) static func hasByte(below limit: UInt8, in w: UInt64) -> Bool {
        (w &- ones &* UInt64(limit)) & ~w & high != 0
    }

    /// Some byte equals `b`.
    @inline(__always) static func hasByte(_ b: UInt8, in w: UInt64) -> Bool {
        let x = w ^ (ones &* UInt64(b))
        return (x &- ones) & ~x & high != 0
    }
}
