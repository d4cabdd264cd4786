import Foundation
import Testing

@testable import MakimaKit

/// The join for transfer threads nobody else joins: `drain` cancels, waits, and refuses new
/// ones. (A registry of its own: the process-wide one must stay open for the other tests.)
@Suite struct TransferRegistryTests {
    /// A stand-in transfer: holds its ticket until its flag is cancelled, as libcurl's
    /// callbacks end a transfer at the next check.
    static func startTransfer(in registry: TransferRegistry) -> CancellationFlag? {
        let flag = CancellationFlag()
        guard let ticket = registry.enter(flag) else { return nil }
        Thread {
            while !flag.isCancelled { usleep(2_000) }
            usleep(50_000)  // winding down after the cancel, still inside "libcurl"
            registry.leave(ticket)
        }.start()
        return flag
    }

    @Test func drainCancelsEveryTransferAndWaitsForThemToReturn() {
        let registry = TransferRegistry()
        let flags = (0..<5).compactMap { _ in Self.startTransfer(in: registry) }
        #expect(flags.count == 5)
        #expect(registry.count == 5)
        #expect(registry.drain(timeout: 30))
        #expect(flags.allSatisfy { $0.isCancelled })
        #expect(registry.count == 0)
    }

    @Test func afterDrainNoTransferMayStart() {
        let registry = TransferRegistry()
        #expect(registry.drain(timeout: 1))
        #expect(Self.startTransfer(in: registry) == nil)
    }

    @Test func drainGivesUpOnATransferThatDoesNotReturn() {
        let registry = TransferRegistry()
        let stuck = registry.enter(CancellationFlag())  // never leaves
        #expect(stuck != nil)
        #expect(!registry.drain(timeout: 0.2))
        #expect(registry.count == 1)
    }

    @Test func aCancelledTransferStopsInTheTLSHandshake() async throws {
        // A server that accepts and never answers the ClientHello: only the progress callback
        // can end the transfer before its timeout.
        let server = try LoopbackHTTPServer { _ in nil }
        let flag = CancellationFlag()
        let transport = HTTPTransport(
            configuration: HTTPConfiguration(connectTimeout: .seconds(60), totalTimeout: .seconds(60), proxies: .none))
        // Timed on the transfer's own thread: resuming this test can wait for a busy pool.
        let (result, seconds) = await withCheckedContinuation { continuation in
            Thread {
                let started = Date()
                let result = Result {
                    try transport.perform(
                        HTTPRequest(url: URL(string: "https://127.0.0.1:\(server.port)/")!), cancellation: flag)
                }
                continuation.resume(returning: (result, Date().timeIntervalSince(started)))
            }.start()
            Thread {
                usleep(300_000)
                flag.cancel()
            }.start()
        }
        server.close()
        #expect(seconds < 30, "ended by the cancel, not the 60 s timeout")
        guard case .failure(let error) = result, case .transport(let why) = error as? APIError else {
            Issue.record("expected a cancelled transfer, got \(result)")
            return
        }
        #expect(why == "cancelled")
    }
}
