import Foundation
import MakimaKit

// What the controllers are given instead of the whole `LiveDashboard`: each init names the
// parts it uses (these, the stores, and closures onto the other concerns), so the graph of
// who calls whom is read from `LiveDashboard`'s lazy vars.

/// The pane stack as a controller changes it (`DashboardSession`).
@MainActor protocol PaneStackEditing: AnyObject {
    var topPane: any Pane { get }
    func updatePanes(_ body: (inout PaneStack) -> Void)
    func push(_ pane: any Pane)
}

/// The event loop's named timers (`DashboardSession`).
@MainActor protocol TimerScheduling: AnyObject {
    func schedule(after seconds: Double, id: String, _ action: @escaping @MainActor () -> Void)
    func cancelTimer(id: String)
}

/// What reaches the terminal besides frames: the bell and app-made control sequences.
@MainActor protocol TerminalSignals: AnyObject {
    func bell()
    func writeTerminalControl(_ bytes: [UInt8])
}

/// The engine and cache in use, and whether the server refused the key: all three change
/// with a sign-in, so a controller reads them when it needs them (`LiveDashboard`).
@MainActor protocol EngineSource: AnyObject {
    var engine: (any DashboardEngine)? { get }
    var cache: CacheStore? { get }
    var unauthorized: Bool { get }
}

extension DashboardSession: PaneStackEditing, TimerScheduling, TerminalSignals {}
extension LiveDashboard: EngineSource {}
