import Foundation
import MakimaKit
import Synchronization
import Testing

/// The reconnect loop against the real peer: drops, refused keys, retry on demand, stop.
@Suite struct WebSocketSupervisorTests {
    let peer: WebSocketPeer
    let key = APIKey("mk_supervisor_test_key_0001")!
    /// Short delays so reconnects happen within the test; the sequence itself is unit-tested.
    let quick = BackoffPolicy(initial: 0.05, cap: 0.2)

    init() throws { peer = try WebSocketPeer.shared.get() }

    final class Observed: Sendable {
        let statuses = Recorder<ConnectionStatus>()
        let texts = Recorder<String>()
        let opens = Atomic<Int>(0)
    }

    func supervisor(_ path: String, policy: BackoffPolicy, observed: Observed, firstText: String? = "resync") throws
        -> WebSocketSupervisor
    {
        try WebSocketSupervisor(
            url: peer.url(path), apiKey: key, policy: policy,
            onStatus: { observed.statuses.append($0) },
            onOpen: {
                let n = observed.opens.add(1, ordering: .relaxed).newValue
                return firstText.map { "\($0)-\(n)" }
            },
            onTexts: { for text in $0 { observed.texts.append(text) } }
        )
    }

    @Test func reconnectsAfterDropsAndSendsTheOpeningTextEachTime() async throws {
        let observed = Observed()
        let sup = try supervisor("/drop", policy: quick, observed: observed)
        sup.start()
        #expect(await eventually { observed.texts.all.contains("got:resync-3") })
        sup.stop()
        #expect(sup.waitUntilFinished(timeout: 10))
        // Every connection got the opening text first and answered it.
        let texts = observed.texts.all
        #expect(Array(texts.prefix(3)) == ["got:resync-1", "got:resync-2", "got:resync-3"])
        let statuses = observed.statuses.all
        #expect(statuses.first?.phase == .connecting)
        #expect(statuses.contains { $0.phase == .online })
        let offline = statuses.filter { if case .offline(let next) = $0.phase { next != nil } else { false } }
        #expect(offline.count >= 2)
        #expect(offline.allSatisfy { $0.lastError?.contains("without a close frame") == true && !$0.unauthorized })
        #expect(statuses.last == .idle)
        #expect(sup.status == .idle)
        #expect(sup.stats.connectionsOpened >= 3)
    }

    @Test func refusedKeyStopsRetrying() async throws {
        let observed = Observed()
        let sup = try supervisor("/reject?status=401", policy: quick, observed: observed)
        sup.start()
        // It ends by itself: no stop() here.
        #expect(sup.waitUntilFinished(timeout: 10))
        #expect(
            sup.status
                == ConnectionStatus(
                    phase: .offline(nextRetry: nil), lastError: "unauthorized (401)", unauthorized: true))
        #expect(sup.stats.attempts == 1)
        #expect(observed.opens.load(ordering: .relaxed) == 0)
        #expect(observed.statuses.all.last?.unauthorized == true)
    }

    @Test func otherRefusalsKeepRetrying() async throws {
        let observed = Observed()
        let sup = try supervisor("/reject?status=503", policy: quick, observed: observed)
        sup.start()
        #expect(await eventually { sup.stats.attempts >= 3 })
        sup.stop()
        #expect(sup.waitUntilFinished(timeout: 10))
        #expect(observed.statuses.all.contains { $0.lastError == "upgrade refused (503)" && !$0.unauthorized })
    }

    @Test func retryNowCutsALongWaitShort() async throws {
        let observed = Observed()
        // Ten minutes between attempts, far longer than the test can take even on a loaded
        // machine: a second attempt within it can only come from retryNow.
        let sup = try supervisor(
            "/reject?status=503", policy: BackoffPolicy(initial: 600, cap: 600, jitter: 0), observed: observed)
        sup.start()
        // Generous deadlines: on a loaded machine the peer, the refused attempt and the thread
        // waking up can each take many seconds. Waiting for the planned retry, not its distance,
        // so a slow poll cannot miss it.
        #expect(
            await eventually(timeout: 120) {
                if case .offline(let next?) = sup.status.phase { return next.timeIntervalSinceNow > 60 }
                return false
            })
        #expect(sup.stats.attempts == 1)
        sup.retryNow()
        #expect(await eventually(timeout: 120) { sup.stats.attempts == 2 })
        sup.stop()
        #expect(sup.waitUntilFinished(timeout: 120))
        #expect(sup.status == .idle)
    }

    @Test func stopEndsAnOpenConnectionAndSendGoesThroughWhileOnline() async throws {
        let observed = Observed()
        let sup = try supervisor("/echo", policy: quick, observed: observed)
        #expect(!sup.send(text: "too early"))
        sup.start()
        #expect(await eventually { observed.texts.all == ["resync-1"] })
        #expect(sup.status.isOnline)
        #expect(sup.send(text: "second"))
        #expect(await eventually { observed.texts.all == ["resync-1", "second"] })
        #expect(await eventually { sup.stats.connections.messagesReceived == 2 })  // live, before the close
        sup.stop()
        #expect(sup.waitUntilFinished(timeout: 10))
        #expect(sup.stats.lastClose == .normal(code: 1001, reason: "going away"))
        #expect(sup.stats.connectionsOpened == 1)
        #expect(!sup.send(text: "too late"))
    }

    @Test func oversizeMessagesAreCountedAndReconnected() async throws {
        let observed = Observed()
        var options = WebSocketOptions()
        options.maxMessageBytes = 1 << 20
        let sup = try WebSocketSupervisor(
            url: peer.url("/huge?size=2000000"), apiKey: key, options: options, policy: quick,
            onStatus: { observed.statuses.append($0) }, onOpen: { nil },
            onTexts: { for text in $0 { observed.texts.append(text) } })
        sup.start()
        #expect(await eventually { sup.stats.connections.oversizeRejected >= 2 })
        sup.stop()
        #expect(sup.waitUntilFinished(timeout: 10))
        #expect(observed.texts.all.isEmpty)
        #expect(observed.statuses.all.contains { $0.lastError == WebSocketCloseReason.messageTooBig.description })
    }

    @Test func stopBeforeStartNeverConnects() throws {
        let observed = Observed()
        let sup = try supervisor("/echo", policy: quick, observed: observed)
        sup.stop()
        sup.start()
        #expect(sup.waitUntilFinished(timeout: 1))
        #expect(sup.stats.attempts == 0)
        #expect(observed.statuses.all.isEmpty)
    }

    @Test func setupErrorsAreThrownUpFront() {
        #expect(throws: WebSocketSetupError.self) {
            try WebSocketSupervisor(
                url: URL(string: "ftp://127.0.0.1/")!, apiKey: key,
                onStatus: { _ in }, onOpen: { nil }, onTexts: { _ in })
        }
        #expect(throws: WebSocketSetupError.self) {
            try WebSocketSupervisor(
                url: peer.url("/echo"), apiKey: key, extraHeaders: ["User-Agent": "x\r\ny"],
                onStatus: { _ in }, onOpen: { nil }, onTexts: { _ in })
        }
    }
}
