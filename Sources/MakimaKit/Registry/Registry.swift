/// Entries described once, by key, in order: the ones the program ships, and any added for
/// the length of a task (`adding`, bound with the registry's `@TaskLocal`), which code running
/// in other tasks never sees. So an entry defined outside the product targets (a test's kind
/// of list, its pane and its destination) is there for the test that adds it alone, and the
/// tests running beside it see the shipped registry.
public struct Registry<Key: Hashable & Sendable, Entry: Sendable>: Sendable {
    /// Every entry, in the order given (NAV// order for panes).
    public let all: [Entry]
    private let index: [Key: Int]
    private let key: @Sendable (Entry) -> Key

    /// Two entries with one key are a programming error.
    public init(_ entries: [Entry], key: @escaping @Sendable (Entry) -> Key) {
        var index: [Key: Int] = [:]
        for (i, entry) in entries.enumerated() {
            let k = key(entry)
            precondition(index[k] == nil, "two registry entries for \(k)")
            index[k] = i
        }
        self.all = entries
        self.index = index
        self.key = key
    }

    public subscript(_ key: Key) -> Entry? { index[key].map { all[$0] } }

    public var keys: [Key] { all.map(key) }

    /// This registry with `entry` after the others.
    public func adding(_ entry: Entry) -> Registry { Registry(all + [entry], key: key) }
}
