/// Parser for the `.theme` line format (documented in docs/themes.md):
///
///     ; comment (also after a value)
///     name = makima
///     background = #0c1729
///     foregroundMuted = #9bc3ff @ 0.65
///     borderMuted = rgba(117, 170, 252, 0.35)
///
/// Every role a theme declares (`ColorRole.themed`) is required: a theme that silently inherited
/// dark-theme colours would draw unreadable text on a light background, and the error for a
/// missing role is easy to act on. The profiles' marks are no key: they take the accent.
public enum ThemeFile {
    /// The comment character. `#` cannot be it: it starts every hex colour.
    public static let commentCharacter: Character = ";"

    /// Theme files are a few hundred bytes; anything far larger is not a theme.
    public static let maximumBytes = 64 * 1024

    /// Parses `text`. `fallbackName` is used when the file has no `name` key (the loader passes
    /// the file name without `.theme`). `path` only decorates errors.
    public static func parse(_ text: String, fallbackName: String, path: String? = nil) throws(ThemeError) -> Theme {
        var name: String?
        var colors: [ColorRole: ThemeColor] = [:]
        var seenOnLine: [String: Int] = [:]
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (offset, rawLine) in lines.enumerated() {
            let lineNumber = offset + 1
            do throws(LineError) {
                guard let (key, value) = try keyAndValue(rawLine, isFirstLine: lineNumber == 1) else { continue }
                let normalized = normalize(key)
                if let first = seenOnLine[normalized] {
                    throw LineError(key, "duplicate key (first set on line \(first))")
                }
                seenOnLine[normalized] = lineNumber
                if normalized == "name" {
                    name = try themeName(value, key: key)
                } else {
                    let (role, color) = try roleColor(value, key: key, normalized: normalized)
                    colors[role] = color
                }
            } catch {
                throw ThemeError(line: lineNumber, key: error.key, message: error.message, path: path)
            }
        }

        if let missing = ColorRole.themed.first(where: { colors[$0] == nil }) {
            throw ThemeError(
                line: lines.count + 1, key: missing.name,
                message: "missing role (every role must be set)", path: path)
        }
        // Every themed role is present (checked just above); a mark is the accent.
        return Theme(name: name ?? fallbackName) { colors[$0] ?? colors[.accent] ?? ThemeColor(hex: 0) }
    }

    /// What is wrong with one line (`parse` adds the line number and the path).
    private struct LineError: Error {
        let key: String?
        let message: String
        init(_ key: String?, _ message: String) {
            self.key = key
            self.message = message
        }
    }

    /// A line's key and value, both non-empty; nil for a blank or comment line.
    private static func keyAndValue(
        _ rawLine: Substring, isFirstLine: Bool
    ) throws(LineError) -> (String, Substring)? {
        var line = rawLine
        if isFirstLine, line.first == "\u{FEFF}" { line = line.dropFirst() }
        if let comment = line.firstIndex(of: commentCharacter) { line = line[..<comment] }
        let content = line.trimmingWhitespace()
        if content.isEmpty { return nil }
        guard let equals = content.firstIndex(of: "=") else {
            let word = content.prefix { !$0.isWhitespace }
            throw LineError(String(word.prefix(40)), "expected `key = value`, found no `=`")
        }
        let key = String(content[..<equals].trimmingWhitespace())
        let value = content[content.index(after: equals)...].trimmingWhitespace()
        guard !key.isEmpty else { throw LineError(nil, "missing key before `=`") }
        guard !value.isEmpty else { throw LineError(key, "missing value after `=`") }
        return (key, value)
    }

    private static func themeName(_ value: Substring, key: String) throws(LineError) -> String {
        guard value.allSatisfy({ $0.isLetter || $0.isNumber || "-_. ".contains($0) }) else {
            throw LineError(key, "name may hold only letters, digits, space, `-`, `_` and `.`")
        }
        return String(value)
    }

    private static func roleColor(
        _ value: Substring, key: String, normalized: String
    ) throws(LineError) -> (ColorRole, ThemeColor) {
        guard let role = roleByNormalizedName[normalized] else {
            throw LineError(key, "unknown key; expected `name` or a role: \(roleList)")
        }
        let color: ThemeColor
        do {
            color = try parseColor(value)
        } catch {
            throw LineError(key, error.reason)
        }
        if role == .background, color.alpha != 1 {
            throw LineError(key, "background must be opaque: translucent roles are blended against it")
        }
        return (role, color)
    }

