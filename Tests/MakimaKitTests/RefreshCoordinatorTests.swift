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

    /// A 429/503 with `Retry-After: 120` holds that query for 120 s: the 30 s backoff alone
    /// would poll again at 31 s, and the refresh key would go straight through.
    @Test func retryAfterHoldsEveryRefreshOfThatQuery() {
        let spawner = ManualSpawner()
        let out = Recorder<String>()
        let clock = Locked(Date(timeIntervalSince1970: 0))
        let throttled = Locked(true)
        let c = RefreshCoordinator(
            fetch: { _ in
                if throttled.withLock({ $0 }) {
                    throw APIError.throttled(status: 429, retryAfter: 120, message: "slow down")
                }
                return .daemons([])
            },
            classify: MeshFetcher.classify,
            deliver: { u in
                if case .listFailed(_, let m) = u { out.add(m) }
                if case .list = u { out.add("list") }
            },
            now: { clock.withLock { $0 } },
            spawn: { spawner.spawn($0) })
        c.refresh(.daemons)
        spawner.runAll()
        #expect(out.all.last?.contains("HTTP 429") == true)
        clock.withLock { $0 = $0.addingTimeInterval(60) }
        #expect(!c.refresh(.daemons))
        #expect(!c.refresh(.daemons, force: true))
        #expect(out.all.last?.contains("retrying in 60 s") == true, "the refused key says why")
        #expect(c.refresh(.contracts(status: nil)), "other queries are not held")
        clock.withLock { $0 = $0.addingTimeInterval(61) }
        throttled.withLock { $0 = false }
        #expect(c.refresh(.daemons))
        spawner.runAll()
        #expect(out.all.last == "list")
        // A hostile Retry-After is capped: at most `maxRetryAfter` of silence.
        throttled.withLock { $0 = true }
        let huge = RefreshCoordinator(
            fetch: { _ in throw APIError.throttled(status: 503, retryAfter: RetryAfter.maxSeconds, message: "") },
            classify: MeshFetcher.classify, deliver: { _ in }, now: { clock.withLock { $0 } },
            spawn: { spawner.spawn($0) })
        huge.refresh(.daemons)
        spawner.runAll()
        clock.withLock { $0 = $0.addingTimeInterval(RefreshCoordinator.maxRetryAfter + 1) }
        #expect(huge.refresh(.daemons))
    }

    @Test func retryAfterIsReadAsSecondsOrAnHTTPDateAndBounded() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.seconds("120") == 120)
        #expect(RetryAfter.seconds(" 0 ") == 0)
        #expect(RetryAfter.seconds("99999999999999999999999") == RetryAfter.maxSeconds)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:50:07 GMT", now: now) == 30)
        #expect(RetryAfter.seconds("Sun, 06 Nov 1994 08:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.seconds("-5") == nil)
        #expect(RetryAfter.seconds("soon") == nil)
        #expect(RetryAfter.seconds(nil) == nil)
        let response = HTTPResponse(status: 503, headers: ["retry-after": "7"], body: Data())
        #expect(APIClient.error(for: response)?.retryAfter == 7)
        let plain = HTTPResponse(status: 503, headers: [:], body: Data())
        #expect(APIClient.error(for: plain) == .http(status: 503, message: ""))
    }

    /// A full disk fails every cache write; `watch` printed the notice once per write.
    @Test func aRecurringProblemIsSaidOnceThenOnChange() {
        let said = Recorder<String>()
        let clock = Locked(Date(timeIntervalSince1970: 0))
        let gate = NoticeGate(quietAfter: 60, now: { clock.withLock { $0 } }, post: { said.add($0) })
        for i in 0..<1_000 {
            gate.failed("disk full")
            if i % 3 == 0 { gate.succeeded() }  // a nearly full disk still takes some writes
        }
        #expect(said.all == ["disk full"])
        gate.failed("locked")
        #expect(said.all == ["disk full", "locked"])
        clock.withLock { $0 = $0.addingTimeInterval(30) }
        gate.succeeded()
        gate.failed("locked")
        #expect(said.all == ["disk full", "locked"], "not quiet long enough to count as over")
        clock.withLock { $0 = $0.addingTimeInterval(61) }
        gate.succeeded()
        gate.failed("locked")
        #expect(said.all == ["disk full", "locked", "locked"])
    }
}
