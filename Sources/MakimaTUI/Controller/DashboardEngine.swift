import Foundation
import MakimaKit
import Synchronization

/// What the controller asks of the sync engine. `SyncEngine` is the real one; controller
/// tests use an engine that records the calls and lets them post `SyncUpdate`s themselves.
@MainActor
protocol DashboardEngine: AnyObject {
    /// Where the engine's updates wait for the UI thread.
    var outbox: SyncOutbox { get }
    var counters: StreamCounters { get }
    var connectionsOpened: Int { get }
    func start()
    func stop()
    /// Ends the live connection now (after a refused key, before a new engine replaces this
    /// one) and stops the rest on another thread, so no thread of it is left behind and the
    /// UI thread never waits. `stop()` at quit waits for what is left.
    func halt()
    /// True once a halted engine has stopped completely (its cache writes flushed).
    var hasStopped: Bool { get }
    /// The cached lists among `queries` (see `CacheBridge`).
    func cachedSnapshot(for queries: [ListQuery]) -> [SyncUpdate]
    func cachedOutput(taskID: String) -> [TaskEvent]
    func refresh(_ query: ListQuery, force: Bool)
    /// A list the screen needs after a reconnect: fetched unless the engine already read it
    /// since its WebSocket opened (one read per list per reconnect).
    func refreshAfterReconnect(_ query: ListQuery)
    func retryNow()
    func follow(taskID: String)
    func loadOlderOutput(taskID: String, beforeSeq: Int, count: Int)
    func loadDetail(_ link: DeepLink)
    /// Tasks the stores know by id alone (an event or a directive named them before any list
    /// held them): fetched within the engine's bounds (`TaskNamer`).
    func nameTasks(_ ids: [String])
}

extension DashboardEngine {
    /// An engine that keeps no record of its opens: a forced refresh.
    func refreshAfterReconnect(_ query: ListQuery) { refresh(query, force: true) }
}

/// Makes the engine once the controller knows the server (the outbox wakes the UI bus).
typealias EngineFactory =
    @MainActor (APIClient, APIKey, CacheStore?, SyncOutbox) throws -> any DashboardEngine

/// The real engine behind the protocol.
@MainActor
final class LiveSyncEngine: DashboardEngine {
    let engine: SyncEngine
    /// Set by the thread that stops a halted engine.
    private final class StopFlag: Sendable { let done = Atomic<Bool>(false) }
    private let stopFlag = StopFlag()
    private var halted = false

    init(_ engine: SyncEngine) { self.engine = engine }

    static let factory: EngineFactory = { client, key, cache, outbox in
        LiveSyncEngine(try SyncEngine(client: client, apiKey: key, cache: cache, outbox: outbox))
    }

    var outbox: SyncOutbox { engine.outbox }
    var counters: StreamCounters { engine.counters }
    var connectionsOpened: Int { engine.connectionStats.connectionsOpened }
    func start() { engine.start() }
    func stop() { engine.stop() }
    func halt() {
        engine.halt()
        guard !halted else { return }
        halted = true
        let engine = self.engine
        let flag = stopFlag
        Thread.detachNewThread {
            engine.stop()
            flag.done.store(true, ordering: .releasing)
        }
    }
    var hasStopped: Bool { stopFlag.done.load(ordering: .acquiring) }
    func cachedSnapshot(for queries: [ListQuery]) -> [SyncUpdate] { engine.cachedSnapshot(for: queries) }
    func cachedOutput(taskID: String) -> [TaskEvent] { engine.cachedOutput(taskID: taskID) }
    func refresh(_ query: ListQuery, force: Bool) { _ = engine.refresh(query, force: force) }
    func refreshAfterReconnect(_ query: ListQuery) { _ = engine.refreshAfterReconnect(query) }
    func retryNow() { engine.retryNow() }
    func follow(taskID: String) { engine.follow(taskID: taskID) }
    func loadOlderOutput(taskID: String, beforeSeq: Int, count: Int) {
        engine.loadOlderOutput(taskID: taskID, beforeSeq: beforeSeq, count: count)
    }
    func loadDetail(_ link: DeepLink) { engine.loadDetail(link) }
    func nameTasks(_ ids: [String]) { engine.nameTasks(ids) }
}
