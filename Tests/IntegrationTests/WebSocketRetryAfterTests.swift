import Foundation
import MakimaKit
import Testing

/// The task-event WebSocket against the dev server when it refuses the upgrade with 429/503 and
/// a `Retry-After` (`/_dev/ws_reject?retry_after=`): the supervisor waits at least that long
/// (bounded), `retryNow` does not cut the wait, and unreadable values fall back to the backoff.
/// Every wait here is a bound that load can only make easier to meet, never a timed figure.
@Suite struct WebSocketRetryAfterTests {
    /// Short own delays (at most 0.2 s), so any longer wait is the server's.
    let quick = BackoffPolicy(initial: 0.05, cap: 0.2)

    /// Each status with the wall time it was published (recorded in the callback, so after the
    /// supervisor decided it).
    final class Statuses: Sendable {
        let recorder = Recorder<(at: Date, status: ConnectionStatus)>()
        var all: [(at: Date, status: ConnectionStatus)] { recorder.all }
        var firstPlannedRetry: (at: Date, next: Date, error: String?)? {
            for r in all { if case .offline(let next?) = r.status.phase { return (r.at, next, r.status.lastError) } }
            return nil
        }
    }

    /// A supervisor on the quick policy against the server, started, publishing into `statuses`.
    func startSupervisor(_ server: DevServer, statuses: Statuses) throws -> WebSocketSupervisor {
        let sup = try WebSocketSupervisor(
            url: try #require(WebSocketSupervisor.subscribeURL(forServer: server.baseURL)), apiKey: server.apiKey,
            policy: quick, onStatus: { statuses.recorder.append((Date(), $0)) }, onOpen: { nil }, onTexts: { _ in })
        sup.start()
        return sup
    }

    /// Stops the supervisor; true once it has finished.
    @discardableResult func finish(_ sup: WebSocketSupervisor) -> Bool {
        sup.stop()
        return sup.waitUntilFinished(timeout: 60)
    }

    func reject(_ server: DevServer, status: Int, retryAfter: String) throws {
        try server.control(
            path: "/_dev/ws_reject", query: ["status": "\(status)", "count": "1", "retry_after": retryAfter])
    }

    @Test func aThrottledUpgradeWaitsOutRetryAfterEvenOnRetryNow() async throws {
        let server = try DevServer()
        defer { server.stop() }
        // Long enough (under the 300 s cap) that no load on the machine lets it run out mid-test.
        try reject(server, status: 429, retryAfter: "250")
        let statuses = Statuses()
        let sup = try startSupervisor(server, statuses: statuses)
        defer { finish(sup) }
        #expect(await eventually(timeout: 60) { statuses.firstPlannedRetry != nil })
        let planned = try #require(statuses.firstPlannedRetry)
        #expect(planned.error == "upgrade refused (429), retry after 250 s")
        // Its own backoff would have retried 0.2 s after the refusal; the server asked for 250.
        #expect(planned.next.timeIntervalSince(planned.at) > 200, "\(planned.next) after \(planned.at)")
        // The user's retry does not override the server: no second attempt while it holds.
        sup.retryNow()
        try await Task.sleep(for: .seconds(1))
        #expect(sup.stats.attempts == 1)
        #expect(sup.status.phase == .offline(nextRetry: planned.next))
    }

    @Test func afterTheWaitItConnects() async throws {
        let server = try DevServer()
        defer { server.stop() }
        try reject(server, status: 503, retryAfter: "2")
        let statuses = Statuses()
        let began = Date()
        let sup = try startSupervisor(server, statuses: statuses)
        defer { finish(sup) }
        #expect(await eventually(timeout: 60) { sup.status.isOnline })
        let planned = try #require(statuses.firstPlannedRetry)
        #expect(planned.error == "upgrade refused (503), retry after 2 s")
        #expect(planned.next.timeIntervalSince(began) >= 2)
        // The second attempt started no earlier than the server allowed.
        let all = statuses.all
        let offlineIndex = try #require(all.firstIndex { if case .offline = $0.status.phase { true } else { false } })
        let reconnect = try #require(all[offlineIndex...].first { $0.status.phase == .connecting })
        #expect(reconnect.at >= planned.next)
        #expect(sup.stats.attempts == 2)
    }

    @Test func anOverflowingRetryAfterIsCutToTheCapAndANegativeOneIgnored() async throws {
        let server = try DevServer()
        defer { server.stop() }
        try reject(server, status: 429, retryAfter: "99999999999999999999999")
        let capped = Statuses()
        let first = try startSupervisor(server, statuses: capped)
        #expect(await eventually(timeout: 60) { capped.firstPlannedRetry != nil })
        #expect(finish(first))
        let planned = try #require(capped.firstPlannedRetry)
        // A day from the header (RetryAfter's bound), then the supervisor's cap: 300 s.
        #expect(planned.next.timeIntervalSince(planned.at) <= quick.retryAfterCap)
        #expect(planned.next.timeIntervalSince(planned.at) > quick.retryAfterCap - 30)

        try reject(server, status: 503, retryAfter: "-5")
        let ignored = Statuses()
        let second = try startSupervisor(server, statuses: ignored)
        defer { finish(second) }
        #expect(await eventually(timeout: 60) { second.status.isOnline })
        let plain = try #require(ignored.firstPlannedRetry)
        #expect(plain.error == "upgrade refused (503)")
        // Its own backoff only: at most the 0.2 s cap after the refusal, which came before `at`.
        #expect(plain.next.timeIntervalSince(plain.at) <= quick.cap)
    }
}
