import Foundation
import Observation

@MainActor @Observable
public final class NotificationsStore {
    public private(set) var items: [MeshNotification] = []
    /// Notifications not yet shown as a toast.
    public private(set) var pendingToasts: [MeshNotification] = []
    public let capacity = 200
    public init() {}

    func add(_ new: [MeshNotification]) {
        let known = Set(items.map(\.id))
        let fresh = new.filter { !known.contains($0.id) }
        items.append(contentsOf: fresh)
        if items.count > capacity { items.removeFirst(items.count - capacity) }
        pendingToasts.append(contentsOf: fresh)
    }

    public func takeToasts() -> [MeshNotification] {
        defer { pendingToasts.removeAll() }
        return pendingToasts
    }
}
