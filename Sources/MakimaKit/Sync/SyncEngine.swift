import Foundation

/// The polling-plus-WebSocket sync engine for one server profile. Everything it learns goes
/// out as `SyncUpdate`s through the outbox; it never touches a store itself.
///
/// Threads: the WebSocket supervisor's thread receives frames; the frame thread decodes them
/// and runs them through the pipeline (`frames`); hole fills and catch-ups run on the pipeline's bounded fetch pool, details and
/// older output on a second small pool, list fetches on short-lived threads of their own (one
/// per query at most); the cache writer has one thread. The consumer drains the outbox on its
/// own thread (the UI thread).
public final class SyncEngine: Sendable {
    public struct Options: Sendable {
        public var webSocket = WebSocketOptions()
        public var backoff = BackoffPolicy()
        /// Follow only these tasks (for `logs --follow`); nil follows the whole mesh.
        public var onlyTasks: Set<String>?
        /// How list fetches start (the coordinator's). Output fetches, details and older output
        /// run on bounded `WorkerPool`s instead: the server decides how many of those there are.
        public var spawner = Spawner.threads
        /// Bounds, retries and timeouts of hole fills and catch-ups.
        public var fetchLimits = TaskEventPipeline.Limits()
        /// Lists fetched on every WebSocket open. The resync replays only tasks the client has
        /// seen: a task that started and ended while it was away sends nothing on the socket,
        /// and these lists (into the stores and the cache) are how it is learnt; its output is
        /// fetched over REST when its view opens (`follow`). Home's task lists: the running
        /// ones (its count) and the newest page; the whole task list, which may be 100,000
        /// tasks, is read again when a pane shows it (the dashboard marks it stale). Each is
        /// read once per open, whoever else asks (`refreshAfterOpen`). Ignored with `onlyTasks`.
        public var openQueries: [ListQuery] = [.tasks(status: .running, contractID: nil), .homeRecentTasks]
        /// Bounds of the fetches of tasks events name before any list holds them (`TaskNamer`).
        public var naming = TaskNamer.Limits()
        public init() {}
    }

    public let outbox: SyncOutbox
    public let fetcher: MeshFetcher
    private let cache: CacheBridge?
    private let pipeline: TaskEventPipeline
    /// Text frames on their way from the socket's thread to the pipeline, decoded on a thread
    /// of their own: in a burst receiving and decoding then run side by side, on two cores.
    /// In order, bounded (2,000 frames or 4 MiB: the socket is read no faster than frames
    /// are decoded, and a burst holds little more in memory than with one thread), and
    /// drained before anything the socket's thread tells the pipeline (a new connection's
    /// resync, a lost connection), so those keep their place after the frames before them.
    private let frames: BatchWriter<String>
    private let supervisor: WebSocketSupervisor
    private let coordinator: RefreshCoordinator
    private let cacheWriter: CacheEventWriter?
    /// List snapshots are saved to the cache here, after the list went to the outbox: saving a
    /// large list (and indexing its tasks' titles for search) costs more than fetching it, and
    /// Home waits for its lists.
    private let listSaves: ListSaveQueue
    /// Fetches the user asks for (a detail, older output): a key held down must not cost a
    /// thread per press. One job per object; the rest wait.
    private let userFetches: WorkerPool
    /// Tasks an event named before any list held them, fetched on `userFetches`.
    private let namer: TaskNamer

