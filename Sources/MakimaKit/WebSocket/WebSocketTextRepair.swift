/// Makes the payload of every incoming text frame valid UTF-8 before wslay sees it, and hands
/// text frames to wslay marked binary.
///
/// A text message with bytes that are not UTF-8 must not cost the connection or the message:
/// wslay checks each text message against UTF-8 and fails the whole connection with 1007 on
/// the first bad byte (RFC 6455 8.1), with no switch to turn that off, and a server that
/// stores one such event replays it on every resync, so the client would reconnect forever.
/// This sits between the socket and wslay, follows the frame headers of the byte stream, and
/// replaces each byte of an ill-formed sequence in a text payload with `?` in place: the
/// frame keeps its length, so its header stays true. The message is then read like any other
/// (an event with `?` where the bad bytes were; a frame that is no event is skipped and
/// counted by the pipeline).
///
/// Text frames go on to wslay marked binary (opcode 2; `messageWasText` says which were text,
/// in order): wslay's own check would go over every byte once more, a byte at a time, and it
/// was the largest single cost of a burst. `WebSocketSession` still reads each text message
/// as UTF-8 (the one check left) before it goes anywhere.
///
/// Written by hand because no library offers it: Swift's and ICU's decoders repair whole
/// buffers with U+FFFD (which changes the length), and this has to work on a stream cut at
/// arbitrary points. A sequence cut by the end of a read is held back (at most 3 bytes) and
/// judged with the next read. One cut by the end of a fragment (servers do split characters
/// across fragments) cannot be held back across the next frame's header, so its first bytes
/// go on as they are; should the continuation turn out ill-formed, its bytes are overwritten
/// with the smallest valid ones, which completes the character (lossy, but only for a server
/// that sent garbage). The one case left to wslay: a message whose last fragment is empty
/// after a cut character.
@_spi(Fuzzing) public struct WebSocketTextRepair {
    /// Bytes replaced so far.
    @_spi(Fuzzing) public private(set) var repairedBytes = 0
    /// Bytes held back from the last `filter`, to go in front of the next read.
    @_spi(Fuzzing) public private(set) var carry: [UInt8] = []
    /// Whether each data message begun (and not yet taken by `messageWasText`) is text.
    private var messageKinds: [Bool] = []
    private var nextMessage = 0
    /// A frame announced a length with its top bit set (RFC 6455 forbids it). wslay fails such
    /// a read with a bare callback error; this says what the peer did.
    @_spi(Fuzzing) public private(set) var forbiddenLengthSeen = false

    @_spi(Fuzzing) public init() {}

    private var header: [UInt8] = []
    private var headerLength = 2
    private var inPayload = false
    private var remaining: UInt64 = 0
    /// The current frame's payload is checked (an unmasked text frame or its continuation).
    private var checking = false
    /// A fragmented text message is open: its continuation frames are text too.
    private var textMessageOpen = false
    /// The current frame ends its message.
    private var frameIsFinal = false
    // A multi-byte sequence in progress: bytes it needs, bytes seen, the range of its second
    // byte, and whether its first bytes already went on (with an earlier fragment).
    private var need = 0
    private var have = 0
    private var second: ClosedRange<UInt8> = 0x80...0xBF
    private var passed = false

    /// Copies the held-back bytes to the front of `buf`; returns how many. They stay held
    /// until the next `filter` takes them.
    @_spi(Fuzzing) public func restoreCarry(into buf: UnsafeMutablePointer<UInt8>, capacity: Int) -> Int {
        let n = min(carry.count, capacity)
        for i in 0..<n { buf[i] = carry[i] }
        return n
    }

    /// Checks and repairs `count` bytes read into `buf` (starting with what `restoreCarry`
    /// put there) in place. Returns how many to hand on; the rest (an unfinished sequence at
    /// the end) is held in `carry`.
    @_spi(Fuzzing) public mutating func filter(_ buf: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        carry.removeAll(keepingCapacity: true)
        var i = 0
        while i < count {
            if !inPayload {
                let byte = buf[i]
                if header.isEmpty { buf[i] = relabel(firstHeaderByte: byte) }
                readHeaderByte(byte)
                i += 1
                continue
            }
            let n = Int(min(remaining, UInt64(count - i)))
            if !checking {
                i += n
                remaining -= UInt64(n)
            } else {
                let frameEnds = UInt64(n) == remaining
                let done = repair(buf + i, count: n, frameEnds: frameEnds)
                remaining -= UInt64(done)
                i += done
                if done < n {  // an unfinished sequence at the end of the read: hold it
                    carry.append(contentsOf: UnsafeBufferPointer(start: buf + i, count: count - i))
                    return i
                }
            }
            if remaining == 0 { inPayload = false }
        }
        return count
    }

    /// A frame's first byte as wslay gets it: a text frame (opcode 1) marked binary; the
    /// kind of each data message begun is noted for `messageWasText`.
    private mutating func relabel(firstHeaderByte byte: UInt8) -> UInt8 {
        switch byte & 0x0F {
        case 0x1:
            messageKinds.append(true)
            return byte & 0xF0 | 0x2
        case 0x2:
            messageKinds.append(false)
            return byte
        default: return byte
        }
    }

    /// Whether the next complete data message wslay hands over was sent as text: wslay
    /// delivers data messages whole and in the order they began.
    @_spi(Fuzzing) public mutating func messageWasText() -> Bool {
        guard nextMessage < messageKinds.count else { return false }
        let text = messageKinds[nextMessage]
        nextMessage += 1
        // The kinds taken go: all at once when none is left, else (a read that always holds
        // the next message's header never empties the list) a block at a time, so a stream
        // open for days keeps only the few messages wslay has not handed over yet.
        if nextMessage == messageKinds.count {
            messageKinds.removeAll(keepingCapacity: true)
            nextMessage = 0
        } else if nextMessage >= Self.kindsTakenBeforeCompacting {
            messageKinds.removeFirst(nextMessage)
            nextMessage = 0
        }
        return text
    }

