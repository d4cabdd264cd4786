/// How onboarding shows and checks a key while it is pasted or typed. The secret itself is
/// never shown: only the `mk_` prefix and, once the key is long enough that four characters
/// say little about it, its last four.
extension APIKey {
    /// `mk_••••••••1234`.
    public var displayMasked: String { Self.displayMask(secret) }

    public static func displayMask(_ typed: String) -> String {
        let s = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        if s.isEmpty { return "" }
        if s.count <= 3 && "mk_".hasPrefix(s) { return s }
        let head = s.hasPrefix("mk_") ? "mk_" : ""
        let tail = s.count >= 16 ? String(s.suffix(4)) : ""
        return head + String(repeating: "•", count: 8) + tail
    }

    /// A problem visible while typing, or nil while the text can still become a valid key:
    /// the `mk_` prefix is checked from the first character, the character set and length at
    /// every one (a complete key is checked with `validationError`).
    public static func typingProblem(_ typed: String) -> String? {
        let s = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        if s.isEmpty { return nil }
        if !(s.hasPrefix("mk_") || "mk_".hasPrefix(s)) { return "key must start with mk_" }
        if s.count > 512 { return "key is too long" }
        if let reason = validationError(s), reason.contains("characters") { return reason }
        return nil
    }
}
