import MakimaKit
import Testing

/// Hostile strings a daemon or server could send. Each is cleaned as it would be on arrival and
/// must come out with no ESC, no C0 control but newline, no DEL, no C1 control and no bidi
/// control, while the visible text around the attack survives and the attack's payload does not.
@Suite("Sanitiser corpus")
struct SanitizerCorpusTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var input: String
        /// Visible text that must still be there after cleaning.
        var survives: [String]
        /// Payload text that must be gone (titles, clipboard data, link targets, …).
        var gone: [String] = []
        var testDescription: String { name }
    }

    static let e = "\u{1B}"
    // CSI
    static let group0: [Case] = [
        Case(name: "CSI SGR colour", input: "\(e)[31mred\(e)[0m text", survives: ["red text"]),
        Case(name: "CSI clear screen and home", input: "\(e)[2J\(e)[Hafter clear", survives: ["after clear"]),
        Case(name: "CSI alternate screen", input: "\(e)[?1049hinside\(e)[?1049l", survives: ["inside"]),
        Case(name: "CSI cursor style with intermediate", input: "a\(e)[1 qb", survives: ["ab"]),
        Case(name: "CSI cursor up to overwrite lines", input: "line1\n\(e)[1A\(e)[2Kfake", survives: ["line1\nfake"]),
        Case(name: "CSI device status report (answerback)", input: "x\(e)[6ny", survives: ["xy"]),
        Case(name: "CSI window manipulation (title report)", input: "p\(e)[21tq", survives: ["pq"]),
        Case(name: "CSI with 10 000 parameters", input: "\(e)[" + manyParameters + "mtail", survives: ["tail"]),
        Case(name: "CSI with a control inside", input: "\(e)[3\u{08}1mz", survives: ["z"]),
    ]
    // OSC
    static let group1: [Case] = [
        Case(
            name: "OSC 0 title ended by BEL", input: "\(e)]0;pwned title\u{07}text", survives: ["text"], gone: ["pwned"]
        ),
        Case(
            name: "OSC 2 title ended by ST", input: "\(e)]2;pwned title\(e)\\text", survives: ["text"], gone: ["pwned"]),
        Case(
            name: "OSC 52 clipboard write", input: "copy\(e)]52;c;Y3VybCBldmlsIHwgc2g=\u{07}me", survives: ["copyme"],
            gone: ["Y3Vy"]),
        Case(name: "OSC 52 clipboard query", input: "q\(e)]52;c;?\(e)\\r", survives: ["qr"]),
        Case(
            name: "OSC 8 hyperlink", input: "\(e)]8;;https://evil.example/\(e)\\click here\(e)]8;;\(e)\\",
            survives: ["click here"], gone: ["evil.example"]),
        Case(name: "OSC 4 palette change", input: "\(e)]4;1;rgb:ff/00/00\u{07}col", survives: ["col"], gone: ["rgb:"]),
        Case(
            name: "OSC 1337 iTerm file", input: "\(e)]1337;File=inline=1:AAAA\u{07}img", survives: ["img"],
            gone: ["File="]),
    ]
    // DCS, APC, PM, SOS
    static let group2: [Case] = [
        Case(name: "DCS request status", input: "\(e)P$qm\(e)\\ok", survives: ["ok"], gone: ["$qm"]),
        Case(
            name: "DCS tmux passthrough with nested OSC 52",
            input: "\(e)Ptmux;\(e)\(e)]52;c;ZXZpbA==\u{07}\(e)\\visible", survives: ["visible"],
            gone: ["ZXZpbA", "tmux;"]),
        Case(name: "DCS sixel image", input: "\(e)Pq#0;2;0;0;0#0~~@@vv\(e)\\pic", survives: ["pic"], gone: ["~~@@"]),
        Case(name: "APC kitty graphics", input: "\(e)_Gf=100,a=T;AAAA\(e)\\img", survives: ["img"], gone: ["f=100"]),
        Case(name: "PM privacy message", input: "\(e)^secret\(e)\\x", survives: ["x"], gone: ["secret"]),
        Case(name: "SOS string", input: "\(e)Xsos body\(e)\\y", survives: ["y"], gone: ["sos body"]),
    ]
    // 8-bit C1 forms (as Unicode scalars U+0080–U+009F)
    static let group3: [Case] = [
        Case(name: "8-bit CSI", input: "\u{9B}31mred8", survives: ["red8"]),
        Case(
            name: "8-bit OSC ended by 8-bit ST", input: "\u{9D}0;title8\u{9C}after8", survives: ["after8"],
            gone: ["title8"]),
        Case(name: "8-bit DCS", input: "\u{90}q#0~~\u{9C}s8", survives: ["s8"], gone: ["#0~~"]),
        Case(
            name: "8-bit APC, PM and SOS", input: "a\u{9F}apc\u{9C}b\u{9E}pm\u{9C}c\u{98}sos\u{9C}d",
            survives: ["abcd"], gone: ["apc", "pm", "sos"]),
        Case(
            name: "other C1 controls (IND, NEL, RI, SS2)", input: "n\u{84}e\u{85}x\u{8D}t\u{8E}!", survives: ["next!"]),
    ]
    // C0 and friends
    static let group4: [Case] = [
        Case(name: "every C0 control", input: "c0:" + allC0 + ":end", survives: ["c0::end"]),
        Case(name: "BEL", input: "ding\u{07}dong", survives: ["dingdong"]),
        Case(name: "backspace overwrite", input: "safe\u{08}\u{08}\u{08}\u{08}evil", survives: ["safeevil"]),
        Case(
            name: "carriage return overwrite", input: "rm -rf ~/work\rls -la      ",
            survives: ["rm -rf ~/work", "ls -la"]),
        Case(name: "NUL bytes", input: "a\u{0}b\u{0}c", survives: ["abc"]),
        Case(name: "DEL", input: "de\u{7F}l", survives: ["del"]),
        Case(name: "vertical tab and form feed", input: "v\u{0B}t\u{0C}f", survives: ["vtf"]),
        Case(name: "shift out / shift in (charset switch)", input: "so\u{0E}box\u{0F}si", survives: ["soboxsi"]),
        Case(name: "tab becomes spaces", input: "a\tb", survives: ["a       b"]),
    ]
    // Two-byte and odd escapes
    static let group5: [Case] = [
        Case(name: "RIS full reset", input: "before\(e)cafter", survives: ["beforeafter"]),
        Case(name: "save and restore cursor", input: "1\(e)72\(e)83", survives: ["123"]),
        Case(name: "charset designation with intermediate", input: "g\(e)(0lqk\(e)(Bh", survives: ["glqkh"]),
        Case(name: "DEC screen alignment test", input: "al\(e)#8ign", survives: ["align"]),
        Case(name: "ESC followed by non-ASCII text", input: "\(e)契約 kept", survives: ["契約 kept"]),
        Case(name: "ESC followed by newline", input: "one\(e)\ntwo", survives: ["one\ntwo"]),
        Case(name: "CSI interrupted by non-ASCII text", input: "\(e)[31é ok", survives: ["é ok"]),
    ]
    // Nested and unterminated
    static let group6: [Case] = [
        Case(name: "nested ESC before CSI", input: "\(e)\(e)\(e)[31mX", survives: ["X"]),
        Case(name: "CSI restarted inside CSI", input: "\(e)[12\(e)[31mY", survives: ["Y"]),
        Case(name: "unterminated CSI at the end", input: "shown\(e)[31", survives: ["shown"]),
        Case(
            name: "unterminated OSC at the end", input: "shown2\(e)]0;title that never ends", survives: ["shown2"],
            gone: ["never ends"]),
        Case(name: "lone ESC at the end", input: "end\(e)", survives: ["end"]),
        Case(name: "ST without a string", input: "st\(e)\\ok", survives: ["stok"]),
    ]
    // Bidi
    static let group7: [Case] = [
        Case(name: "right-to-left override", input: "invoice\u{202E}fdp.exe", survives: ["invoicefdp.exe"]),
        Case(name: "bidi embeddings LRE RLE PDF", input: "a\u{202A}b\u{202B}c\u{202C}d", survives: ["abcd"]),
        Case(name: "bidi isolates LRI RLI FSI PDI", input: "i\u{2066}s\u{2067}o\u{2068}l\u{2069}", survives: ["isol"]),
        Case(name: "LRM RLM ALM marks", input: "m\u{200E}a\u{200F}r\u{061C}k", survives: ["mark"]),
        Case(name: "byte order mark", input: "\u{FEFF}bom", survives: ["bom"]),
    ]
    // Ordinary text that must not be harmed
    static let group8: [Case] = [
        Case(
            name: "combining marks and ZWJ emoji stay", input: "cafe\u{0301} 👩‍💻 契約テスト",
            survives: ["cafe\u{0301} 👩‍💻 契約テスト"]),
        Case(name: "escape symbol look-alike stays", input: "press ␛ then [31m", survives: ["press ␛ then [31m"]),
        Case(
            name: "100 KB line with attacks sprinkled in", input: longA + "\(e)]52;c;eA==\u{07}\(e)[2J" + longB,
            survives: [longA + longB], gone: ["eA=="]),
    ]
    static let manyParameters = String(repeating: "1;", count: 10_000)
    static let longA = String(repeating: "A", count: 50_000)
    static let longB = String(repeating: "B", count: 50_000)
    static let allC0: String = {
        var s = ""
        for b in UInt8(0)..<UInt8(32) where b != 10 && b != 9 && b != 27 { s.unicodeScalars.append(Unicode.Scalar(b)) }
        return s
    }()
    static let corpus: [Case] = [group0, group1, group2, group3, group4, group5, group6, group7, group8].flatMap { $0 }

    static let byteCorpus: [(name: String, bytes: [UInt8], survives: String)] = [
        ("invalid UTF-8 bytes", [0x66, 0x6F, 0x80, 0xFF, 0x6F], "fo"),
        ("raw 8-bit CSI byte", [0x9B, 0x33, 0x31, 0x6D, 0x78], "31mx"),
        ("overlong ESC", [0xC0, 0x9B, 0x5B, 0x32, 0x4A, 0x7A], "[2Jz"),
        ("UTF-16 surrogate encoded in UTF-8", [0x61, 0xED, 0xA0, 0x80, 0x62], "a"),
        ("truncated multibyte sequence", [0x61, 0xE5, 0xA5, 0x62], "a"),
        ("raw ESC byte", [0x1B, 0x5B, 0x32, 0x4A, 0x6B], "k"),
    ]

    /// True when `s` holds nothing a terminal would act on.
    static func isInert(_ s: String) -> Bool {
        s.unicodeScalars.allSatisfy { v in
            let x = v.value
            if x == 0x0A { return true }
            if x < 0x20 || x == 0x7F || (0x80...0x9F).contains(x) { return false }
            if (0x202A...0x202E).contains(x) || (0x2066...0x2069).contains(x) { return false }
            if x == 0x200E || x == 0x200F || x == 0x061C || x == 0xFEFF { return false }
            return true
        }
    }

    @Test("corpus is large enough") func corpusSize() {
        #expect(Self.corpus.count + Self.byteCorpus.count >= 40)
    }

    @Test("clean leaves nothing a terminal acts on, keeps the visible text", arguments: corpus)
    func clean(_ c: Case) {
        let out = UntrustedText.clean(c.input)
        #expect(Self.isInert(out), "\(c.name): \(out.unicodeScalars.map { String($0.value, radix: 16) })")
        for piece in c.survives { #expect(out.contains(piece), "\(c.name): lost \(piece.prefix(40))") }
        for payload in c.gone { #expect(!out.contains(payload), "\(c.name): kept \(payload)") }
    }

    @Test("cleanKeepingSGR keeps only normalised SGR, same text as clean", arguments: corpus)
    func keepingSGR(_ c: Case) {
        let out = UntrustedText.cleanKeepingSGR(c.input)
        let stripped = UntrustedText.stripSGR(out)
        #expect(Self.isInert(stripped), "\(c.name)")
        #expect(stripped == UntrustedText.clean(c.input), "\(c.name)")
        // Every ESC left starts `ESC [ digits/semicolons m`, but for one cut off by the end of
        // the text (kept for the next chunk to complete).
        var rest = Substring(out)
        while let i = rest.firstIndex(of: "\u{1B}") {
            let after = rest[rest.index(after: i)...]
            if after.isEmpty
                || (after.first == "[" && after.dropFirst().allSatisfy { $0.isASCII && ($0.isNumber || $0 == ";") })
            {
                break
            }
            #expect(after.first == "[", "\(c.name)")
            let body = after.dropFirst().prefix { $0 != "m" }
            #expect(body.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ";") }, "\(c.name): \(body.prefix(20))")
            #expect(after.dropFirst(body.count + 1).first == "m", "\(c.name)")
            rest = after.dropFirst(body.count + 2)
        }
    }

    @Test("bytes: invalid UTF-8 becomes U+FFFD, never a control", arguments: byteCorpus.map(\.name))
    func bytes(_ name: String) {
        let c = Self.byteCorpus.first { $0.name == name }!
        let out = UntrustedText.clean(bytes: c.bytes)
        #expect(Self.isInert(out), "\(name)")
        #expect(out.contains(c.survives), "\(name): \(out)")
        #expect(!out.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
    }

    @Test("SGR is kept in normal form for the renderer")
    func sgrKept() {
        #expect(UntrustedText.cleanKeepingSGR("\u{1B}[1;31mred\u{1B}[0m") == "\u{1B}[1;31mred\u{1B}[0m")
        #expect(UntrustedText.cleanKeepingSGR("\u{9B}32mgreen") == "\u{1B}[32mgreen")
        #expect(UntrustedText.cleanKeepingSGR("\u{1B}[?31mprivate") == "private")
        #expect(UntrustedText.cleanKeepingSGR("\u{1B}[31Hmoved") == "moved")
    }
}
