/// Hides a secret (the API key) in text the server sent, before anything stores, cuts, wraps
/// or shows that text. A server can echo the key in an error message, a task title or an
/// output line; a hostile one can also split it with characters a terminal draws as nothing,
/// or send only part of it, so:
///
/// 1. the text is matched with every character that draws nothing skipped (`drawsNothing`:
///    default-ignorable code points, combining marks, spaces, line breaks, controls, blank
///    fillers, and the SGR colour codes kept in task output): a copy split by them is a copy;
/// 2. every run of text made of pieces of the secret at least `fragmentLength` long (or the
///    whole secret, if shorter) is replaced by the mask, the skipped characters inside it
///    included; a cut copy of the key is hidden too. Text around a copy is left as it was.
///
/// Callers mask first and truncate after (`APIError.serverMessage`).
public enum SecretMask {
    /// The shortest piece of a secret that counts as a copy of it. API keys are random: twelve
    /// characters of one do not turn up in ordinary text.
    public static let fragmentLength = 12

    public static func mask(_ text: String, secret: String, with replacement: String) -> String {
        Matcher(secret: secret).mask(text, with: replacement)
    }

    /// `text` with every copy of any of the secrets masked, in one pass: where copies of two
    /// secrets overlap (a key and the key it replaced can share a piece) the whole run is
    /// masked, with the replacement of the copy that starts it.
    public static func mask(_ text: String, with secrets: [(matcher: Matcher, replacement: String)]) -> String {
        let candidates = secrets.filter { $0.matcher.mayHold(text) }
        guard !candidates.isEmpty else { return text }
        let scalars = Array(text.unicodeScalars)
        let skipped = skippedPositions(scalars)
        var shown: [Int] = []
        shown.reserveCapacity(scalars.count)
        for i in scalars.indices where !skipped[i] { shown.append(i) }
        let values = shown.map { scalars[$0].value }
        // Covered original positions, as a difference array of the matched windows.
        var edges = [Int](repeating: 0, count: scalars.count + 1)
        var replacementAt: [Int: String] = [:]
        for (matcher, replacement) in candidates {
            for w in matcher.windows(in: values) {
                edges[shown[w.first]] += 1
                edges[shown[w.last] + 1] -= 1
                if replacementAt[shown[w.first]] == nil { replacementAt[shown[w.first]] = replacement }
            }
        }
        guard !replacementAt.isEmpty else { return text }
        var out = String.UnicodeScalarView()
        var depth = 0
        var inCopy = false
        for i in scalars.indices {
            depth += edges[i]
            if depth > 0 {
                if !inCopy { out.append(contentsOf: (replacementAt[i] ?? candidates[0].replacement).unicodeScalars) }
                inCopy = true
            } else if inCopy && attachesToPrevious(scalars[i]) {
                continue  // a mark or joiner on the copy's last character goes with it
            } else {
                out.append(scalars[i])
                inCopy = false
            }
        }
        return String(out)
    }

    /// The text as a terminal shows it, with every character that draws nothing removed (what
    /// the mask matches against).
    public static func removingInvisibles(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        let skipped = skippedPositions(scalars)
        guard skipped.contains(true) else { return text }
        var out = String.UnicodeScalarView()
        for (i, v) in scalars.enumerated() where !skipped[i] { out.append(v) }
        return String(out)
    }

