/// One editing step in a one-line text field (the command line, a list filter).
public enum TextEdit: Equatable, Sendable {
    case insert(Character)
    case deleteBackward
    case submit
    case cancel
    case complete
}

extension TextEdit {
    /// UTF-8 bytes one field holds (the command line, a filter, a search query): a key typed
    /// into a full field is dropped. A flood of keys then costs constant work each once the
    /// field is full, and no field (nor what is searched or drawn for it) grows without bound.
    public static let fieldLimit = 4_096

    /// Whether `text` can take `c` within `limit` bytes. Constant time: a native string knows
    /// its UTF-8 length (`count`, in characters, walks the whole text).
    static func fits(_ c: Character, in text: String, limit: Int = fieldLimit) -> Bool {
        text.utf8.count + c.utf8.count <= limit
    }
}
