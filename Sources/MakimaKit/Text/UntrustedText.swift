/// The one place server text is made safe for a terminal. Every string decoded from the server
/// passes through here on arrival (see TolerantDecoding), so nothing downstream holds raw bytes.
///
/// Removed: C0 controls except newline (tabs become spaces to the next multiple of 8, CR is
/// dropped), DEL, C1 controls, every ESC sequence (CSI, OSC, DCS, SOS, PM, APC, and two-byte
/// escapes, in 7-bit and 8-bit forms), bidi embedding/override/isolate marks and the BOM.
/// Invalid UTF-8 never reaches here as bytes: byte input is decoded with U+FFFD replacement.
public enum UntrustedText {
    ///
    /// Any copy of the API key in use (`ArrivalMask`) is masked in the cleaned text.
    public static func clean(_ raw: String) -> String { ArrivalMask.apply(sanitize(raw, keepSGR: false)) }

    /// As `clean`, but SGR colour sequences (`CSI params m`) are kept, rewritten to a normal form
    /// holding only digits and semicolons, so the renderer can map them onto the palette; tabs
    /// are kept for the renderer to expand, and an SGR sequence cut off by the end of the text
    /// is kept unfinished (`ESC [ digits`) so the next chunk of a stream can complete it.
    public static func cleanKeepingSGR(_ raw: String) -> String { ArrivalMask.apply(sanitize(raw, keepSGR: true)) }

    /// Decodes bytes from the network (invalid UTF-8 becomes U+FFFD) and cleans them.
    public static func clean(bytes: some Collection<UInt8>) -> String {
        clean(String(decoding: Array(bytes), as: UTF8.self))
    }

    /// Removes the normalised SGR sequences `cleanKeepingSGR` kept (for plain-text output).
    public static func stripSGR(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 0x1B || $0 == 0x09 }) else { return s }
        return sanitize(s, keepSGR: false)
    }

    static func isBidiControl(_ v: UInt32) -> Bool {
        (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C
            || v == 0xFEFF
    }

    /// True when `raw` holds nothing `sanitize` would change: a scan of its UTF-8 bytes, so
    /// plain text (the usual case: output is mostly printable text and newlines) comes back as
    /// it is, without building a new string scalar by scalar.
    ///
    /// What needs cleaning, in UTF-8: a C0 byte other than newline, and DEL; the C1 controls
    /// U+0080–U+009F (C2 80–C2 9F); the bidi marks and the BOM: U+061C (D8 9C), U+200E/F
    /// (E2 80 8E/8F), U+202A–E (E2 80 AA–AE), U+2066–9 (E2 81 A6–A9), U+FEFF (EF BB BF).
    /// Other characters starting with E2 (dashes, quotes, box drawing) stay on the fast path.
    static func isClean(_ raw: String) -> Bool {
        var raw = raw
        return raw.withUTF8 { bytes in
            let n = bytes.count
            var i = 0
            let base = UnsafeRawPointer(bytes.baseAddress)
            while i < n {
                // Eight bytes at a time while none is a control, DEL or non-ASCII (a word with
                // one of them, a newline included, goes byte by byte below).
                if let base, i + 8 <= n {
                    let w = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    if !ByteWord.hasNonASCII(w) && !ByteWord.hasByte(below: 0x20, in: w)
                        && !ByteWord.hasByte(0x7F, in: w)
                    {
                        i += 8
                        continue
                    }
                }
                let b = bytes[i]
                if b < 0x80 {
                    if b < 0x20 && b != 0x0A || b == 0x7F { return false }
                    i += 1
                    continue
                }
                let b1: UInt8 = i + 1 < n ? bytes[i + 1] : 0
                let b2: UInt8 = i + 2 < n ? bytes[i + 2] : 0
                switch b {
                case 0xC2: if b1 <= 0x9F { return false }
                case 0xD8: if b1 == 0x9C { return false }
                case 0xE2:
                    if b1 == 0x80 && (b2 == 0x8E || b2 == 0x8F || (0xAA...0xAE).contains(b2)) { return false }
                    if b1 == 0x81 && (0xA6...0xA9).contains(b2) { return false }
                case 0xEF: if b1 == 0xBB && b2 == 0xBF { return false }
                default: break
                }
                i += 1
            }
            return true
        }
    }

    /// Removes what `isClean` looks for, one scalar at a time (`Sanitizer`).
    private static func sanitize(_ raw: String, keepSGR: Bool) -> String {
        if isClean(raw) { return raw }
        var sanitizer = Sanitizer(keepSGR: keepSGR)
        for v in raw.unicodeScalars { sanitizer.take(v) }
        return sanitizer.finish()
    }
}

