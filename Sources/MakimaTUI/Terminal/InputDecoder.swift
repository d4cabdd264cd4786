import CNcursesShim
import MakimaKit

/// What the terminal delivered: a key, a new size, a mouse report, or a bracketed paste.
public enum TerminalInput: Equatable, Sendable {
    case key(Key)
    case resize
    case mouse(MouseEvent)
    /// Text the terminal marked as pasted (`ESC [ 200 ~ … ESC [ 201 ~`), cleaned as server text
    /// is (`UntrustedText`) and without newlines, from at most `InputDecoder.pasteLimit`
    /// characters.
    case paste(String)
    /// The terminal gained (true) or lost focus (`ESC [ I` / `ESC [ O`, mode 1004).
    case focus(Bool)
}

/// Turns what `wget_wch` returns into `TerminalInput`s. ncurses decodes the keys its terminfo
/// entry names (arrows, function keys, UTF-8); it hands the sequences it does not know over
/// one character at a time (`ESC`, `[`, `<`, …), and those are recognised here: SGR mouse
/// reports (`ESC [ < b ; x ; y M|m`) and bracketed paste. ncurses has no parser for either
/// that it uses without its own mouse driver (which wants `kmous` in the entry and reports
/// no releases in SGR form on older versions), so this small state machine is written here.
///
/// Everything here is untrusted: a report out of range, a malformed or truncated sequence,
/// or a flood is dropped, never a crash, and each character costs constant work (nothing is
/// scanned twice). What is dropped goes whole, never typed as keys:
/// - any CSI sequence (`ESC [` or the 8-bit `0x9B`) that is not a mouse report or a paste
///   marker; a malformed one (a control or a character beyond ASCII inside it) or one longer
///   than `sequenceLimit` through its final byte, with all it held;
/// - the terminal strings OSC, DCS, SOS, PM and APC (`ESC ]`, `P`, `X`, `^`, `_` or their
///   8-bit forms) through their terminator (BEL, ST = `ESC \` or `0x9C`; CAN and SUB cancel),
///   however long: nothing of a string's body is kept, so its length costs no memory.
///
/// A sequence or a paste that stops arriving is ended after `sequenceTimeout` /
/// `pasteTimeout` without input (`expire(now:)`, called only when the terminal has nothing
/// waiting, so a reader that fell behind a flood does not cut the flood's sequence short and
/// type its rest; the event loop wakes at `deadline`).
@_spi(Fuzzing) public struct InputDecoder {
    /// Characters kept of one paste (before cleaning); the rest of it is dropped.
    public static let pasteLimit = 65_536
    /// Characters of one control sequence's parameters before it is given up (and the rest of
    /// it skipped): the longest this decoder reads, a mouse report, has 16.
    public static let sequenceLimit = 32
    /// Seconds a started control sequence or string may wait for its next character.
    public static let sequenceTimeout = 0.5
    /// Seconds a paste may wait for its next character before it is ended without its marker.
    public static let pasteTimeout = 2.0

    private enum State: Equatable {
        case ground
        /// After ESC: `[` starts a control sequence, `] P X ^ _` a string; anything else
        /// makes ESC the Escape key.
        case escape
        /// Inside a CSI sequence: parameters and intermediates so far in `sequence`.
        case csi
        /// A sequence too long or malformed: skipped to its final character.
        case skip
        /// The body of an OSC, DCS, SOS, PM or APC string: skipped to its terminator.
        case string
        /// ESC inside a string: `\` ends it (ST).
        case stringEscape
        /// Inside a paste; `endMatched` counts the characters of its end marker seen so far.
        case paste
        /// After `ESC [ M`, a terminal without SGR reporting: its three raw bytes are skipped.
        case x10(remaining: Int)
    }

    private var state = State.ground
    private var sequence: [UInt8] = []
    private var pasted = String.UnicodeScalarView()
    private var pastedCount = 0
    private var endMatched = 0
    private var lastInputAt = -Double.infinity
    /// Decoded inputs, oldest first from `readyStart` (a flood is taken without shifting).
    private var ready: [TerminalInput] = []
    private var readyStart = 0
    /// Characters and key codes taken so far (a new size is not one): how many came in a read
    /// tells a key typed alone from one inside a burst (`BurstGuard`). Wraps, never traps.
    public private(set) var charactersTaken = 0

