import Foundation
import Testing

@_spi(Fuzzing) @testable import MakimaKit

/// Server frames (unmasked), as wslay would read them off the socket.
private func serverFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = false) -> [UInt8] {
    var out: [UInt8] = [(fin ? 0x80 : 0) | opcode]
    let maskBit: UInt8 = masked ? 0x80 : 0
    switch payload.count {
    case ..<126: out.append(maskBit | UInt8(payload.count))
    case ..<65_536: out += [maskBit | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default:
        out.append(maskBit | 127)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((payload.count >> shift) & 0xFF)) }
    }
    if masked { out += [0, 0, 0, 0] }  // a zero mask leaves the payload as it is
    return out + payload
}

/// A frame as wslay gets it from the repair: text (opcode 1) marked binary, the rest as sent.
private func passedOn(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = false) -> [UInt8] {
    serverFrame(opcode == 0x1 ? 0x2 : opcode, payload, fin: fin, masked: masked)
}

/// Runs `stream` through the repair in reads of the given sizes (held bytes go first in the
/// next read, as `WebSocketSession` does) and returns what wslay would see.
private func pass(_ stream: [UInt8], reads: [Int]) -> (out: [UInt8], repaired: Int) {
    var repair = WebSocketTextRepair()
    var out: [UInt8] = []
    var offset = 0
    var r = 0
    let capacity = stream.count + 4  // every read fits, with what is held back before it
    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { buffer.deallocate() }
    while offset < stream.count {
        let size = max(1, reads[r % reads.count])
        r += 1
        let held = repair.restoreCarry(into: buffer, capacity: capacity)
        let n = min(size, stream.count - offset)
        for i in 0..<n { buffer[held + i] = stream[offset + i] }
        offset += n
        let given = repair.filter(buffer, count: held + n)
        out += UnsafeBufferPointer(start: buffer, count: given)
    }
    out += repair.carry
    return (out, repair.repairedBytes)
}

@Suite struct WebSocketTextRepairTests {
    let valid = Array("plain, é, 漢字, 🦊, and U+10FFFF \u{10FFFF}".utf8)

    @Test func validTextPassesUnchangedHoweverItIsCut() {
        let stream = serverFrame(0x1, valid) + serverFrame(0x9, [1, 2]) + serverFrame(0x1, valid)
        let expected = passedOn(0x1, valid) + passedOn(0x9, [1, 2]) + passedOn(0x1, valid)
        for size in 1...stream.count {
            let result = pass(stream, reads: [size])
            #expect(result.out == expected, "reads of \(size)")
            #expect(result.repaired == 0)
        }
    }

    @Test func illFormedSequencesBecomeQuestionMarksByteForByte() {
        let cases: [([UInt8], String)] = [
            ([0x61, 0xFF, 0x62], "a?b"),
            ([0xC3, 0x28], "?("),
            ([0xE2, 0x82], "??"),  // truncated at the end of the message
            ([0xED, 0xA0, 0x80], "???"),  // a UTF-16 surrogate
            ([0xF4, 0x90, 0x80, 0x80], "????"),  // above U+10FFFF
            ([0xC0, 0xAF], "??"),  // overlong
            ([0xE2, 0x82, 0x41], "??A"),
            ([0xF0, 0x9F, 0xA6, 0x8A, 0x80], "🦊?"),
        ]
        for (bytes, expected) in cases {
            let frame = serverFrame(0x1, bytes)
            for size in 1...frame.count {
                let result = pass(frame, reads: [size])
                let payload = Array(result.out.dropFirst(2))
                #expect(String(decoding: payload, as: UTF8.self) == expected, "\(bytes) in reads of \(size)")
                #expect(payload.count == bytes.count)
                #expect(String(validating: payload, as: UTF8.self) != nil)
            }
        }
    }

