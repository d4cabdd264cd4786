import Foundation
import Synchronization

/// One task list as a pane reads it: its count when the window was made, and its rows read
/// from the task table by position when a frame asks, a block at a time. The blocks read are
/// kept (at most `maxBlocks`): scrolling back and forth costs no query; the store makes a new
/// window on every change, so a window never outlives the table state it describes by more
/// than the next commit (a row read after a commit it has not been told of yet may show the
/// newer state until the pane is rebuilt, a frame later).
public final class TaskRowsWindow: Sendable {
    public let filter: TasksStore.Filter
    public let count: Int
    private let table: TaskTable
    /// Statuses the UI knows from events the cache writer has not committed yet.
    private let overlay: [String: TaskStatus]
    private let blocks = Mutex<[Int: [MeshTask]]>([:])
    static let blockSize = 64
    static let maxBlocks = 16

    init(table: TaskTable, filter: TasksStore.Filter, overlay: [String: TaskStatus]) {
        self.table = table
        self.filter = filter
        self.overlay = overlay
        count = table.count(filter)
    }

    /// The task at `position` (a blank task past the rows the table holds now).
    public func task(at position: Int) -> MeshTask {
        let (block, offset) = position.quotientAndRemainder(dividingBy: Self.blockSize)
        let rows = blocks.withLock { held -> [MeshTask] in
            if let rows = held[block] { return rows }
            if held.count >= Self.maxBlocks, let far = held.keys.max(by: { abs($0 - block) < abs($1 - block) }) {
                held[far] = nil
            }
            let rows = table.rows(filter, offset: block * Self.blockSize, limit: Self.blockSize)
            held[block] = rows
            return rows
        }
        guard offset < rows.count else { return MeshTask(id: "", status: TaskStatus(rawValue: "unknown")) }
        return withOverlay(rows[offset])
    }

    /// The position of the task with this id in the list, or nil.
    public func position(of id: String) -> Int? { table.position(of: id, in: filter) }

    /// The tasks whose title holds `needle`, in the list's order (at most `TaskRows.maxMatches`).
    public func matching(_ needle: String) -> TaskMatches {
        let (ids, capped) = table.search(needle, in: filter)
        return TaskMatches(ids: ids, capped: capped, table: table, overlay: overlay)
    }

    func withOverlay(_ task: MeshTask) -> MeshTask {
        guard let s = overlay[task.id] else { return task }
        var t = task
        t.status = s
        return t
    }
}

/// The rows a `/` filter matched: their ids in order, each row read by id when drawn.
public final class TaskMatches: Sendable {
    public let ids: [String]
    /// More rows match than `ids` holds.
    public let capped: Bool
    private let table: TaskTable
    private let overlay: [String: TaskStatus]
    private let made = Mutex<[String: MeshTask]>([:])

    init(ids: [String], capped: Bool, table: TaskTable, overlay: [String: TaskStatus]) {
        self.ids = ids
        self.capped = capped
        self.table = table
        self.overlay = overlay
    }

    public var count: Int { ids.count }

    public func task(at position: Int) -> MeshTask {
        let id = ids[position]
        var t = made.withLock { made in
            if let t = made[id] { return t }
            if made.count >= TaskRowsWindow.blockSize * 4 { made.removeAll() }
            let t = table.task(id: id) ?? MeshTask(id: id, status: TaskStatus(rawValue: "unknown"))
            made[id] = t
            return t
        }
        if let s = overlay[id] { t.status = s }
        return t
    }

    public func position(of id: String) -> Int? { ids.firstIndex(of: id) }
}
