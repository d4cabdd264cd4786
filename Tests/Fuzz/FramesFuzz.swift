@_spi(Fuzzing) import MakimaKit

/// The bytes of a WebSocket stream as the client reads them before wslay does
/// (`WebSocketTextRepair`: text payloads made valid UTF-8 in place, text frames relabelled).
/// The first byte picks the sizes of the reads the rest is cut into. Invariants: whatever the
/// bytes and however they are cut, the output is the same as for one read of all of them, of the
/// same length (a frame keeps its length, so its header stays true); the same bytes are counted
/// as repaired; at most three bytes are held back between reads (an unfinished character);
/// a frame length with its top bit set is noticed either way.
enum FramesFuzz {
    static func check(_ bytes: [UInt8]) -> String? {
        guard let seed = bytes.first else { return nil }
        let stream = Array(bytes.dropFirst().prefix(1 << 16))
        let whole = pass(stream, reads: [stream.count + 1])
        let sizes = [Int(seed % 7) + 1, Int(seed / 7 % 13) + 1, Int(seed / 91) + 1]
        let cut = pass(stream, reads: sizes)
        if let problem = cut.problem ?? whole.problem { return problem }
        if whole.out.count != stream.count {
            return "one read changed the length: \(whole.out.count) of \(stream.count)"
        }
        if cut.out != whole.out { return "reads of \(sizes) give other bytes than one read" }
        if cut.repaired != whole.repaired { return "repaired \(cut.repaired) in reads, \(whole.repaired) in one" }
        if cut.forbidden != whole.forbidden { return "a top-bit length seen in one way only" }
        return nil
    }

    private struct Outcome {
        var out: [UInt8] = []
        var repaired = 0
        var forbidden = false
        var problem: String?
    }

    /// `stream` in reads of `reads` sizes (in turn), the held bytes first in each next read,
    /// as `WebSocketSession` reads the socket.
    private static func pass(_ stream: [UInt8], reads: [Int]) -> Outcome {
        var repair = WebSocketTextRepair()
        var outcome = Outcome()
        let capacity = stream.count + 8
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        var offset = 0
        var r = 0
        while offset < stream.count {
            let held = repair.restoreCarry(into: buffer, capacity: capacity)
            let n = min(reads[r % reads.count], stream.count - offset)
            r += 1
            for i in 0..<n { buffer[held + i] = stream[offset + i] }
            offset += n
            let given = repair.filter(buffer, count: held + n)
            if given > held + n { return Outcome(problem: "passed on \(given) of \(held + n) bytes") }
            outcome.out += UnsafeBufferPointer(start: buffer, count: given)
            if repair.carry.count > 3 { return Outcome(problem: "held back \(repair.carry.count) bytes") }
        }
        outcome.out += repair.carry
        outcome.repaired = repair.repairedBytes
        outcome.forbidden = repair.forbiddenLengthSeen
        return outcome
    }
}
