/// JSON written straight into bytes, for the one object the cache writes per output event
/// (`TaskEvent.outputWireJSON`): JSONEncoder escapes every string through generic containers
/// and sorts keys per object, which cost more than the rest of caching a burst together. The
/// caller writes keys and punctuation as they are (`raw`) in the order it wants.
struct JSONBytesWriter {
    private var out: [UInt8] = []

    init(capacity: Int) { out.reserveCapacity(capacity) }

    /// The JSON written so far.
    var text: String { String(decoding: out, as: UTF8.self) }

    /// Bytes written as they are: keys, punctuation.
    mutating func raw(_ s: StaticString) {
        out.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    mutating func number(_ n: Int64) {
        // Digits written in place (a String per number showed in the cache writer's profile).
        if n < 0 { out.append(0x2D) }
        var v = n.magnitude
        var count = 1
        var probe = v
        while probe >= 10 {
            probe /= 10
            count += 1
        }
        out.append(contentsOf: repeatElement(0x30, count: count))
        var k = out.count - 1
        repeat {
            out[k] = UInt8(48 + v % 10)
            v /= 10
            k -= 1
        } while v > 0
    }

    /// A JSON string: quoted, with quotes, backslashes and control characters escaped.
    mutating func string(_ s: String) {
        out.append(0x22)
        var s = s
        s.withUTF8 { bytes in
            var runStart = 0
            var i = 0
            let n = bytes.count
            let base = UnsafeRawPointer(bytes.baseAddress)
            while i < n {
                // Eight bytes at a time while none is a quote, a backslash or a control.
                if let base, i + 8 <= n {
                    let w = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    if !ByteWord.hasByte(below: 0x20, in: w) && !ByteWord.hasByte(0x22, in: w)
                        && !ByteWord.hasByte(0x5C, in: w)
                    {
                        i += 8
                        continue
                    }
                }
                let b = bytes[i]
                i += 1
                guard b == 0x22 || b == 0x5C || b < 0x20 else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<(i - 1)]))
                runStart = i
                escape(b)
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(0x22)
    }

    private mutating func escape(_ b: UInt8) {
        switch b {
        case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
        case 0x0D: out.append(contentsOf: [0x5C, 0x72])
        case 0x09: out.append(contentsOf: [0x5C, 0x74])
        case 0x22, 0x5C: out.append(contentsOf: [0x5C, b])
        default:
            let hex: StaticString = "0123456789abcdef"
            out.append(contentsOf: [
                0x5C, 0x75, 0x30, 0x30, hex.utf8Start[Int(b >> 4)], hex.utf8Start[Int(b & 0xF)],
            ])
        }
    }
}
