import Foundation

/// How `SyncEngine.init` wires its parts: the cache's writer, the task namer, the list
/// fetches and the WebSocket, each made here with the callbacks that post to the outbox.
extension SyncEngine {
    /// The cache's writer thread (`CacheEventWriter`). A batch with statuses changed the task
    /// table's rows: the UI reads its windows again. History counts in the activity history at
    /// its `ts` on our clock (`clock`'s estimate now).
    static func cacheWriter(
        into store: CacheStore, clock: ServerClock, problems: NoticeGate, outbox: SyncOutbox
    ) -> CacheEventWriter {
        CacheEventWriter(
            into: store, serverClock: { clock.offset },
            written: { statuses, error in
                if let error {
                    problems.failed("\(error)")
                } else {
                    if statuses { outbox.post(.taskRowsChanged) }
                    problems.succeeded()
                }
            })
    }

    /// Fetches tasks by id one after another, each 404 said (`.detailNotFound`), those found
    /// written into the cache's task table (their statuses yielding to events that arrived
    /// meanwhile) and handed to the stores as one update.
    static func taskNamer(
        fetcher: MeshFetcher, cache bridge: CacheBridge?, pool: WorkerPool, limits: TaskNamer.Limits,
        problems: NoticeGate, outbox: SyncOutbox
    ) -> TaskNamer {
        TaskNamer(limits: limits, pool: pool) { ids in
            let since = try? bridge?.cache.fetchStamp()
            var named: [MeshTask] = []
            var report = TaskNamer.Report()
            for (i, id) in ids.enumerated() {
                do {
                    named.append(try fetcher.task(id: id))
                } catch APIError.notFound {
                    report.answers.notFound += 1
                    outbox.post(.detailNotFound(.task(id)))
                } catch {
                    report.failed.append(id)
                    let f = MeshFetcher.classify(error)
                    guard f.isUnauthorized else { continue }
                    outbox.post(.unauthorized(message: f.message))
                    report.failed += ids[(i + 1)...]
                    break
                }
            }
            report.answers.fetched = named.count
            if let bridge, let since, !named.isEmpty {
                do {
                    try bridge.cache.nameTasks(named, since: since)
                    problems.succeeded()
                } catch {
                    problems.failed("\(error)")
                }
            }
            if !named.isEmpty { outbox.post(.tasksNamed(named)) }
            return report
        }
    }

    /// List fetches: each page goes to the query's sink as it arrives (with a progress figure
    /// for a long read), the result to the outbox and, with a cache, into it. A read takes at
    /// most `ListPaging.maxBytes(cacheBudget:)` of the cache's budget; a list cut at a bound is
    /// read again less often (said once, as a notice).
    static func refreshCoordinator(
        fetcher: MeshFetcher, cache bridge: CacheBridge?, saves: ListSaveQueue, problems: NoticeGate,
        outbox: SyncOutbox, options: Options
    ) -> RefreshCoordinator {
        let listBackoff = ListBackoff(notice: { outbox.post(.notice($0)) })
        let maxBytes = ListPaging.maxBytes(cacheBudget: (bridge?.cache.retention ?? .standard).maxBytes)
        let spawner = options.spawner
        return RefreshCoordinator(
            fetch: { query in
                let name = String(query.description.prefix { $0 != "?" })
                // A task list with a cache streams into the task table (its pass begun now,
                // before the fetch); what the table holds is not saved again below. Every
                // other list goes to its kind's collector, whole, and is saved after.
                let table = bridge.flatMap {
                    TaskTableSink(query, cache: $0.cache, problems: problems) { outbox.post($0) }
                }
                let payload = try listBackoff.fetch(key: query.description, name: name) {
                    let sink = ProgressReportingSink(table ?? query.kind.collector()) { outbox.post($0) }
                    return try fetcher.list(query, maxBytes: maxBytes, into: sink)
                }
                if let bridge, table == nil {
                    let fetchedAt = Date()
                    saves.save {
                        do {
                            try bridge.store(query, payload, fetchedAt: fetchedAt)
                            if query.taskFilter != nil { outbox.post(.taskRowsChanged) }
                            problems.succeeded()
                        } catch {
                            problems.failed("\(error)")
                        }
                    }
                }
                return payload
            },
            classify: MeshFetcher.classify,
            deliver: { outbox.post($0) },
            spawn: { spawner.run($0) })
    }

    /// The WebSocket: its status goes to the outbox, every open refreshes `openQueries` and
    /// asks for a resync, its frames go through the pipeline.
    static func supervisor(
        client: APIClient, apiKey: APIKey, options: Options, pipeline: TaskEventPipeline,
        frames: BatchWriter<String>, coordinator: RefreshCoordinator, outbox: SyncOutbox
    ) throws(WebSocketSetupError) -> WebSocketSupervisor {
        guard let wsURL = WebSocketSupervisor.subscribeURL(forServer: client.profile.baseURL) else {
            throw .invalidURL("no WebSocket URL for this server")
        }
        // Forced: the outage that ended may have left these lists backing off after errors.
        // A server that keeps dropping the socket costs these fetches per reconnect, which the
        // supervisor's backoff spaces out.
        let openQueries = options.onlyTasks == nil ? options.openQueries : []
        return try WebSocketSupervisor(
            url: wsURL, apiKey: apiKey, options: options.webSocket, policy: options.backoff,
            onStatus: { status in
                if status.phase != .online {
                    frames.flush()
                    pipeline.connectionLost()
                }
                outbox.post(.connection(status))
                if status.unauthorized {
                    outbox.post(.unauthorized(message: status.lastError ?? "the server refused the API key"))
                }
                // Read once ONLINE is posted, so their answers follow it: the dashboard marks
                // its lists stale when it sees ONLINE, and an answer ahead of it would be too.
                if status.phase == .online { for query in openQueries { coordinator.refreshAfterOpen(query) } }
            },
            onOpen: {
                coordinator.opened()
                frames.flush()
                return pipeline.resyncRequest()
            },
            onTexts: { frames.enqueue($0) })
    }
}
