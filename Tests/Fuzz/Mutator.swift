/// A corpus input.
struct Seed: Sendable {
    var bytes: [UInt8]
}

/// A small deterministic PRNG (SplitMix64) so a replay run is the same every time.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Mutations in the spirit of libFuzzer's, biased towards what hostile servers send: control
/// bytes, UTF-8 lead and continuation bytes, structural JSON and HTTP bytes, huge numbers.
enum Mutator {
    static let interestingBytes: [UInt8] = [
        0x00, 0x07, 0x09, 0x0A, 0x0D, 0x1B, 0x5B, 0x5D, 0x7F, 0x80, 0x9B, 0x9C, 0x9D, 0xC2, 0xE2, 0xF0, 0xFF,
        0x22, 0x5C, 0x7B, 0x7D, 0x3A, 0x2C, 0x3B, 0x6D, 0x40, 0x23, 0x3D,
    ]
    static let interestingTokens: [String] = [
        "9223372036854775807", "-9223372036854775808", "18446744073709551616", "-1", "0", "1e308", "null",
        "\u{1B}[31m", "\u{1B}]0;title\u{07}", "\u{9B}2J", "\u{202E}", "\r\n", "\r\n\r\n", "\\u0000", "\\ud800",
    ]

    static func mutate(_ seeds: [Seed], using g: inout SplitMix64) -> [UInt8] {
        var bytes = seeds[Int(g.next() % UInt64(seeds.count))].bytes
        for _ in 0...Int(g.next() % 4) { step(&bytes, seeds, &g) }
        return bytes
    }

    private static func step(_ b: inout [UInt8], _ seeds: [Seed], _ g: inout SplitMix64) {
        func pos(_ extra: Int = 0) -> Int { Int(g.next() % UInt64(b.count + extra)) }
        switch g.next() % 7 {
        case 0 where !b.isEmpty: b[pos()] ^= UInt8(1 << (g.next() % 8))
        case 1: b.insert(interestingBytes[Int(g.next() % UInt64(interestingBytes.count))], at: pos(1))
        case 2 where !b.isEmpty:
            let from = pos()
            b.removeSubrange(from..<min(b.count, from + 1 + Int(g.next() % 16)))
        case 3 where !b.isEmpty:
            let from = pos()
            let piece = b[from..<min(b.count, from + 1 + Int(g.next() % 64))]
            b.insert(contentsOf: piece, at: pos(1))
        case 4:
            let token = interestingTokens[Int(g.next() % UInt64(interestingTokens.count))]
            b.insert(contentsOf: Array(token.utf8), at: pos(1))
        case 5:
            let other = seeds[Int(g.next() % UInt64(seeds.count))].bytes
            guard !other.isEmpty else { return }
            let from = Int(g.next() % UInt64(other.count))
            b.insert(contentsOf: other[from..<min(other.count, from + 1 + Int(g.next() % 128))], at: pos(1))
        default:
            if !b.isEmpty { b[pos()] = UInt8(truncatingIfNeeded: g.next()) }
        }
    }
}
