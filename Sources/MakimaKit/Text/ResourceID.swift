/// Ids from the server (tasks, contracts, directives, daemons, sessions, keys) are tokens: they
/// are printed on their own in `watch` lines, put into `makima://` links and URL paths, and
/// used as cache keys. Cleaning control sequences is not enough for that: a newline or a space
/// in an id lets a server forge a whole `watch` line (`t1\nmakima://task/fake  Task failed`).
/// So an id is checked once, where it is decoded, and one outside the safe set is refused.
public enum ResourceID {
    public static let maxLength = 128

    /// 1 to 128 ASCII letters, digits, `-`, `_`, `.` and `:` (UUIDs, prefixed ids, numbers),
    /// not made of dots alone (`.` and `..` mean something in a path).
    public static func isValid(_ id: String) -> Bool {
        let scalars = id.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maxLength else { return false }
        guard scalars.allSatisfy(isAllowed) else { return false }
        return !scalars.allSatisfy { $0 == "." }
    }

    private static func isAllowed(_ v: Unicode.Scalar) -> Bool {
        (v >= "a" && v <= "z") || (v >= "A" && v <= "Z") || (v >= "0" && v <= "9") || v == "-" || v == "_"
            || v == "." || v == ":"
    }
}
