import Synchronization

/// The API keys this process signs requests with, masked in every piece of server text as it
/// is cleaned on arrival (`UntrustedText.clean`, `cleanKeepingSGR`): a task title, an output
/// line or a status reason holding the key never reaches the stores, the cache, the screen or
/// a command's output. A key is added when a client is made for it (`APIClient.init`); the
/// last 64 are kept, so a rotated-away key stays masked too, and the key on screen stays
/// masked however often the background reads add theirs (at most
/// `BackgroundMeshReader.maxMeshes` of them).
public enum ArrivalMask {
    static let maxKeys = 64
    private struct Entry: Sendable {
        let matcher: SecretMask.Matcher
        let secret: String
        let masked: String
    }
    private static let entries = Mutex<[Entry]>([])

    public static func add(_ key: APIKey) {
        entries.withLock { list in
            list.removeAll { $0.secret == key.secret }
            list.append(Entry(matcher: SecretMask.Matcher(secret: key.secret), secret: key.secret, masked: key.masked))
            if list.count > maxKeys { list.removeFirst(list.count - maxKeys) }
        }
    }

    /// `text` with every copy of a known key masked. Text too short to hold a piece of a key
    /// (most ids and names) costs one length check; longer text a byte scan (`mayHold`) unless
    /// it really holds one.
    static func apply(_ text: String) -> String {
        guard text.utf8.count >= minimumPiece else { return text }
        let current = entries.withLock { $0 }
        guard !current.isEmpty else { return text }
        return SecretMask.mask(text, with: current.map { ($0.matcher, $0.masked) })
    }

    /// The shortest text that can hold a piece of a valid key (`APIKey` needs 8 characters).
    static let minimumPiece = 8
}
