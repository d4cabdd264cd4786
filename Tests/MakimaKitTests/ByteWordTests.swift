import Testing

@testable import MakimaKit

/// The word-at-a-time byte tests agree with a byte-by-byte look at the same eight bytes.
@Suite struct ByteWordTests {
    private func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    @Test("each byte value at each position, against a plain background")
    func everyByteAtEveryPosition() {
        let background: [UInt8] = Array("abcdefgh".utf8)
        for value in UInt8.min...UInt8.max {
            for position in 0..<8 {
                var bytes = background
                bytes[position] = value
                let w = word(bytes)
                #expect(ByteWord.hasNonASCII(w) == bytes.contains { $0 >= 0x80 })
                #expect(ByteWord.hasByte(below: 0x20, in: w) == bytes.contains { $0 < 0x20 }, "\(value)@\(position)")
                for target: UInt8 in [0x22, 0x5C, 0x7F] {
                    #expect(ByteWord.hasByte(target, in: w) == bytes.contains(target), "\(value)@\(position)")
                }
            }
        }
    }
}