    static let kindsTakenBeforeCompacting = 1_024

    /// Kinds held: those not taken yet, and at most `kindsTakenBeforeCompacting` taken ones.
    var kindsHeld: Int { messageKinds.count }

    private mutating func readHeaderByte(_ byte: UInt8) {
        header.append(byte)
        if header.count == 2 {
            let length7 = header[1] & 0x7F
            let masked = header[1] & 0x80 != 0
            headerLength = 2 + (length7 == 126 ? 2 : length7 == 127 ? 8 : 0) + (masked ? 4 : 0)
        }
        guard header.count >= 2, header.count == headerLength else { return }
        let fin = header[0] & 0x80 != 0
        let reserved = header[0] & 0x70
        let opcode = header[0] & 0x0F
        let masked = header[1] & 0x80 != 0
        let length7 = header[1] & 0x7F
        var length = UInt64(length7)
        if length7 >= 126 {
            length = 0
            for b in header[2..<(length7 == 126 ? 4 : 10)] { length = length << 8 | UInt64(b) }
        }
        if length >> 63 != 0 { forbiddenLengthSeen = true }
        var text = false
        switch opcode {
        case 0x1:
            text = true
            textMessageOpen = !fin
            need = 0  // a new message: nothing of an earlier one is pending
            passed = false
        case 0x0:
            text = textMessageOpen
            if fin { textMessageOpen = false }
        case 0x2:
            textMessageOpen = false
        default:
            break  // control frames are wslay's business, untouched
        }
        // Masked or reserved-bit frames are protocol errors wslay rejects by itself.
        checking = text && !masked && reserved == 0
        if text { frameIsFinal = fin }
        remaining = length
        inPayload = length > 0
        header.removeAll(keepingCapacity: true)
        headerLength = 2
    }

    /// Repairs `count` payload bytes in place; returns how many are final. Less than
    /// `count` only when a sequence is unfinished at the end and the frame goes on.
    private mutating func repair(_ p: UnsafeMutablePointer<UInt8>, count: Int, frameEnds: Bool) -> Int {
        var i = 0
        var start = 0  // where the pending sequence began in this read (when not `passed`)
        while i < count {
            if need > 0 {
                if continueSequence(p, at: i, start: start) { i += 1 }
                continue
            }
            i = Self.skipASCII(p, from: i, count: count)
            guard i < count else { break }
            beginSequence(p, at: i, start: &start)
            i += 1
        }
        return endOfRead(p, count: count, start: start, frameEnds: frameEnds)
    }

    /// The first position from `i` that holds a byte over 0x7F (or `count`): ASCII needs
    /// nothing, and is skipped eight bytes at a time (most of a text frame).
    private static func skipASCII(_ p: UnsafeMutablePointer<UInt8>, from i: Int, count: Int) -> Int {
        var i = i
        while i + 8 <= count, !ByteWord.hasNonASCII(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)) {
            i += 8
        }
        while i < count, p[i] < 0x80 { i += 1 }
        return i
    }

    /// A byte over 0x7F with no sequence pending: it starts one, or is replaced.
    private mutating func beginSequence(_ p: UnsafeMutablePointer<UInt8>, at i: Int, start: inout Int) {
        startSequence(lead: p[i])
        if need == 0 {
            replace(p + i, 1)
        } else {
            have = 1
            start = i
            passed = false
        }
    }

    /// The byte at `i` as the next of the pending sequence: taken (true), completed in place
    /// when its first bytes already went on, or (false) the sequence is ill-formed: its
    /// prefix is replaced and the byte is looked at again as a byte of its own.
    private mutating func continueSequence(_ p: UnsafeMutablePointer<UInt8>, at i: Int, start: Int) -> Bool {
        let b = p[i]
        if have == 1 ? second.contains(b) : (0x80...0xBF).contains(b) {
            have += 1
        } else if passed {
            // Its first bytes went on with an earlier fragment: complete it here.
            p[i] = have == 1 ? second.lowerBound : 0x80
            repairedBytes += 1
            have += 1
        } else {
            replace(p + start, i - start)  // the ill-formed prefix; `b` starts afresh
            need = 0
            return false
        }
        if have == need {
            need = 0
            passed = false
        }
        return true
    }

    /// How many of the `count` bytes are final when the read ends: all of them, unless a
    /// sequence (begun at `start`) is unfinished.
    private mutating func endOfRead(_ p: UnsafeMutablePointer<UInt8>, count: Int, start: Int, frameEnds: Bool)
        -> Int
    {
        guard need > 0, !passed else { return count }
        if !frameEnds {
            need = 0  // cut by the end of the read: held back, judged again with the next one
            return start
        }
        if !frameIsFinal {
            passed = true  // cut by the end of a fragment: completed in the next one
            return count
        }
        replace(p + start, count - start)
        need = 0
        return count
    }

    /// Sets `need` and `second` for a lead byte (`need` 0: the byte can start nothing).
    private mutating func startSequence(lead: UInt8) {
        second = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: need = 2
        case 0xE0:
            need = 3
            second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: need = 3
        case 0xED:
            need = 3
            second = 0x80...0x9F
        case 0xF0:
            need = 4
            second = 0x90...0xBF
        case 0xF1...0xF3: need = 4
        case 0xF4:
            need = 4
            second = 0x80...0x8F
        default: need = 0
        }
    }

    private mutating func replace(_ p: UnsafeMutablePointer<UInt8>, _ n: Int) {
        for k in 0..<n { p[k] = UInt8(ascii: "?") }
        repairedBytes += n
    }
}
