import Synchronization

/// Set from an observation callback (`@Sendable`), read by the loop before each turn's frame.
final class StaleFlag: Sendable {
    private let value = Atomic<Bool>(true)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
    func clear() { value.store(false, ordering: .relaxed) }
}
