/// One fuzz target: a named check that takes arbitrary bytes and returns what invariant they
/// broke (nil when none did). A trap inside is a crash, found the same way.
///
/// The same checks run two ways (see `FuzzEntry`): under libFuzzer (`make fuzz`), and as a plain
/// replay of the committed corpora plus deterministic mutations of them (`make test`).
struct FuzzTarget: Sendable {
    let name: String
    let check: @Sendable ([UInt8]) -> String?
    /// Mutations the plain replay runs at most (slow targets run fewer, to keep `make test` short).
    var replayMutations = 2_000
}

enum FuzzTargets {
    /// Every target; its name is also its corpus folder, `Tests/Fuzz/Corpus/<name>`.
    /// A new parser of server or user bytes gets an entry here and a corpus folder.
    static let all: [FuzzTarget] = [
        FuzzTarget(name: "handshake", check: HandshakeFuzz.check),
        FuzzTarget(name: "events", check: EventDecodingFuzz.check),
        FuzzTarget(name: "models", check: ModelDecodingFuzz.check),
        FuzzTarget(name: "markdown", check: MarkdownFuzz.check, replayMutations: 300),
        FuzzTarget(name: "sanitizer", check: SanitizerFuzz.check),
        FuzzTarget(name: "theme", check: ThemeFuzz.check),
        FuzzTarget(name: "search", check: SearchFuzz.check, replayMutations: 500),
        FuzzTarget(name: "table", check: TableLayoutFuzz.check, replayMutations: 200),
        FuzzTarget(name: "input", check: InputFuzz.check, replayMutations: 300),
        FuzzTarget(name: "config", check: ConfigFuzz.check),
        FuzzTarget(name: "date", check: DateHeaderFuzz.check),
        FuzzTarget(name: "frames", check: FramesFuzz.check),
    ]

    static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// Checks shared by the targets.
enum Invariant {
    /// The first scalar a terminal could act on: C0 controls other than newline, DEL, C1
    /// controls, bidi overrides. With `keptSGR` (the form `UntrustedText.cleanKeepingSGR`
    /// gives task output) tabs are allowed (the renderer expands them), so is `ESC [ digits;… m`
    /// (the normal form of a colour), and, at the very end only, the unfinished start of one
    /// (`ESC` or `ESC [ digits;…`, which the next chunk of a stream may complete).
    static func firstControl(in text: String, keptSGR: Bool = false) -> String? {
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let v = scalars[i].value
            if v == 0x1B && keptSGR {
                var j = i + 1
                if j == scalars.count { return nil }
                if scalars[j] == "[" {
                    j += 1
                    while j < scalars.count, ("0"..."9").contains(scalars[j]) || scalars[j] == ";" { j += 1 }
                    if j == scalars.count { return nil }
                    if scalars[j] == "m" {
                        i = j + 1
                        continue
                    }
                }
            }
            let bidi =
                (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
                || v == 0x061C || v == 0xFEFF
            if (v < 0x20 && v != 0x0A && !(keptSGR && v == 0x09)) || (0x7F...0x9F).contains(v) || bidi {
                return "U+" + String(v, radix: 16, uppercase: true) + " at scalar \(i)"
            }
            i += 1
        }
        return nil
    }

    /// A short, printable excerpt of text for a violation message.
    static func excerpt(_ text: String) -> String {
        String(text.unicodeScalars.prefix(80).map { $0.escaped(asASCII: true) }.joined())
    }
}
