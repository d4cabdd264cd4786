import Foundation
import MakimaKit

/// Hands the outbox's wake-ups to the controller once it exists (the engine, and so the
/// outbox, are made before it).
@MainActor
final class OutboxSink {
    weak var target: LiveDashboard?
    func drain() { target?.drainOutbox() }
}