    public init() {}

    /// The next decoded input, oldest first.
    public mutating func next() -> TerminalInput? {
        guard readyStart < ready.count else { return nil }
        let input = ready[readyStart]
        readyStart += 1
        if readyStart == ready.count {
            ready.removeAll(keepingCapacity: ready.capacity <= 1_024)
            readyStart = 0
        }
        return input
    }

    /// When a started sequence or paste should be given up if nothing more arrives.
    public var deadline: Double? {
        switch state {
        case .ground, .escape: return nil
        case .csi, .skip, .string, .stringEscape, .x10: return lastInputAt + Self.sequenceTimeout
        case .paste: return lastInputAt + Self.pasteTimeout
        }
    }

    /// Ends a sequence or paste whose time is up: a paste is delivered as it is, a sequence
    /// or string dropped. Called when the terminal has nothing waiting.
    public mutating func expire(now: Double) {
        guard let deadline, now >= deadline else { return }
        if case .paste = state { finishPaste() }
        state = .ground
        sequence = []
    }

    /// Nothing more is waiting: an ESC alone is the Escape key (ncurses has already waited
    /// `ESCDELAY` for what could follow it).
    public mutating func endOfInput() {
        if state == .escape {
            ready.append(.key(.escape))
            state = .ground
        }
    }

    /// One `wget_wch` result: `status` is OK (a character) or KEY_CODE_YES (a key code).
    public mutating func feed(status: Int32, code: UInt32, now: Double) {
        lastInputAt = now
        if status == KEY_CODE_YES {
            feedKeyCode(code)
        } else {
            charactersTaken &+= 1
            feed(character: code)
        }
    }

    /// A key code ncurses decoded (an arrow, a function key), as `feed(status: KEY_CODE_YES, …)`.
    public mutating func feed(keyCode code: UInt32, now: Double) {
        feed(status: KEY_CODE_YES, code: code, now: now)
    }

    /// A character, as a terminal would send it (the fuzz target and tests feed bytes this way).
    public mutating func feed(character code: UInt32, now: Double) {
        feed(status: OK, code: code, now: now)
    }

    private mutating func feedKeyCode(_ code: UInt32) {
        // A new size is not input: it is never lost inside a paste or a sequence.
        if Int32(code) == KEY_RESIZE { return ready.append(.resize) }
        charactersTaken &+= 1
        switch state {
        case .paste: return  // a paste is text: a key ncurses found inside it is dropped
        case .escape: ready.append(.key(.escape))
        case .csi, .skip, .string, .stringEscape, .x10: break  // the sequence is cut short: dropped
        case .ground: break
        }
        state = .ground
        sequence = []
        if let input = KeyDecoder.decode(status: KEY_CODE_YES, code: code) { ready.append(input) }
    }

    private mutating func feed(character c: UInt32) {
        switch state {
        case .ground:
            if !startsSequence(c), let input = KeyDecoder.decode(status: OK, code: c) { ready.append(input) }
        case .escape:
            afterEscape(c)
        case .csi:
            continueSequence(c)
        case .skip:
            skipSequence(c)
        case .string:
            if c == 0x1B {
                state = .stringEscape
            } else if c == 0x07 || c == 0x9C || c == 0x18 || c == 0x1A {
                state = .ground
            }
        case .stringEscape:
            // As `UntrustedText` reads server text: ESC then anything but `\` is still the body.
            state = c == 0x5C ? .ground : .string
        case .paste:
            continuePaste(c)
        case .x10(let remaining):
            state = remaining > 1 ? .x10(remaining: remaining - 1) : .ground
        }
    }

    /// ESC, the 8-bit CSI and the 8-bit string introducers start what is not a key.
    private mutating func startsSequence(_ c: UInt32) -> Bool {
        switch c {
        case 0x1B: state = .escape
        case 0x9B: startCSI()
        case 0x90, 0x98, 0x9D, 0x9E, 0x9F: state = .string
        default: return false
        }
        return true
    }

    private mutating func startCSI() {
        state = .csi
        sequence = []
    }

    private mutating func afterEscape(_ c: UInt32) {
        switch c {
        case 0x5B: startCSI()  // [
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: state = .string  // ] P X ^ _
        default:
            ready.append(.key(.escape))
            state = .ground
            feed(character: c)
        }
    }