    /// `lastSeen` overrides what the cache says has been seen (for `logs --follow`).
    public init(
        client: APIClient, apiKey: APIKey, cache: CacheStore?, outbox: SyncOutbox,
        options: Options = Options(), lastSeen: [String: Int]? = nil
    ) throws(WebSocketSetupError) {
        self.outbox = outbox
        let fetcher = MeshFetcher(client: client)
        self.fetcher = fetcher
        let bridge = cache.map(CacheBridge.init(cache:))
        self.cache = bridge
        // Every cache write fails alike on a full disk: said once, then when it changes.
        let cacheProblems = NoticeGate { outbox.post(.notice($0)) }
        let clock = client.serverClock
        clock.onChange { outbox.post(.serverClock($0)) }
        let writer = cache.map { Self.cacheWriter(into: $0, clock: clock, problems: cacheProblems, outbox: outbox) }
        cacheWriter = writer
        let seen = lastSeen ?? (try? cache?.contiguousSeqs()) ?? [:]
        let pipeline = TaskEventPipeline(
            lastSeen: seen, onlyTasks: options.onlyTasks, limits: options.fetchLimits,
            fetchPage: { task, after, limit in try fetcher.outputPage(taskID: task, afterSeq: after, limit: limit) },
            onApplied: { events in
                clock.noteLiveEvents(events)
                writer?.enqueue(events)
                outbox.post(.events(events))
            },
            onNotifications: { outbox.post(.notifications($0)) },
            onProblem: { outbox.post(.notice($0)) }, serverClock: { clock.offset })
        self.pipeline = pipeline
        let frames = BatchWriter<String>(
            name: "makima-frames", maxBatch: 1_000, maxQueued: 2_000, weigh: { $0.utf8.count },
            maxQueuedWeight: 4 << 20, trimsHeap: false, write: { pipeline.receive(frames: $0) })
        self.frames = frames
        let userFetches = WorkerPool(name: "makima-fetch", maxWorkers: 2, maxQueued: 256)
        self.userFetches = userFetches
        namer = Self.taskNamer(
            fetcher: fetcher, cache: bridge, pool: userFetches, limits: options.naming, problems: cacheProblems,
            outbox: outbox)
        let listSaves = ListSaveQueue()
        self.listSaves = listSaves
        let coordinator = Self.refreshCoordinator(
            fetcher: fetcher, cache: bridge, saves: listSaves, problems: cacheProblems, outbox: outbox,
            options: options)
        self.coordinator = coordinator
        supervisor = try Self.supervisor(
            client: client, apiKey: apiKey, options: options, pipeline: pipeline, frames: frames,
            coordinator: coordinator, outbox: outbox)
    }

    /// Cached snapshots for the first frame (before any network answer), marked stale.
    public func cachedSnapshot(for queries: [ListQuery] = CacheBridge.standardQueries) -> [SyncUpdate] {
        guard let cache else { return [] }
        let (updates, problem) = cache.cachedUpdates(for: queries)
        return problem.map { updates + [.notice($0)] } ?? updates
    }

    /// The newest cached output of a task (shown while its detail loads).
    public func cachedOutput(taskID: String, limit: Int = 2000) -> [TaskEvent] {
        (try? cache?.cache.latestEvents(taskID: taskID, limit: limit)) ?? []
    }

    public func start() { supervisor.start() }

    /// Stops the connection and writes what is queued for the cache; the outbox takes nothing
    /// more (`SyncOutbox.close`).
    public func stop() {
        supervisor.stop()
        // Nobody drains the outbox after this: a thread blocked on its bound (the socket's, the
        // frame thread, a fill) returns, and what they post is dropped.
        outbox.close()
        _ = supervisor.waitUntilFinished(timeout: 3)
        // Frames not yet applied are not in the cache, so the next start's resync asks for
        // them again.
        frames.abandon()
        pipeline.stop()
        userFetches.stop(timeout: 1)
        listSaves.drain()
        cacheWriter?.stop()
    }

    /// Ends the WebSocket (no more reconnects) without waiting for its thread. After a refused
    /// key the controller halts this engine and makes a new one once a key is accepted again
    /// (the key is part of the connection's headers); `stop()` later waits and flushes the cache.
    public func halt() { supervisor.stop() }

    /// A list fetch (polling or the refresh key); see `RefreshCoordinator`.
    @discardableResult
    public func refresh(_ query: ListQuery, force: Bool = false) -> Bool { coordinator.refresh(query, force: force) }

    /// A list the screen needs after a reconnect: fetched now (forced) unless it was already
    /// fetched since the WebSocket opened (`RefreshCoordinator.refreshAfterOpen`).
    @discardableResult
    public func refreshAfterReconnect(_ query: ListQuery) -> Bool { coordinator.refreshAfterOpen(query) }

