import MakimaKit

/// A theme file that cannot be used, with where and why. Printed as
/// `path:line: key: message` so an editor can jump to it. Key, message and path quote the
/// file and its name, which may hold escape sequences: they are cleaned here, once, so the
/// printed error can never act on the terminal.
public struct ThemeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number. For a role that is missing entirely, the line after the last one.
    public var line: Int
    /// The key the problem is about, as written (or the role name when it is missing).
    /// Nil only when the line has no recognisable key at all.
    public var key: String?
    public var message: String
    /// The file, when known.
    public var path: String?

    public init(line: Int, key: String?, message: String, path: String? = nil) {
        self.line = line
        self.key = key.map(Self.printable)
        self.message = Self.printable(message)
        self.path = path.map(Self.printable)
    }

    /// One line of text without controls (a newline in a file name becomes a space).
    static func printable(_ text: String) -> String {
        UntrustedText.clean(text).replacingOccurrences(of: "\n", with: " ")
    }

    public var description: String {
        let place = "\(path ?? "<theme>"):\(line)"
        guard let key else { return "\(place): \(message)" }
        return "\(place): \(key): \(message)"
    }
}