    /// What a character that is neither a parameter nor a final byte does inside a sequence:
    /// ESC or an 8-bit introducer starts the next one, CAN and SUB (and a stray ST) cancel
    /// it. Returns false for anything else (another control, a character beyond ASCII): the
    /// sequence is malformed and skipped to its final byte with that character (a CR inside a
    /// report is not Enter).
    private mutating func interrupt(_ c: UInt32) -> Bool {
        switch c {
        case 0x1B, 0x9B, 0x90, 0x98, 0x9D, 0x9E, 0x9F:
            state = .ground
            sequence = []
            _ = startsSequence(c)
        case 0x18, 0x1A, 0x9C:
            state = .ground
            sequence = []
        default: return false
        }
        return true
    }

    private mutating func continueSequence(_ c: UInt32) {
        switch c {
        case 0x20...0x3F:
            sequence.append(UInt8(c))
            if sequence.count > Self.sequenceLimit {
                state = .skip
                sequence = []
            }
        case 0x40...0x7E:
            state = .ground
            finishSequence(final: UInt8(c))
            sequence = []
        default:
            if !interrupt(c) {
                state = .skip
                sequence = []
            }
        }
    }

    private mutating func skipSequence(_ c: UInt32) {
        switch c {
        case 0x20...0x3F: return
        case 0x40...0x7E: state = .ground
        default: _ = interrupt(c)  // another control or a character beyond ASCII stays skipped
        }
    }

    private mutating func finishSequence(final: UInt8) {
        if sequence == Array("200".utf8) && final == UInt8(ascii: "~") {
            state = .paste
            pasted = String.UnicodeScalarView()
            pastedCount = 0
            endMatched = 0
            return
        }
        if sequence.isEmpty && (final == UInt8(ascii: "I") || final == UInt8(ascii: "O")) {
            ready.append(.focus(final == UInt8(ascii: "I")))
            return
        }
        if sequence.isEmpty && final == UInt8(ascii: "M") {
            state = .x10(remaining: 3)
            return
        }
        guard sequence.first == UInt8(ascii: "<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else {
            return  // another sequence ncurses did not know (or a stray paste end): dropped
        }
        let fields = sequence.dropFirst().split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard fields.count == 3 else { return }
        var numbers: [Int] = []
        for field in fields {
            // At most 5 digits: no screen has 100,000 columns, and no sum can overflow.
            guard !field.isEmpty, field.count <= 5, field.allSatisfy({ (0x30...0x39).contains($0) }) else { return }
            numbers.append(field.reduce(0) { $0 * 10 + Int($1 - 0x30) })
        }
        let finalCharacter: Character = final == UInt8(ascii: "M") ? "M" : "m"
        if let event = MouseEvent(sgrCode: numbers[0], column: numbers[1], row: numbers[2], final: finalCharacter) {
            ready.append(.mouse(event))
        }
    }

    private static let pasteEnd: [UInt32] = [0x1B] + "[201~".unicodeScalars.map(\.value)

    /// The paste's characters are kept as they came, escape sequences included, up to the end
    /// marker: `UntrustedText` then removes each sequence whole (an OSC's body with it), as it
    /// does for server text.
    private mutating func continuePaste(_ c: UInt32) {
        if c == Self.pasteEnd[endMatched] {
            endMatched += 1
            if endMatched == Self.pasteEnd.count { finishPaste() }
            return
        }
        // What looked like the start of the end marker was text after all.
        for held in Self.pasteEnd.prefix(endMatched) { appendPasted(held) }
        endMatched = 0
        if c == Self.pasteEnd[0] {
            endMatched = 1
        } else {
            appendPasted(c)
        }
    }

    private mutating func appendPasted(_ c: UInt32) {
        guard pastedCount < Self.pasteLimit, let scalar = Unicode.Scalar(c) else { return }
        pasted.append(scalar)
        pastedCount += 1
    }

    private mutating func finishPaste() {
        // A paste is text for a one-line field: its newlines go too.
        let text = UntrustedText.clean(String(pasted)).filter { $0 != "\n" }
        ready.append(.paste(text))
        pasted = String.UnicodeScalarView()
        pastedCount = 0
        endMatched = 0
        state = .ground
    }
}