    /// Whether a fetch of that list is in flight.
    public func isRefreshing(_ query: ListQuery) -> Bool { coordinator.isInFlight(query) }

    /// The user's "reconnect now" key.
    public func retryNow() { supervisor.retryNow() }

    /// A task shown on screen: its output is brought up to date from where the cache left it,
    /// and from then on it streams like every other task.
    /// Ends with `.outputCaughtUp` (or `.unauthorized`).
    public func follow(taskID: String) {
        let outbox = self.outbox
        pipeline.catchUp(taskID: taskID) { error in
            if let error {
                let f = MeshFetcher.classify(error)
                if f.isUnauthorized { return outbox.post(.unauthorized(message: f.message)) }
                outbox.post(.notice("task output: \(f.message)"))
            }
            outbox.post(.outputCaughtUp(taskID: taskID))
        }
    }

    /// Output older than the buffer holds (the viewer scrolled above it, or asked for the
    /// start): up to `count` events before `beforeSeq`, read backwards window by window from
    /// the cache when it holds a window whole, else from the server (`OlderOutputReader`).
    /// Always answers with one `.olderOutput` (empty when nothing came), so the view stops
    /// saying it is loading; a failure is said as a notice as well.
    public func loadOlderOutput(taskID: String, beforeSeq: Int, count: Int = 500) {
        let fetcher = self.fetcher
        let outbox = self.outbox
        let cache = self.cache
        let queued = userFetches.submit(key: "older \(taskID) \(beforeSeq)") {
            var reader = OlderOutputReader(taskID: taskID, before: beforeSeq, count: count) { after, limit in
                try fetcher.outputPage(taskID: taskID, afterSeq: after, limit: limit).events
            }
            reader.cached = { after, limit in
                (try? cache?.cache.events(taskID: taskID, afterSeq: after, limit: limit)) ?? []
            }
            do {
                try reader.read()
            } catch {
                let f = MeshFetcher.classify(error)
                outbox.post(
                    f.isUnauthorized ? .unauthorized(message: f.message) : .notice("older output: \(f.message)"))
            }
            outbox.post(.olderOutput(taskID: taskID, events: reader.events, from: reader.from))
        }
        if !queued { outbox.post(.olderOutput(taskID: taskID, events: [], from: nil)) }
    }

    /// One object's detail, fetched on a thread of its own when the link's kind fetches it
    /// alone (`DeepLink.Kind`: its list kind says how), written into the kind's own cache rows
    /// first when it keeps some (a task's row is the task the stores show).
    public func loadDetail(_ link: DeepLink) {
        let fetcher = self.fetcher
        let outbox = self.outbox
        let cache = self.cache?.cache
        guard link.kind.fetchedAlone else { return }
        let kind = link.kind.list
        userFetches.submit(key: "detail \(link)") {
            do {
                outbox.post(.detail(link, try kind.fetchDetail(id: link.id, with: fetcher.client, cache: cache)))
            } catch APIError.notFound {
                outbox.post(.detailNotFound(link))
            } catch {
                let f = MeshFetcher.classify(error)
                outbox.post(f.isUnauthorized ? .unauthorized(message: f.message) : .notice(f.message))
            }
        }
    }

    /// Tasks an event or a directive named that the client holds by id alone: fetched, within
    /// the bounds of `Options.naming` (`TaskNamer`).
    public func nameTasks(_ ids: some Sequence<String>) { namer.note(ids) }
    public var namingStats: TaskNamer.Stats { namer.stats }

    public var counters: StreamCounters { pipeline.counters }
    /// Threads fetching task output now, and the most there ever were (at most `fetchLimits.workers`).
    public var outputFetchThreads: (now: Int, peak: Int) { pipeline.fetchThreads }
    public var connectionStats: WebSocketSupervisor.Stats { supervisor.stats }
    public var lastSeen: [String: Int] { pipeline.lastSeen }
    public var hasGaps: Bool { pipeline.hasGaps }
    /// Blocks until the cache holds every event applied so far.
    public func flushCache() {
        listSaves.drain()
        cacheWriter?.flush()
    }
}
