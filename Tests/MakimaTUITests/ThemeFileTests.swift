import Foundation
import Testing

@testable import MakimaTUI

/// The repository's `Themes/` directory, found from this source file.
let repositoryThemesDirectory: String = {
    let here = URL(fileURLWithPath: #filePath)
    return here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Themes").path
}()

@Suite struct ThemeFileTests {
    /// A complete, valid theme body (makima values) whose lines tests can replace.
    static let validLines = ThemeFile.format(.makima).split(separator: "\n").map(String.init)

    static func parseError(_ text: String) -> ThemeError? {
        do {
            _ = try ThemeFile.parse(text, fallbackName: "t", path: "t.theme")
            return nil
        } catch {
            return error
        }
    }

    /// `validLines` with the line setting `key` replaced by `replacement`; returns the text and
    /// the 1-based line number of the replacement.
    static func replacing(_ key: String, with replacement: String) -> (String, Int) {
        var lines = validLines
        let index = lines.firstIndex { $0.hasPrefix(key + " ") }!
        lines[index] = replacement
        return (lines.joined(separator: "\n"), index + 1)
    }

    @Test(arguments: [("makima", Theme.makima), ("high-contrast", Theme.highContrast), ("light", Theme.light)])
    func shippedFilesParseToTheBuiltIns(_ name: String, _ builtIn: Theme) throws {
        let theme = try ThemeLoader.loadFile(atPath: repositoryThemesDirectory + "/\(name).theme")
        #expect(theme.name == name)
        for role in ColorRole.allCases {
            #expect(theme.declaredColor(role) == builtIn.declaredColor(role), "\(name) \(role)")
            #expect(theme[role] == builtIn[role], "\(name) \(role)")
        }
    }

    @Test func shippedThemesDiffer() throws {
        let themes = try ["makima", "high-contrast", "light"].map {
            try ThemeLoader.loadFile(atPath: repositoryThemesDirectory + "/\($0).theme")
        }
        for i in themes.indices {
            for j in themes.indices where i < j {
                let differing = ColorRole.allCases.filter { themes[i][$0] != themes[j][$0] }
                #expect(differing.count >= 10, "\(themes[i].name) vs \(themes[j].name)")
            }
        }
    }

    @Test func formatRoundTrips() throws {
        for theme in Theme.builtIn {
            let parsed = try ThemeFile.parse(ThemeFile.format(theme), fallbackName: "x")
            #expect(parsed == theme)
        }
    }

    /// Alphas Swift prints in exponent form (`1e-05`) are written as plain decimals, which the
    /// parser reads back to the same value.
    @Test(arguments: [
        0.00001, 0.000_012_345_678_901_234_5, Double.leastNonzeroMagnitude, 0.123_456_789_012_345_67, 0.0001,
    ])
    func formatRoundTripsAnyAlpha(_ alpha: Double) throws {
        let theme = Theme(name: "t") { role in
            role == .foregroundMuted ? ThemeColor(hex: 0x9bc3ff, alpha: alpha) : Theme.makima.declaredColor(role)
        }
        let written = ThemeFile.format(theme)
        #expect(!written.contains("e-"))
        #expect(try ThemeFile.parse(written, fallbackName: "x") == theme)
    }

    @Test func acceptsCommentsCaseAndSeparatorsInKeysAlphaForms() throws {
        var text = Self.validLines.joined(separator: "\n")
        text = text.replacingOccurrences(
            of: "foregroundMuted = #9bc3ff @ 0.65", with: "Foreground-Muted=#9BC3FF@65%   ; muted")
        text = text.replacingOccurrences(
            of: "borderMuted     = #75aafc @ 0.35", with: "border_muted = rgba( 117 , 170 , 252 , .35 )")
        text = "\u{FEFF}; header\n\n   ; indented comment\n" + text.replacingOccurrences(of: "name = makima", with: "")
        let theme = try ThemeFile.parse(text, fallbackName: "from-file-name")
        #expect(theme.name == "from-file-name")
        #expect(theme[.foregroundMuted] == RGB(hex: 0x6987B4))
        #expect(theme[.borderMuted] == RGB(hex: 0x314A73))
    }

    @Test(arguments: [
        ("accent", "colour = #9bc3ff", "colour", "unknown key"),
        ("accent", "accent = #9bc3fg", "accent", "bad hex colour"),
        ("accent", "accent = #9bc3f", "accent", "bad hex colour"),
        ("accent", "accent = 9bc3ff", "accent", "expected a colour"),
        ("accent", "accent #9bc3ff", "accent", "no `=`"),
        ("accent", "accent =", "accent", "missing value"),
        ("accent", "accent = #9bc3ff @ 1.2", "accent", "out of range"),
        ("accent", "accent = #9bc3ff @ -0.1", "accent", "not a number"),
        ("accent", "accent = #9bc3ff @ 120%", "accent", "out of range"),
        ("accent", "accent = #9bc3ff @ lots", "accent", "not a number"),
        ("accent", "accent = rgba(1, 2, 3, 2)", "accent", "out of range"),
        ("accent", "accent = rgb(1, 2, 300)", "accent", "0–255"),
        ("accent", "accent = rgb(1, 2)", "accent", "takes 3 numbers"),
        ("background", "background = #0c1729 @ 0.5", "background", "must be opaque"),
        ("bodySoft", "body = #ffffff", "body", "duplicate key"),
        ("name", "name = evil\u{1B}[31m", "name", "name may hold only"),
    ])
    func badLinesNameTheKeyAndLine(_ replacedKey: String, _ line: String, _ key: String, _ message: String) throws {
        let (text, lineNumber) = Self.replacing(replacedKey, with: line)
        let error = try #require(Self.parseError(text))
        #expect(error.line == lineNumber)
        #expect(error.key == key)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.description.hasPrefix("t.theme:\(lineNumber): \(key): "))
    }

    /// A theme file is shared like any download: the error quoting its key, value or name is
    /// printed to the terminal and must not carry its escape sequences along.
    @Test(arguments: [
        "\u{1B}]0;owned\u{07} = #ffffff", "\u{1B}[2J\u{9B}0m", "background = \u{1B}[31m#zz",
        "foreground = rgb(\u{1B}[5m, 1, 2)",
    ])
    func errorsQuoteTheFileWithoutControls(_ line: String) {
        var shown = ""
        do {
            _ = try ThemeFile.parse(line, fallbackName: "t", path: "evil\u{1B}]0;x\u{07}\n.theme")
        } catch {
            shown = error.description
        }
        #expect(shown.hasPrefix("evil"))
        #expect(
            !shown.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
            "\(shown.debugDescription)")
    }

    @Test func windowsLineEndingsCountLinesTheSame() throws {
        let crlf = Self.validLines.joined(separator: "\r\n")
        #expect(try ThemeFile.parse(crlf, fallbackName: "x") == Theme.makima)
        let (text, lineNumber) = Self.replacing("ok", with: "ok = #12")
        let error = try #require(Self.parseError(text.replacingOccurrences(of: "\n", with: "\r\n")))
        #expect(error.line == lineNumber && error.key == "ok")
    }

    @Test func missingRoleIsNamedAtTheEndOfTheFile() throws {
        let lines = Self.validLines.filter { !$0.hasPrefix("ok ") }
        let error = try #require(Self.parseError(lines.joined(separator: "\n")))
        #expect(error.key == "ok")
        #expect(error.line == lines.count + 1)
        #expect(error.message.contains("missing role"))
    }

    @Test func emptyFileIsMissingTheFirstRole() throws {
        let error = try #require(Self.parseError(""))
        #expect(error.key == "background")
        #expect(error.line == 2)
    }
}