    /// Characters a terminal draws as nothing (or as blank space), so they can sit between the
    /// pieces of a copy without showing: controls, spaces and line breaks, default-ignorable
    /// code points (zero-width characters, variation selectors, fillers, tags, U+180B,
    /// U+17B4), combining marks, format characters, and the braille blank U+2800.
    static func drawsNothing(_ v: Unicode.Scalar) -> Bool {
        let x = v.value
        if x < 0x20 || (0x7F...0x9F).contains(x) || x == 0x20 { return true }
        if x < 0x7F { return false }
        if x == 0x2800 { return true }
        let p = v.properties
        if p.isWhitespace || p.isDefaultIgnorableCodePoint { return true }
        switch p.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark, .format, .lineSeparator, .paragraphSeparator,
            .spaceSeparator, .control:
            return true
        default: return false
        }
    }

    /// A skipped character that belongs to the one before it (a combining mark, a joiner, a
    /// variation selector), unlike a space, a line break or a control.
    static func attachesToPrevious(_ v: Unicode.Scalar) -> Bool {
        v.value >= 0x7F && drawsNothing(v) && !v.properties.isWhitespace && v.properties.generalCategory != .control
    }

    /// Which scalars the match skips: those that draw nothing, and the normalised SGR codes
    /// (`ESC [ digits;… m`) cleaned task output keeps.
    static func skippedPositions(_ scalars: [Unicode.Scalar]) -> [Bool] {
        var skipped = [Bool](repeating: false, count: scalars.count)
        var inSGR = false
        for (i, v) in scalars.enumerated() {
            if inSGR {
                let x = v.value
                if (0x30...0x39).contains(x) || x == 0x3B || x == 0x5B {
                    skipped[i] = true
                    continue
                }
                inSGR = false
                if x == 0x6D {
                    skipped[i] = true
                    continue
                }
            }
            if v.value == 0x1B { inSGR = true }
            skipped[i] = drawsNothing(v)
        }
        return skipped
    }

    /// One secret, prepared once: its pieces for matching and the byte pairs it is made of
    /// for the pre-check.
    public struct Matcher: Sendable {
        let secret: [UInt32]
        let k: Int
        /// Hashes of every `k`-long piece of the secret.
        private let pieces: Set<UInt64>
        /// Bit `a << 7 | b` is set when ASCII byte `b` follows `a` somewhere in the secret.
        private let pairs: [UInt64]
        /// -1 for a byte that can stand inside a copy's span (one of the secret's characters,
        /// or one the match passes over: a space, a control, any non-ASCII byte, an SGR code's
        /// bytes), 0 for any other: a copy needs `k` such bytes in a row.
        private let spanBytes: [Int]
        private let asciiSecret: Bool

        public init(secret: String) {
            self.secret = secret.unicodeScalars.map(\.value)
            k = min(SecretMask.fragmentLength, self.secret.count)
            var pieces = Set<UInt64>()
            if k > 0 {
                for start in 0...(self.secret.count - k) {
                    pieces.insert(Self.hash(self.secret[start..<start + k]))
                }
            }
            self.pieces = pieces
            var pairs = [UInt64](repeating: 0, count: 128 * 128 / 64)
            asciiSecret = self.secret.allSatisfy { $0 < 0x80 }
            if asciiSecret && self.secret.count > 1 {
                for i in 1..<self.secret.count {
                    let bit = Int(self.secret[i - 1]) << 7 | Int(self.secret[i])
                    pairs[bit >> 6] |= 1 << UInt64(bit & 63)
                }
            }
            self.pairs = pairs
            let own = Set(self.secret)
            spanBytes = (0..<256).map { b in
                let passedOver =
                    b <= 0x20 || b >= 0x7F || (0x30...0x39).contains(b) || b == 0x3B || b == 0x5B || b == 0x6D
                return passedOver || own.contains(UInt32(b)) ? -1 : 0
            }
        }

        private static func hash(_ values: ArraySlice<UInt32>) -> UInt64 {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for v in values { h = (h ^ UInt64(v)) &* 0x100_0000_01b3 }
            return h
        }

        /// A scan of the UTF-8 bytes, one table look-up each: false when the text cannot hold
        /// `k` characters of the secret in a row with only skippable characters between them
        /// (every byte that may belong to a skipped character, non-ASCII ones included, is
        /// passed over without ending the run). Ordinary text ends a run within a character or
        /// two, so it never reaches the full match.
        public func mayHold(_ text: String) -> Bool {
            guard k > 0 else { return false }
            guard asciiSecret else { return true }
            var text = text
            // Through raw buffers: every byte of every piece of output passes this loop, and an
            // array subscript's bounds check per byte was most of its time.
            return text.withUTF8 { bytes in
                // Most text has no `k` bytes in a row that could belong to a copy: one add and
                // one mask a byte say so, before the scan that follows the secret's pairs.
                spanBytes.withUnsafeBufferPointer { Self.hasSpan(bytes, of: $0, k: k) }
                    && pairs.withUnsafeBufferPointer { Self.scan(bytes, pairs: $0, k: k) }
            }
        }

        /// Whether `bytes` holds `k` bytes in a row that `spanBytes` allows.
        private static func hasSpan(_ bytes: UnsafeBufferPointer<UInt8>, of spanBytes: UnsafeBufferPointer<Int>, k: Int)
            -> Bool
        {
            var run = 0
            for b in bytes {
                run = (run &+ 1) & spanBytes[Int(b)]
                if run >= k { return true }
            }
            return false
        }

        /// How the scan treats a byte: 0 a visible ASCII character, 1 one passed over (a space,
        /// a control, any byte of a non-ASCII character), 2 ESC (an SGR code may follow).
        private static let byteClass: [UInt8] = (0..<256).map { b in
            b == 0x1B ? 2 : (b <= 0x20 || b >= 0x7F) ? 1 : 0
        }

        /// The run of secret pairs is kept without branches: whether a byte is passed over and
        /// whether a pair is the secret's are as good as random in output text, and a
        /// mispredicted branch per byte was most of the scan's time.
        private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, pairs: UnsafeBufferPointer<UInt64>, k: Int)
            -> Bool
        {
            byteClass.withUnsafeBufferPointer { byteClass in
                var run = 0
                var previous = 0
                var hasPrevious = 0
                var i = 0
                while i < bytes.count {
                    let b = bytes[i]
                    i += 1
                    let cls = byteClass[Int(b)]
                    if cls == 2 {  // an SGR code's parameters and its `m` are passed over
                        while i < bytes.count, (0x30...0x39).contains(bytes[i]) || bytes[i] == 0x3B || bytes[i] == 0x5B
                        {
                            i += 1
                        }
                        if i < bytes.count, bytes[i] == 0x6D { i += 1 }
                        continue
                    }
                    let visible = cls == 0
                    let value = Int(b)
                    // Both below 128 when it counts; a passed-over byte's look-up is ignored.
                    let bit = (previous &<< 7 | value) & 0x3FFF
                    let hit = Int(truncatingIfNeeded: pairs[bit &>> 6] &>> UInt64(bit & 63)) & 1 & hasPrevious
                    // Selects (conditional moves), not multiplications: the run is a chain
                    // through every byte, and a multiply's latency on it was the scan's time.
                    let continued = hit == 0 ? 1 : run &+ 1
                    run = visible ? continued : run
                    previous = visible ? value : previous
                    hasPrevious = visible ? 1 : hasPrevious
                    if run >= k { return true }
                }
                return false
            }
        }

        /// `text` with every copy (or `k`-long piece) of the secret replaced by `replacement`.
        public func mask(_ text: String, with replacement: String) -> String {
            SecretMask.mask(text, with: [(self, replacement)])
        }

        /// Where the secret's pieces are in `values` (the shown scalars): each window's first
        /// and last index.
        func windows(in values: [UInt32]) -> [(first: Int, last: Int)] {
            guard k > 0, values.count >= k else { return [] }
            var found: [(first: Int, last: Int)] = []
            for start in 0...(values.count - k) where isPiece(values[start..<start + k]) {
                found.append((start, start + k - 1))
            }
            return found
        }

        /// True when `window` is a piece of the secret (hash first, then compared).
        private func isPiece(_ window: ArraySlice<UInt32>) -> Bool {
            guard pieces.contains(Self.hash(window)) else { return false }
            for start in 0...(secret.count - k) where secret[start..<start + k].elementsEqual(window) { return true }
            return false
        }
    }
}
