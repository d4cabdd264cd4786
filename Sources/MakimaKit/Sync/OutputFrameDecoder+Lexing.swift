import Foundation

/// The frame decoder's lexing (`OutputFrameDecoder.Parser`): whitespace, literals, integers,
/// strings with their escapes, and values skipped, read straight from the frame's bytes.
extension OutputFrameDecoder.Parser {
    mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
            i += 1
        }
    }

    mutating func peek() -> UInt8? {
        skipSpace()
        return i < bytes.count ? bytes[i] : nil
    }

    mutating func take(_ b: UInt8) -> Bool {
        guard peek() == b else { return false }
        i += 1
        return true
    }

    mutating func atEnd() -> Bool {
        skipSpace()
        return i == bytes.count
    }

    mutating func literal(_ word: StaticString) -> Bool {
        skipSpace()
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { return false }
        i += n
        return true
    }

    /// A JSON integer without fraction or exponent that fits an Int.
    mutating func integer() -> Int? {
        skipSpace()
        var negative = false
        if i < bytes.count, bytes[i] == 0x2D {
            negative = true
            i += 1
        }
        let start = i
        var value = 0
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(bytes[i] - 0x30))
            if o1 || o2 { return nil }
            value = a
            i += 1
        }
        guard i > start else { return nil }
        if i < bytes.count, bytes[i] == 0x2E || bytes[i] == 0x65 || bytes[i] == 0x45 { return nil }
        return negative ? -value : value
    }

    /// The bytes of a JSON string without escapes or control bytes, quotes left out, and the
    /// position after it; nil (position unchanged past the whitespace) for any other value.
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard peek() == 0x22 else { return nil }
        var j = i + 1
        while j < bytes.count {
            let b = bytes[j]
            if b == 0x22 {
                defer { i = j + 1 }
                return UnsafeBufferPointer(rebasing: bytes[(i + 1)..<j])
            }
            if b == 0x5C || b < 0x20 { return nil }
            j += 1
        }
        return nil
    }

    /// `string()` from an earlier position (after a `plainString()` that gave up or whose
    /// bytes were not enough).
    mutating func string(at position: Int) -> String? {
        i = position
        return string()
    }

    /// A JSON string; nil on anything JSON forbids or this decoder leaves to the Codable path.
    mutating func string() -> String? {
        guard take(0x22) else { return nil }
        let start = i
        // Common case: no escapes; the bytes are already valid UTF-8 (they came from a String).
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x22 {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if b == 0x5C { return unescaped(from: start) }
            if b < 0x20 { return nil }
            i += 1
        }
        return nil
    }

    /// The string that starts at `start`, `i` being on its first backslash. Escapes only
    /// shrink the text, so the rest of the frame bounds the decoded size: the string is
    /// written in place, one allocation (no byte array copied again).
    mutating func unescaped(from start: Int) -> String? {
        var ok = false
        let decoded = String(unsafeUninitializedCapacity: bytes.count - start) { out in
            var n = i - start
            if n > 0 { out.baseAddress!.update(from: bytes.baseAddress! + start, count: n) }
            while i < bytes.count {
                // Copy the run up to the next quote, backslash or control byte in one go.
                let runStart = i
                while i < bytes.count, bytes[i] != 0x22, bytes[i] != 0x5C, bytes[i] >= 0x20 { i += 1 }
                if i > runStart {
                    (out.baseAddress! + n).update(from: bytes.baseAddress! + runStart, count: i - runStart)
                    n += i - runStart
                }
                guard i < bytes.count else { return 0 }
                let b = bytes[i]
                i += 1
                if b == 0x22 {
                    ok = true
                    return n
                }
                // A control byte (the run stops only on those), or an escape JSON forbids.
                guard b == 0x5C, let scalar = escape() else { return 0 }
                if scalar.isASCII {
                    out[n] = UInt8(scalar.value)
                    n += 1
                } else {
                    for unit in UTF8.encode(scalar)! {
                        out[n] = unit
                        n += 1
                    }
                }
            }
            return 0
        }
        return ok ? decoded : nil
    }

    /// The character of the escape after a backslash; nil for one JSON forbids.
    mutating func escape() -> Unicode.Scalar? {
        guard i < bytes.count else { return nil }
        let e = bytes[i]
        i += 1
        switch e {
        case 0x22, 0x5C, 0x2F: return Unicode.Scalar(e)
        case 0x62: return "\u{08}"
        case 0x66: return "\u{0C}"
        case 0x6E: return "\n"
        case 0x72: return "\r"
        case 0x74: return "\t"
        case 0x75: return unicodeEscape()
        default: return nil
        }
    }

    /// `\uXXXX` after its `u`, a surrogate pair as one character; nil for a lone surrogate.
    mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let unit = hex4() else { return nil }
        if (0xDC00...0xDFFF).contains(unit) { return nil }
        guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(UInt32(unit)) }
        guard i + 1 < bytes.count, bytes[i] == 0x5C, bytes[i + 1] == 0x75 else { return nil }
        i += 2
        guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
        return Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
    }

    mutating func hex4() -> UInt16? {
        guard i + 4 <= bytes.count else { return nil }
        var v: UInt16 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt8
            switch b {
            case 0x30...0x39: d = b - 0x30
            case 0x41...0x46: d = b - 0x41 + 10
            case 0x61...0x66: d = b - 0x61 + 10
            default: return nil
            }
            v = v << 4 | UInt16(d)
            i += 1
        }
        return v
    }

    /// Skips a value of a field this decoder does not read: strings, numbers and literals
    /// only. Nested objects and arrays are left to the Codable path (rare, and bounded there).
    mutating func skipValue() -> Bool {
        switch peek() {
        case 0x22: return string() != nil
        case 0x74: return literal("true")
        case 0x66: return literal("false")
        case 0x6E: return literal("null")
        case let b? where b == 0x2D || (0x30...0x39).contains(b):
            i += 1
            while i < bytes.count,
                (0x30...0x39).contains(bytes[i]) || [0x2E, 0x65, 0x45, 0x2B, 0x2D].contains(bytes[i])
            {
                i += 1
            }
            return true
        default: return false
        }
    }
}
