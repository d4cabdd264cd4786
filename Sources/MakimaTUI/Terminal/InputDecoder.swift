import CNcursesShim
import MakimaKit

/// What the terminal delivered: a key, a new size, a mouse report, or a bracketed paste.
public enum TerminalInput: Equatable, Sendable {
    case key(Key)
    case resize
    case mouse(MouseEvent)
    /// Text the terminal marked as pasted (`ESC [ 200 ~ … ESC [ 201 ~`), controls, newlines and
    /// bidi marks removed, at most `InputDecoder.pasteLimit` characters.
    case paste(String)
}

/// Turns what `wget_wch` returns into `TerminalInput`s. ncurses decodes the keys its terminfo
/// entry names (arrows, function keys, UTF-8); it hands the sequences it does not know over
/// one character at a time (`ESC`, `[`, `<`, …), and those are recognised here: SGR mouse
/// reports (`ESC [ < b ; x ; y M|m`) and bracketed paste. ncurses has no parser for either
/// that it uses without its own mouse driver (which wants `kmous` in the entry and reports
/// no releases in SGR form on older versions), so this small state machine is written here.
///
/// Everything here is untrusted: a report out of range, a malformed or truncated sequence,
/// or a flood is dropped, never a crash, and nothing it holds grows without bound (a sequence
/// is given up after `sequenceLimit` characters, a paste keeps `pasteLimit` characters). A
/// sequence or a paste that stops arriving is ended after `sequenceTimeout` / `pasteTimeout`
/// (`expire(now:)`; the event loop wakes at `deadline`). Any other CSI sequence ncurses did not
/// know (a key the entry lacks) is dropped whole instead of being typed as `[1;5A`.
@_spi(Fuzzing) public struct InputDecoder {
    /// Characters kept of one paste; the rest of it is dropped.
    public static let pasteLimit = 65_536
    /// Characters of one control sequence before it is given up (and the rest of it skipped).
    public static let sequenceLimit = 32
    /// Seconds a started control sequence may wait for its next character.
    public static let sequenceTimeout = 0.5
    /// Seconds a paste may wait for its next character before it is ended without its marker.
    public static let pasteTimeout = 2.0

    private enum State: Equatable {
        case ground
        /// After ESC: `[` starts a control sequence; anything else makes ESC the Escape key.
        case escape
        /// Inside `ESC [`: parameters and intermediates so far.
        case csi
        /// A sequence too long or malformed: skipped to its final character.
        case skip
        /// Inside a paste; `marker` holds what followed an ESC there (`[201~` ends it).
        case paste
        /// After `ESC [ M`, a terminal without SGR reporting: its three raw bytes are skipped.
        case x10(remaining: Int)
    }

    private var state = State.ground
    private var sequence: [UInt8] = []
    private var pasted = String.UnicodeScalarView()
    private var pastedCount = 0
    private var marker: [UInt8]?
    private var lastInputAt = -Double.infinity
    private var ready: [TerminalInput] = []

    public init() {}

    /// The next decoded input, oldest first.
    public mutating func next() -> TerminalInput? { ready.isEmpty ? nil : ready.removeFirst() }

    /// When a started sequence or paste should be given up if nothing more arrives.
    public var deadline: Double? {
        switch state {
        case .ground, .escape: return nil
        case .csi, .skip, .x10: return lastInputAt + Self.sequenceTimeout
        case .paste: return lastInputAt + Self.pasteTimeout
        }
    }

    /// Ends a sequence or paste whose time is up: a paste is delivered as it is, a sequence
    /// dropped.
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
        expire(now: now)
        lastInputAt = now
        if status == KEY_CODE_YES {
            feedKeyCode(code)
        } else {
            feed(character: code)
        }
    }

    /// A key code ncurses decoded (an arrow, a function key), as `feed(status: KEY_CODE_YES, …)`.
    public mutating func feed(keyCode code: UInt32, now: Double) {
        feed(status: KEY_CODE_YES, code: code, now: now)
    }

    /// A character, as a terminal would send it (the fuzz target and tests feed bytes this way).
    public mutating func feed(character code: UInt32, now: Double) {
        expire(now: now)
        lastInputAt = now
        feed(character: code)
    }

    private mutating func feedKeyCode(_ code: UInt32) {
        // A new size is not input: it is never lost inside a paste or a sequence.
        if Int32(code) == KEY_RESIZE { return ready.append(.resize) }
        switch state {
        case .paste: return  // a paste is text: a key ncurses found inside it is dropped
        case .escape: ready.append(.key(.escape))
        case .csi, .skip, .x10: break  // the sequence is cut short: dropped
        case .ground: break
        }
        state = .ground
        sequence = []
        if let input = KeyDecoder.decode(status: KEY_CODE_YES, code: code) { ready.append(input) }
    }

    private mutating func feed(character c: UInt32) {
        switch state {
        case .ground:
            if c == 0x1B {
                state = .escape
            } else if let input = KeyDecoder.decode(status: OK, code: c) {
                ready.append(input)
            }
        case .escape:
            if c == UInt32(UInt8(ascii: "[")) {
                state = .csi
                sequence = []
            } else {
                ready.append(.key(.escape))
                state = .ground
                feed(character: c)
            }
        case .csi:
            continueSequence(c)
        case .skip:
            if (0x20...0x3F).contains(c) { return }
            state = .ground
            if !(0x40...0x7E).contains(c) { feed(character: c) }
        case .paste:
            continuePaste(c)
        case .x10(let remaining):
            state = remaining > 1 ? .x10(remaining: remaining - 1) : .ground
        }
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
            // Not part of a control sequence (a control, ESC, a letter beyond ASCII): the
            // sequence so far is dropped and the character is read afresh.
            state = .ground
            sequence = []
            feed(character: c)
        }
    }

    private mutating func finishSequence(final: UInt8) {
        if sequence == Array("200".utf8) && final == UInt8(ascii: "~") {
            state = .paste
            pasted = String.UnicodeScalarView()
            pastedCount = 0
            marker = nil
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

    private static let pasteEnd = Array("[201~".utf8)

    private mutating func continuePaste(_ c: UInt32) {
        if var m = marker {
            if m.count < Self.pasteEnd.count, c == UInt32(Self.pasteEnd[m.count]) {
                m.append(UInt8(c))
                marker = m
                if m == Self.pasteEnd { finishPaste() }
                return
            }
            // ESC and what followed it were not the end marker: the ESC is dropped (a
            // control), the rest is text.
            marker = nil
            for b in m { appendPasted(UInt32(b)) }
        }
        if c == 0x1B {
            marker = []
        } else {
            appendPasted(c)
        }
    }

    private mutating func appendPasted(_ c: UInt32) {
        // Controls and newlines are removed: a paste is text for a one-line field.
        guard c >= 0x20, !(0x7F...0x9F).contains(c), c != 0x2028, c != 0x2029,
            let scalar = Unicode.Scalar(c), pastedCount < Self.pasteLimit
        else { return }
        pasted.append(scalar)
        pastedCount += 1
    }

    private mutating func finishPaste() {
        // The rest of what a terminal could act on (bidi overrides, the BOM) goes as it does
        // from server text.
        ready.append(.paste(UntrustedText.clean(String(pasted))))
        pasted = String.UnicodeScalarView()
        pastedCount = 0
        marker = nil
        state = .ground
    }
}
