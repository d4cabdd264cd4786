import Foundation

/// Where a task list's pages go when there is a cache: straight into the task table
/// (`TaskRows`), one transaction per page as it arrives, so the Tasks pane shows the first
/// rows while the rest stream in and a list of 200,000 tasks is never held in memory. The
/// pass begins when the sink is made, before the fetch: what the table learns meanwhile
/// (another list, a status event) is newer than this list and is not deleted at its end.
///
/// The stores are handed the list's state only (`end` returns no items): the rows are the
/// table's. Each page committed is announced (`.taskRowsChanged`) at most 4 times a second,
/// and once at the end.
final class TaskTableSink: ListSink {
    private let cache: CacheStore
    private var pass: TaskPass?
    private var received = 0
    private var throttle = ListProgressThrottle(now: { Date() })
    private let problems: NoticeGate
    private let post: (SyncUpdate) -> Void

    /// Nil for a query that is not a task list, or when the pass cannot begin (the cache is
    /// unreadable: the list is then kept the ordinary way).
    init?(_ query: ListQuery, cache: CacheStore, problems: NoticeGate, post: @escaping (SyncUpdate) -> Void) {
        guard let filter = query.taskFilter, let pass = try? cache.beginTaskPass(filter, key: query.description)
        else { return nil }
        self.cache = cache
        self.pass = pass
        self.problems = problems
        self.post = post
    }

    func take(_ page: ListPage) {
        received = page.received
        guard var current = pass, let tasks = page.items.items(as: MeshTask.self), !tasks.isEmpty else { return }
        do {
            try cache.writeTaskPage(tasks, into: &current)
            // `:grep` finds tasks by title too.
            try cache.indexTaskTitles(CacheStore.titlesOnly(tasks))
            pass = current
            problems.succeeded()
        } catch {
            // A page that could not be written leaves the pass unable to say what is gone.
            pass = nil
            problems.failed("\(error)")
        }
        if throttle.due() { post(.taskRowsChanged) }
    }

    func end(_ query: ListQuery, bound: ListBound?) -> ListPayload {
        // The server ended the list: what the table holds of it that the list lacks goes.
        let whole = bound == nil
        var bound = bound
        if let pass {
            // Tasks left out at the table's share: the pane says so as it says any cut.
            if pass.cut && whole { bound = .tableFull(cache.maxTaskRows) }
            do {
                try cache.finishTaskPass(pass, fetchedAt: Date(), whole: whole)
                problems.succeeded()
            } catch {
                problems.failed("\(error)")
            }
        }
        post(.taskRowsChanged)
        return ListPayload([MeshTask](), bound: bound, count: received)
    }
}
