import Foundation
import Synchronization
import Testing

@testable import MakimaKit

/// Runs spawned work only when the test says so, so "in flight" is observable.
final class ManualSpawner: Sendable {
    private let queue = Mutex<[@Sendable () -> Void]>([])
    func spawn(_ work: @escaping @Sendable () -> Void) { queue.withLock { $0.append(work) } }
    func runAll() {
        for w in queue.withLock({ q -> [@Sendable () -> Void] in
            defer { q.removeAll() }
            return q
        }) { w() }
    }
    var count: Int { queue.withLock { $0.count } }
}

final class Recorder<T: Sendable>: Sendable {
    private let items = Mutex<[T]>([])
    func add(_ t: T) { items.withLock { $0.append(t) } }
    var all: [T] { items.withLock { $0 } }
}

struct FakeError: Error { let unauthorized: Bool }

/// A shared mutable value for test closures (Mutex itself cannot be captured: it is noncopyable).
final class Locked<T: Sendable>: Sendable {
    private let m: Mutex<T>
    init(_ v: T) { m = Mutex(v) }
    func withLock<R>(_ body: (inout T) -> R) -> R { m.withLock { body(&$0) } }
}

@Suite struct RefreshCoordinatorTests {
    func make(
        fails: Locked<Bool>, unauthorized: Bool = false, clock: Locked<Date>, spawner: ManualSpawner,
        out: Recorder<String>
    ) -> RefreshCoordinator {
        RefreshCoordinator(
            fetch: { _ in
                if fails.withLock({ $0 }) { throw FakeError(unauthorized: unauthorized) }
                return .daemons([])
            },
            classify: { e in .init(message: "boom", isUnauthorized: (e as? FakeError)?.unauthorized ?? false) },
            deliver: { u in
                switch u {
                case .list: out.add("list")
                case .listFailed: out.add("failed")
                case .listLoading: out.add("loading")
                case .unauthorized: out.add("401")
                default: out.add("other")
                }
            },
            now: { clock.withLock { $0 } },
            spawn: { spawner.spawn($0) })
    }

    @Test func neverTwoIdenticalRequestsInFlight() {
        let spawner = ManualSpawner()
        let out = Recorder<String>()
        let c = make(fails: Locked(false), clock: Locked(Date(timeIntervalSince1970: 0)), spawner: spawner, out: out)
        #expect(c.refresh(.daemons))
        #expect(!c.refresh(.daemons))
        #expect(!c.refresh(.daemons, force: true))
        #expect(c.refresh(.contracts(status: nil)))
        #expect(spawner.count == 2)
        spawner.runAll()
        #expect(c.refresh(.daemons))
        #expect(out.all.filter { $0 == "list" }.count == 2)
    }

    @Test func errorsBackOffButAForcedRefreshGoesThrough() {
        let spawner = ManualSpawner()
        let out = Recorder<String>()
        let clock = Locked(Date(timeIntervalSince1970: 0))
        let fails = Locked(true)
        let c = make(fails: fails, clock: clock, spawner: spawner, out: out)
        c.refresh(.daemons)
        spawner.runAll()
        #expect(out.all.last == "failed")
        clock.withLock { $0 = $0.addingTimeInterval(29) }
        #expect(!c.refresh(.daemons))
        clock.withLock { $0 = $0.addingTimeInterval(2) }
        #expect(c.refresh(.daemons))
        spawner.runAll()
        clock.withLock { $0 = $0.addingTimeInterval(45) }
        #expect(!c.refresh(.daemons), "second failure backs off 60 s")
        #expect(c.refresh(.daemons, force: true))
        fails.withLock { $0 = false }
        spawner.runAll()
        #expect(c.refresh(.daemons), "success clears the backoff")
        #expect(RefreshCoordinator.backoffDelay(failures: 10) == 300)
    }

    @Test func unauthorizedStopsPollingUntilResumed() {
        let spawner = ManualSpawner()
        let out = Recorder<String>()
        let c = make(
            fails: Locked(true), unauthorized: true, clock: Locked(Date(timeIntervalSince1970: 0)), spawner: spawner,
            out: out)
        c.refresh(.daemons)
        spawner.runAll()
        #expect(out.all.last == "401")
        #expect(c.isStopped)
        #expect(!c.refresh(.contracts(status: nil), force: true))
        c.resume()
        #expect(c.refresh(.contracts(status: nil)))
    }
}
