import Foundation

/// An API key. Its description is always masked (`mk_…abcd`), so printing, logging or
/// interpolating one by accident never shows the secret; `secret` is read only where the
/// key is sent or stored.
public struct APIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public let secret: String

    /// Accepts a key with the `mk_` prefix and only URL-safe characters (it goes into an HTTP
    /// header: CR, LF or spaces would be header injection). Surrounding whitespace is trimmed.
    public init?(_ raw: String) {
        let s = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard APIKey.validationError(s) == nil else { return nil }
        secret = s
    }

    /// Why a pasted key is not acceptable, for inline feedback in onboarding; nil when it is.
    public static func validationError(_ raw: String) -> String? {
        let s = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if s.isEmpty { return "key is empty" }
        if !s.hasPrefix("mk_") { return "key must start with mk_" }
        if s.count < 8 { return "key is too short" }
        if s.count > 512 { return "key is too long" }
        let allowed = s.unicodeScalars.allSatisfy { v in
            (v >= "a" && v <= "z") || (v >= "A" && v <= "Z") || (v >= "0" && v <= "9") || v == "_" || v == "-"
                || v == "."
        }
        return allowed ? nil : "key holds characters that are not allowed (letters, digits, _ - . only)"
    }

    public var masked: String { "mk_…" + String(secret.suffix(4)) }
    public var description: String { masked }
    public var debugDescription: String { "APIKey(\(masked))" }
    public var customMirror: Mirror { Mirror(self, children: ["masked": masked]) }
}