    /// Writes `theme` in the file format, every themed role, translucent roles with their
    /// alpha. `parse(format(t))` gives back `t` (its marks, as every theme's, the accent).
    public static func format(_ theme: Theme) -> String {
        var lines = ["; Makima TUI theme. Format: docs/themes.md", "name = \(theme.name)"]
        let width = ColorRole.themed.map(\.name.count).max() ?? 0
        for role in ColorRole.themed {
            let declared = theme.declaredColor(role)
            let padded = role.name + String(repeating: " ", count: width - role.name.count)
            var value = declared.rgb.hex
            if declared.alpha != 1 { value += " @ \(formatAlpha(declared.alpha))" }
            lines.append("\(padded) = \(value)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Values

    struct ValueError: Error {
        let reason: String
    }

    /// `#rrggbb`, `#rrggbb @ 0.65`, `#rrggbb @ 65%`, `rgb(r, g, b)`, `rgba(r, g, b, a)`.
    static func parseColor(_ value: Substring) throws(ValueError) -> ThemeColor {
        let lower = value.lowercased()
        if lower.hasPrefix("rgb") { return try parseFunctional(Substring(lower)) }

        var colorPart = Substring(value)
        var alpha = 1.0
        if let at = value.firstIndex(of: "@") {
            colorPart = value[..<at].trimmingWhitespace()
            alpha = try parseAlpha(value[value.index(after: at)...].trimmingWhitespace())
        }
        guard colorPart.hasPrefix("#") else {
            throw ValueError(reason: "expected a colour `#rrggbb`, found `\(colorPart.prefix(40))`")
        }
        guard let rgb = RGB(hex: String(colorPart)) else {
            throw ValueError(reason: "bad hex colour `\(colorPart.prefix(40))`; expected `#rrggbb`")
        }
        return ThemeColor(rgb, alpha: alpha)
    }

    private static func parseFunctional(_ text: Substring) throws(ValueError) -> ThemeColor {
        let isRGBA = text.hasPrefix("rgba(")
        let open = isRGBA ? "rgba(" : "rgb("
        guard text.hasPrefix(open), text.hasSuffix(")") else {
            throw ValueError(reason: "expected `rgb(r, g, b)` or `rgba(r, g, b, a)`")
        }
        let inner = text.dropFirst(open.count).dropLast()
        let parts = inner.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        guard parts.count == (isRGBA ? 4 : 3) else {
            throw ValueError(reason: "\(open)…) takes \(isRGBA ? 4 : 3) numbers, found \(parts.count)")
        }
        var channels: [UInt8] = []
        for part in parts.prefix(3) {
            guard let channel = UInt8(part) else {
                throw ValueError(reason: "colour channel `\(part.prefix(20))` is not a whole number 0–255")
            }
            channels.append(channel)
        }
        let alpha = isRGBA ? try parseAlpha(parts[3]) : 1
        return ThemeColor(RGB(r: channels[0], g: channels[1], b: channels[2]), alpha: alpha)
    }

    /// `0.65`, `.65`, `1`, or `65%`; must lie in 0...1.
    private static func parseAlpha(_ text: Substring) throws(ValueError) -> Double {
        let isPercent = text.hasSuffix("%")
        let number = isPercent ? text.dropLast().trimmingWhitespace() : text
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let parsed = Double(number)
        else {
            throw ValueError(reason: "alpha `\(text.prefix(20))` is not a number (write 0.65 or 65%)")
        }
        let alpha = isPercent ? parsed / 100 : parsed
        guard (0...1).contains(alpha) else {
            throw ValueError(reason: "alpha \(text) is out of range; it must be between 0 and 1 (0% and 100%)")
        }
        return alpha
    }

    private static func formatAlpha(_ alpha: Double) -> String {
        let hundredths = (alpha * 100).rounded()
        // Exactly a number of hundredths (as `0.65` reads back), else every digit is needed.
        if hundredths / 100 == alpha {
            let whole = Int(hundredths)
            let fraction = whole % 100
            return "\(whole / 100)." + (fraction < 10 ? "0\(fraction)" : "\(fraction)")
        }
        return plainDecimal(alpha)
    }

    /// The shortest digits that read back as `value` (0...1), never in exponent form: Swift
    /// writes 0.00001 as `1e-05`, which `parseAlpha` (digits and a point only) refuses.
    private static func plainDecimal(_ value: Double) -> String {
        let text = "\(value)"
        guard let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }),
            let exponent = Int(text[text.index(after: e)...])
        else { return text }
        let mantissa = text[..<e]
        let digits = mantissa.filter { $0 != "." }
        let point =
            (mantissa.firstIndex(of: ".").map { mantissa.distance(from: mantissa.startIndex, to: $0) } ?? mantissa.count)
            + exponent
        // Alpha lies in 0...1, so only small values take the exponent form (point <= 0).
        guard point <= 0 else { return text }
        return "0." + String(repeating: "0", count: -point) + digits
    }

    // MARK: - Keys

    /// Keys match case-insensitively, ignoring `-` and `_`: `foreground-muted` is `foregroundMuted`.
    private static func normalize(_ key: String) -> String {
        String(key.lowercased().filter { $0 != "-" && $0 != "_" })
    }

    private static let roleByNormalizedName: [String: ColorRole] = Dictionary(
        uniqueKeysWithValues: ColorRole.themed.map { (normalize($0.name), $0) }
    )

    private static let roleList = ColorRole.themed.map(\.name).joined(separator: ", ")
}

extension StringProtocol {
    fileprivate func trimmingWhitespace() -> SubSequence {
        guard let start = firstIndex(where: { !$0.isWhitespace }),
            let end = lastIndex(where: { !$0.isWhitespace })
        else {
            return self[endIndex...]
        }
        return self[start...end]
    }
}
