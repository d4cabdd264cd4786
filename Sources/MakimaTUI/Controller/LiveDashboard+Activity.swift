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
        Self.activityQueue.async {
            guard let history = try? cache.activity(hours: 24) else { return }
            bus.post { [weak self] in
                self?.session.chrome.set(\.activity, history)
            }
        }
    }
}
