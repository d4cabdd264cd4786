import MakimaKit

/// Engines and caches a sign-in replaced (a refused key, another server): each engine is
/// halted (it stops on a thread of its own) and kept, with a cache no engine uses any more,
/// until it has stopped; then the cache is closed and both are let go, so any number of
/// sign-ins (or recoveries from a refused key) leaves no thread or open file behind. Quit
/// stops and closes what is left (`LiveDashboard.stop`).
@MainActor
final class RetiredEngines {
    typealias Retired = (engine: (any DashboardEngine)?, cache: CacheStore?)
    private(set) var all: [Retired] = []
    private unowned let timers: any TimerScheduling

    init(timers: any TimerScheduling) { self.timers = timers }

    func retire(_ old: (any DashboardEngine)?, cache oldCache: CacheStore?) {
        old?.halt()
        if old != nil || oldCache != nil { all.append((old, oldCache)) }
        releaseStopped()
    }

    /// Lets go of the retired engines that have stopped, closing their caches; looks again a
    /// second later while one is still stopping (one timer, so at most one look a second).
    private func releaseStopped() {
        all.removeAll { r in
            guard r.engine?.hasStopped ?? true else { return false }
            r.cache?.close()
            return true
        }
        guard !all.isEmpty else { return }
        timers.schedule(after: 1, id: "retired") { [weak self] in self?.releaseStopped() }
    }
}