    /// ASCII is skipped eight bytes at a time: a bad or multi-byte sequence is still seen at
    /// every offset after a run of ASCII, however the reads cut it.
    @Test func sequencesAfterLongASCIIRunsAreSeenAtEveryOffset() {
        for run in 0...20 {
            let ascii = [UInt8](repeating: 0x61, count: run)
            let tail = [UInt8](repeating: 0x62, count: 9)
            let bad = serverFrame(0x1, ascii + [0xE2, 0x82] + tail)
            let good = serverFrame(0x1, ascii + Array("→".utf8) + tail)
            let goodPassedOn = passedOn(0x1, ascii + Array("→".utf8) + tail)
            for size in [1, 3, 7, 8, 9, 64] {
                let fixed = pass(bad, reads: [size])
                #expect(
                    String(decoding: fixed.out.dropFirst(2), as: UTF8.self)
                        == String(repeating: "a", count: run) + "??" + String(repeating: "b", count: 9),
                    "run \(run), reads of \(size)")
                #expect(fixed.repaired == 2)
                let kept = pass(good, reads: [size])
                #expect(kept.out == goodPassedOn, "run \(run), reads of \(size)")
                #expect(kept.repaired == 0)
            }
        }
    }

    @Test func onlyTextPayloadsAreTouched() {
        let bad: [UInt8] = [0x62, 0xFF, 0xFE]
        let big = [UInt8](repeating: 0x78, count: 70_000) + bad
        let stream =
            serverFrame(0x2, bad) + serverFrame(0x9, bad) + serverFrame(0x1, bad, masked: true)
            + serverFrame(0x1, Array(bad.prefix(2)), fin: false) + serverFrame(0xA, bad)
            + serverFrame(0x0, Array(bad.suffix(1)), fin: true) + serverFrame(0x1, big)
            + serverFrame(0x1, Array(repeating: 0x79, count: 300) + bad)
        var expected =
            passedOn(0x2, bad) + passedOn(0x9, bad) + passedOn(0x1, bad, masked: true)
            + passedOn(0x1, [0x62, 0x3F], fin: false) + passedOn(0xA, bad)
            + passedOn(0x0, [0x3F], fin: true)
        expected += passedOn(0x1, [UInt8](repeating: 0x78, count: 70_000) + [0x62, 0x3F, 0x3F])
        expected += passedOn(0x1, Array(repeating: 0x79, count: 300) + [0x62, 0x3F, 0x3F])
        for reads in [[1], [2, 3], [7], [4096], [100_000], [5, 1, 4093]] {
            let result = pass(stream, reads: reads)
            #expect(result.out == expected, "reads \(reads)")
            #expect(result.repaired == 6)
        }
    }

    /// Servers split characters across fragments: those pass intact. A continuation that
    /// turns out ill-formed is completed with the smallest valid bytes, so the message is
    /// valid UTF-8 (wslay would fail the connection otherwise).
    @Test func charactersSplitAcrossFragments() {
        let split =
            serverFrame(0x1, [0xE6, 0x97, 0xA5, 0xE6], fin: false) + serverFrame(0x9, [7])
            + serverFrame(0x0, [0x9C, 0xAC, 0xE8, 0xAA, 0x9E], fin: true)
        let splitPassedOn =
            passedOn(0x1, [0xE6, 0x97, 0xA5, 0xE6], fin: false) + passedOn(0x9, [7])
            + passedOn(0x0, [0x9C, 0xAC, 0xE8, 0xAA, 0x9E], fin: true)
        for size in 1...split.count {
            let result = pass(split, reads: [size])
            #expect(result.out == splitPassedOn, "reads of \(size)")
            #expect(result.repaired == 0)
        }
        let broken =
            serverFrame(0x1, [0x61, 0xF0, 0x9F], fin: false) + serverFrame(0x0, [0x41], fin: false)
            + serverFrame(0x0, [0x42, 0x43], fin: true)
        let fixed =
            passedOn(0x1, [0x61, 0xF0, 0x9F], fin: false) + passedOn(0x0, [0x80], fin: false)
            + passedOn(0x0, [0x80, 0x43], fin: true)
        for size in 1...broken.count {
            let result = pass(broken, reads: [size])
            #expect(result.out == fixed, "reads of \(size)")
            #expect(result.repaired == 2)
        }
        let message: [UInt8] = [0x61, 0xF0, 0x9F, 0x80, 0x80, 0x43]
        #expect(String(validating: message, as: UTF8.self) != nil)
    }

    /// wslay hands over data messages whole, in the order they began, all marked binary: the
    /// repair says which were text, however the reads cut the headers.
    @Test func textMessagesAreKnownInTheOrderTheyBegan() {
        let stream =
            serverFrame(0x1, valid) + serverFrame(0x2, [1, 2, 3]) + serverFrame(0x9, [7])
            + serverFrame(0x1, Array("frag".utf8), fin: false) + serverFrame(0xA, [])
            + serverFrame(0x0, Array("ment".utf8), fin: true) + serverFrame(0x2, [4])
        for size in [1, 2, 3, 5, 4096] {
            var repair = WebSocketTextRepair()
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: stream.count + 4)
            defer { buffer.deallocate() }
            var offset = 0
            while offset < stream.count {
                let held = repair.restoreCarry(into: buffer, capacity: stream.count + 4)
                let n = min(size, stream.count - offset)
                for i in 0..<n { buffer[held + i] = stream[offset + i] }
                offset += n
                _ = repair.filter(buffer, count: held + n)
            }
            let kinds = (0..<5).map { _ in repair.messageWasText() }
            #expect(kinds == [true, false, true, false, false], "reads of \(size)")
        }
    }

    /// Each read ends inside the next message, so the kinds are never all taken at once: the
    /// list still stays small however long the stream runs.
    @Test func theKindsHeldStayBoundedOnAnEndlessStream() {
        var repair = WebSocketTextRepair()
        let frame = serverFrame(0x1, Array("event".utf8))
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: frame.count * 2 + 4)
        defer { buffer.deallocate() }
        // The first message and the next one's first byte; then, each read, the rest of that
        // message and the first byte of the one after it, while wslay hands over one message.
        var stream = frame + [frame[0]]
        for _ in 0..<50_000 {
            let held = repair.restoreCarry(into: buffer, capacity: frame.count * 2 + 4)
            for (i, b) in stream.enumerated() { buffer[held + i] = b }
            _ = repair.filter(buffer, count: held + stream.count)
            let wasText = repair.messageWasText()
            #expect(wasText)
            stream = Array(frame.dropFirst()) + [frame[0]]
        }
        #expect(repair.kindsHeld <= WebSocketTextRepair.kindsTakenBeforeCompacting + 1)
    }
}
