import Foundation
import MakimaKit

/// Home's ACTIVITY// card reads the per-minute counts the cache keeps, each time Home is
/// polled (every 30 s while on screen) and on `r`, off the UI thread: the cache's lock may be held by
/// the writer's transaction for a while.
extension LiveDashboard {
    // Internal, not private: the controller tests wait on it (`ControllerHarness.settle`).
    static let activityQueue = DispatchQueue(label: "makima.activity", qos: .utility)

    func loadActivity() {
        guard let cache else { return }
        let bus = session.bus
        // Weak from the start (a `[weak self]` on the inner closure alone would have this one
        // hold the dashboard): a quit during the read must not leave the queue's thread as the
        // dashboard's last owner, its deinit off the UI thread.
        Self.activityQueue.async { [weak self] in
            guard let history = try? cache.activity(hours: 24) else { return }
            bus.post { self?.session.chrome.set(\.activity, history) }
        }
    }
}
