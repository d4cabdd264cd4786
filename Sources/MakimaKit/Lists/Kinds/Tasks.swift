import Foundation

extension ListKinds {
    /// `GET /mesh/tasks?status=&contract_id=`, pages of `ListPaging.pageSize`. Status events
    /// keep the loaded lists current, so they get a slow safety refresh (5 min). Tasks keep a
    /// cache table of their own (`TaskRows`: one row per task, found by id; titles and plans
    /// are indexed for search) and a store of their own (`TasksStore`: the lists in the Tasks pane's order,
    /// moved by status events, and the tasks' output).
    public static let tasks = ListKind<MeshTask>(
        name: "tasks", path: ["mesh", "tasks"], pageLimit: ListPaging.pageSize, refreshPeriod: 300,
        filters: ["running", "pending", "queued", "completed", "failed", "cancelled"],
        custom: CustomListStore(store: { $0.tasks }) { hub, query, change in
            hub.tasks.file(TasksStore.Filter(query), change)
        },
        // Task lists are queries over the task table (`TaskRows`): a fetched list is a pass
        // over its pages, whose end deletes what the list no longer holds when it came whole;
        // start-up reads back only its fetch time, nothing proportional to the mesh.
        customCache: CustomListCache(
            store: { payload, cache, query, fetchedAt throws(CacheError) in
                try cache.saveTaskList(
                    payload.items(as: MeshTask.self) ?? [], filter: TasksStore.Filter(query), key: query.description,
                    fetchedAt: fetchedAt, whole: payload.bound == nil)
            },
            load: { cache, query throws(CacheError) in
                try cache.taskListFetchedAt(key: query.description).map { (ListPayload([MeshTask]()), $0) }
            },
            // A task fetched alone is written into its row (`TasksStore.task(id:)` reads it
            // from there); not written (a full disk, which the writers report), the detail
            // the store keeps stands in.
            detailWriter: { cache in
                guard let since = try? cache.fetchStamp() else { return nil }
                return { payload in try? cache.nameTasks(payload.items(as: MeshTask.self) ?? [], since: since) }
            }))
}

extension DeepLink.Kind {
    /// `makima://task/{id}`. A task a link names is fetched alone (its output view opens on it).
    public static let task = DeepLink.Kind("task", naming: ListKinds.tasks, fetchedAlone: true)
}

extension ListQuery {
    public static func tasks(status: TaskStatus?, contractID: String?) -> ListQuery {
        ListKinds.tasks.query([ListParameter("status", status?.rawValue), ListParameter("contract_id", contractID)])
    }

    /// The newest failed tasks, one page (what `wait --needs-you` reads every few seconds:
    /// never a large mesh's every failure).
    public static let newestFailedTasks = ListKinds.tasks.query(
        [ListParameter("status", "failed"), ListParameter("limit", "100")], onePage: true)

    /// The newest `limit` tasks, one page (Home's recent tasks: a large mesh's every task would
    /// be read, cached and sorted to show a few).
    public static func recentTasks(limit: Int) -> ListQuery {
        ListKinds.tasks.query([ListParameter("limit", String(limit))], onePage: true)
    }

    /// Home's recent tasks card: the newest dozen (as many rows as a Home card is given).
    public static let homeRecentTasks = ListQuery.recentTasks(limit: 12)
}

extension ListQuery {
    /// The task list a query names, as a filter over the task table; nil for other kinds.
    public var taskFilter: TasksStore.Filter? { kind.name == ListKinds.tasks.name ? TasksStore.Filter(self) : nil }
}

extension TasksStore.Filter {
    /// The store's list for a tasks query (the status, the contract, or the newest `limit`).
    init(_ query: ListQuery) {
        self.init(
            status: query.parameter("status").map(TaskStatus.init(rawValue:)),
            contractID: query.parameter("contract_id"), limit: query.parameter("limit").flatMap { Int($0) })
    }
}

extension TasksStore: ListKindStore {
    public func markStale() {
        for (filter, state) in lists where state.hasLoaded || !state.items.isEmpty { lists[filter]?.isStale = true }
    }

    public func forget() {
        lists = [:]
        // The rows stay in that server's cache file; the table read now is an empty one
        // until the next server's cache is opened (`useTable`).
        useTable(TaskTable.inMemory())
        details.removeAll()
        outputs = [:]
    }

    public func keepDetails(_ ids: Set<String>) {
        if details.pinned != ids { details.pin(ids) }
    }

    public func keepDetail(_ payload: ListPayload) {
        for task in payload.items(as: MeshTask.self) ?? [] { detailArrived(task) }
    }
}
