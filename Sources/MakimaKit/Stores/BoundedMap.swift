/// What the stores hold by id outside any list (a contract, task or listen session fetched on
/// its own, a link the server answered 404 for), at most `capacity` entries: past it the
/// least recently stored go first, except the `pinned` ones, which panes on the navigation
/// stack read. Without a bound every object ever fetched, each toast's title lookup
/// included, stayed for the life of a dashboard that runs for days. An evicted object is
/// fetched again when a pane opens on it (every detail pane asks for its object when opened).
///
/// Like `TaskOutputLRU`, recency is kept by the writer, not by reads: reads happen while a
/// pane's model is built under observation, where changing a store is not allowed.
public struct BoundedMap<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Enough for the panes on screen, the detail panes under them and the recent toasts'
    /// lookups; small enough that a scan to evict one costs nothing next to a fetch.
    public static var defaultCapacity: Int { 256 }

    public let capacity: Int
    /// Kept whatever the bound (at most the panes on the stack, so few).
    public private(set) var pinned: Set<Key> = []
    private var entries: [Key: (value: Value, stamp: UInt64)] = [:]
    private var clock: UInt64 = 0

    public init(capacity: Int = Self.defaultCapacity) { self.capacity = max(1, capacity) }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var values: [Value] { entries.values.map(\.value) }
    public var keys: [Key] { Array(entries.keys) }
    public func contains(_ key: Key) -> Bool { entries[key] != nil }

    /// Reading does not count as use; storing (also storing again) makes an entry the newest.
    public subscript(key: Key) -> Value? {
        get { entries[key]?.value }
        set {
            guard let newValue else {
                entries[key] = nil
                return
            }
            clock &+= 1
            entries[key] = (newValue, clock)
            evictOverflow()
        }
    }

    /// Replaces the pinned keys (the caller passes what its navigation stack reads); keys no
    /// longer pinned may be evicted now if the map is over its bound.
    public mutating func pin(_ keys: Set<Key>) {
        guard keys != pinned else { return }
        pinned = keys
        evictOverflow()
    }

    /// Forgets every entry (another server); the pins stay with the panes that set them.
    public mutating func removeAll() { entries.removeAll() }

    private mutating func evictOverflow() {
        let pinned = self.pinned
        while entries.count > capacity {
            let oldest = entries.lazy.filter { !pinned.contains($0.key) }.min { $0.value.stamp < $1.value.stamp }
            guard let oldest else { return }  // all pinned: more panes open than the bound
            entries[oldest.key] = nil
        }
    }
}
