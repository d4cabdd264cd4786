import MakimaTUI

/// The `.theme` parser. Theme files are shared between people, so they are input like any
/// other. Invariants: parsing never traps; a theme that parses has a name of the allowed
/// characters and survives `parse(format(theme))` unchanged (the documented round trip); an
/// error's text, which is printed to the terminal, holds no control.
enum ThemeFuzz {
    static func check(_ bytes: [UInt8]) -> String? {
        let text = String(decoding: bytes.prefix(ThemeFile.maximumBytes), as: UTF8.self)
        let theme: Theme
        do {
            theme = try ThemeFile.parse(text, fallbackName: "fuzz", path: "fuzz.theme")
        } catch {
            let shown = error.description
            if let bad = Invariant.firstControl(in: shown) ?? (shown.contains("\n") ? "a newline" : nil) {
                return "error text holds \(bad): \(Invariant.excerpt(error.description))"
            }
            return nil
        }
        guard theme.name.allSatisfy({ $0.isLetter || $0.isNumber || "-_. ".contains($0) }) else {
            return "name with other characters: \(Invariant.excerpt(theme.name))"
        }
        let written = ThemeFile.format(theme)
        do {
            let again = try ThemeFile.parse(written, fallbackName: "other")
            if again != theme { return "parse(format(theme)) differs:\n\(Invariant.excerpt(written))" }
        } catch {
            return "format(theme) does not parse: \(error.description)"
        }
        return nil
    }
}