/// The escape-sequence state machine behind `UntrustedText`: each state's handling is a step
/// of its own, and text outside sequences goes through `plain`.
private struct Sanitizer {
    private enum State {
        case text
        case escape  // after ESC
        case escIntermediate  // ESC then 0x20-0x2F bytes, waiting for the final byte
        case csi  // collecting CSI parameters
        case string  // OSC/DCS/SOS/PM/APC body, until BEL or ST
        case stringEscape  // ESC inside a string body (maybe ST)
    }

    let keepSGR: Bool
    private var out = String.UnicodeScalarView()
    private var state = State.text
    private var params = String.UnicodeScalarView()
    private var csiValid = true
    /// The output column, for expanding tabs to the next multiple of 8.
    private var column = 0

    init(keepSGR: Bool) { self.keepSGR = keepSGR }

    mutating func take(_ v: Unicode.Scalar) {
        switch state {
        case .text: plain(v)
        case .escape: afterEscape(v)
        case .escIntermediate: intermediate(v)
        case .csi: csi(v)
        case .string:
            if v.value == 0x07 || v.value == 0x9C { state = .text } else if v.value == 0x1B { state = .stringEscape }
        case .stringEscape: state = (v.value == 0x5C) ? .text : .string
        }
    }

    /// A stream chunk can end inside an SGR sequence whose rest starts the next chunk: the
    /// unfinished part is kept (normal form, no final `m`) for the renderer to join or drop.
    mutating func finish() -> String {
        if keepSGR && state == .escape { out.append("\u{1B}") }
        if keepSGR && state == .csi && csiValid && params.count <= 64 {
            out.append("\u{1B}")
            out.append("[")
            out.append(contentsOf: params)
        }
        return String(out)
    }

    private mutating func emit(_ v: Unicode.Scalar) {
        out.append(v)
        column = (v == "\n") ? 0 : column + 1
    }

    private mutating func startCSI() {
        state = .csi
        params = .init()
        csiValid = true
    }

    /// A scalar in plain text (also one that cuts a sequence short, so the text after a cut
    /// sequence is not lost with it).
    private mutating func plain(_ v: Unicode.Scalar) {
        let x = v.value
        switch x {
        case 0x1B: state = .escape
        case 0x9B: startCSI()
        case 0x90, 0x98, 0x9D, 0x9E, 0x9F: state = .string
        case 0x0A: emit(v)
        case 0x09 where keepSGR:
            emit(v)  // the renderer expands tabs counting cells, which this layer cannot measure
        case 0x09:
            let spaces = 8 - (column % 8)
            for _ in 0..<spaces { emit(" ") }
        case 0..<0x20, 0x7F...0x9F: break
        default:
            if !UntrustedText.isBidiControl(x) { emit(v) }
        }
    }

    private mutating func afterEscape(_ v: Unicode.Scalar) {
        switch v.value {
        case 0x5B: startCSI()  // [
        case 0x5D, 0x50, 0x58, 0x5E, 0x5F: state = .string  // ] P X ^ _
        case 0x20...0x2F: state = .escIntermediate
        case 0x1B: state = .escape
        case 0x30...0x7E: state = .text  // two-byte escape: drop both
        default:
            state = .text
            plain(v)  // not an escape after all
        }
    }

    private mutating func intermediate(_ v: Unicode.Scalar) {
        if (0x30...0x7E).contains(v.value) {
            state = .text
        } else if !(0x20...0x2F).contains(v.value) {
            state = .text
            plain(v)
        }
    }

    private mutating func csi(_ v: Unicode.Scalar) {
        let x = v.value
        if (0x30...0x3F).contains(x) {
            if (0x30...0x39).contains(x) || x == 0x3B { params.append(v) } else { csiValid = false }
        } else if (0x20...0x2F).contains(x) {
            csiValid = false
        } else if (0x40...0x7E).contains(x) {
            if keepSGR && x == 0x6D && csiValid && params.count <= 64 {
                out.append("\u{1B}")
                out.append("[")
                out.append(contentsOf: params)
                out.append("m")
            }
            state = .text
        } else {
            // Anything else cuts the sequence short; nothing of it is kept, the scalar itself
            // is handled as text (a control is dropped there).
            state = .text
            plain(v)
        }
    }
}
