import Testing

@testable import MakimaTUI

@Suite struct ColorCapabilityTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var term: String?
        var colors: Int?
        var canChange = false
        var colorTerm: String?
        var noColor: String?
        var preference = ColorPreference.auto
        var expected: ColorCapability
        var bright = true
        var redefine = false

        var testDescription: String {
            "TERM=\(term ?? "-") COLORS=\(colors.map(String.init) ?? "?") ccc=\(canChange) "
                + "COLORTERM=\(colorTerm ?? "-") NO_COLOR=\(noColor ?? "-") --color=\(preference) → \(expected)"
        }
    }

    static let table: [Row] = [
        Row(term: "xterm-direct", colors: 1 << 24, expected: .direct),
        Row(term: "tmux-direct", colors: 1 << 24, colorTerm: "truecolor", expected: .direct),
        Row(term: "xterm-256color", colors: 256, canChange: true, expected: .palette256, redefine: true),
        Row(term: "tmux-256color", colors: 256, canChange: false, expected: .palette256),
        // COLORTERM cannot make ncurses emit RGB through a 256-colour terminfo.
        Row(
            term: "xterm-256color", colors: 256, canChange: true, colorTerm: "truecolor", expected: .palette256,
            redefine: true),
        Row(term: "xterm-256color", colors: 256, colorTerm: "24bit", expected: .palette256),
        Row(term: "xterm-88color", colors: 88, expected: .palette16),
        Row(term: "xterm", colors: 8, expected: .palette16, bright: false),
        Row(term: "linux", colors: 8, canChange: true, expected: .palette16, bright: false),
        Row(term: "xterm-16color", colors: 16, expected: .palette16),
        Row(term: "vt100", colors: -1, expected: .none, bright: false),
        Row(term: "dumb", colors: 0, expected: .none, bright: false),
        // NO_COLOR: any non-empty value disables colour; empty means unset.
        Row(term: "xterm-direct", colors: 1 << 24, noColor: "1", expected: .none, bright: false),
        Row(term: "xterm-256color", colors: 256, noColor: "", expected: .palette256),
        Row(term: "xterm-256color", colors: 256, noColor: "yes", preference: .always, expected: .palette256),
        Row(term: "xterm-256color", colors: 256, preference: .never, expected: .none, bright: false),
        Row(
            term: "xterm-direct", colors: 1 << 24, colorTerm: "truecolor", preference: .never, expected: .none,
            bright: false),
        // --color=always cannot invent colours terminfo does not have.
        Row(term: "dumb", colors: -1, preference: .always, expected: .none, bright: false),
        // COLORS unknown (before ncurses starts): from the TERM name.
        Row(term: "xterm-direct256", colors: nil, expected: .direct),
        Row(term: "screen-256color", colors: nil, expected: .palette256),
        Row(term: "xterm", colors: nil, expected: .palette16),
        Row(term: "rxvt-unicode", colors: nil, expected: .palette16),
        Row(term: "dumb", colors: nil, expected: .none, bright: false),
        Row(term: nil, colors: nil, expected: .none, bright: false),
        Row(term: "vt220", colors: nil, expected: .none, bright: false),
    ]

    @Test(arguments: table)
    func detects(_ row: Row) {
        let result = ColorDetection.detect(
            term: row.term, colors: row.colors, canChangeColor: row.canChange,
            colorTerm: row.colorTerm, noColor: row.noColor, preference: row.preference)
        #expect(result.capability == row.expected)
        #expect(result.hasBrightColors == row.bright)
        #expect(result.canRedefineColors == row.redefine)
    }

    @Test func truecolorOnA256ColourTerminfoExplainsItself() {
        let result = ColorDetection.detect(
            environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"],
            colors: 256, canChangeColor: false, preference: .auto)
        #expect(result.notes.contains { $0.contains("TERM=xterm-direct") })
        let tmux = ColorDetection.detect(
            environment: ["TERM": "tmux-256color", "COLORTERM": "truecolor"],
            colors: 256, canChangeColor: false, preference: .auto)
        #expect(tmux.notes.contains { $0.contains("TERM=tmux-direct") })
        let direct = ColorDetection.detect(
            environment: ["TERM": "xterm-direct", "COLORTERM": "truecolor"],
            colors: 1 << 24, canChangeColor: false, preference: .auto)
        #expect(direct.notes.isEmpty)
    }

    @Test func noColorIsReadFromTheEnvironment() {
        let result = ColorDetection.detect(
            environment: ["TERM": "xterm-256color", "NO_COLOR": "1"],
            colors: 256, canChangeColor: true, preference: .auto)
        #expect(result.capability == .none)
        #expect(result.notes == ["NO_COLOR is set"])
    }

    @Test func parsesTheColorOption() {
        #expect(ColorPreference(argument: "never") == .never)
        #expect(ColorPreference(argument: "ALWAYS") == .always)
        #expect(ColorPreference(argument: "auto") == .auto)
        #expect(ColorPreference(argument: "sometimes") == nil)
    }
}
