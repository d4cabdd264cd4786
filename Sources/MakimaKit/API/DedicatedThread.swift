import Foundation

/// Runs blocking work (curl transfers, waiting on the sync engine) on a thread of its own and
/// awaits it, so the cooperative pool (two threads here) is never blocked.
package func onDedicatedThread<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) async throws
    -> T
{
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
        }
        thread.name = name
        thread.start()
    }
}
