import Foundation
import Observation

/// Objects the server said it does not have (a detail fetch answered 404), so a detail pane
/// can say "not found" instead of waiting forever. Bounded like the details (`BoundedMap`):
/// a server answering 404 to every toast's title lookup cannot grow it without end.
@MainActor @Observable
public final class MissingStore {
    public var links = BoundedMap<DeepLink, Bool>()
    public init() {}
}
