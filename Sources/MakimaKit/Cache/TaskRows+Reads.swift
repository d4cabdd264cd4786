import Foundation

/// The task table's reads (`TaskRows`): a filter's count and rows in the pane's order, one
/// task, where a task stands in a list, and the `/` filter's search over titles.
extension TaskRows {
    static func count(_ filter: TasksStore.Filter, in db: SQLiteDatabase) throws -> Int {
        let (sql, values) = scope(filter)
        let select = try db.prepare("SELECT count(*) FROM task_rows WHERE \(sql)")
        try bind(values, to: select)
        let n = try select.step() ? select.int(0) : 0
        return filter.limit.map { min($0, n) } ?? n
    }

    /// The rows in `[offset, offset + limit)` of the filter's list, in the pane's order.
    static func rows(_ filter: TasksStore.Filter, offset: Int, limit: Int, in db: SQLiteDatabase) throws -> [MeshTask] {
        let (sql, values) = scope(filter)
        let end = filter.limit.map { min($0, offset + limit) } ?? offset + limit
        guard end > offset else { return [] }
        let n = values.count
        let select = try db.prepare(
            "SELECT \(columns) FROM task_rows WHERE \(sql) \(order) LIMIT ?\(n + 1) OFFSET ?\(n + 2)")
        try bind(values, to: select)
        try select.bind(end - offset, at: Int32(n + 1))
        try select.bind(offset, at: Int32(n + 2))
        var out: [MeshTask] = []
        while try select.step() { out.append(task(from: select)) }
        return out
    }

    static func task(id: String, in db: SQLiteDatabase) throws -> MeshTask? {
        let select = try db.prepare("SELECT \(columns) FROM task_rows WHERE id = ?1")
        try select.bind(id, at: 1)
        return try select.step() ? task(from: select) : nil
    }

    /// Where the task is in the filter's list, or nil when the list does not hold it: the rows
    /// before it in the order, counted through the filter's index.
    static func position(of id: String, in filter: TasksStore.Filter, db: SQLiteDatabase) throws -> Int? {
        guard let row = try task(id: id, in: db),
            filter.status == nil || filter.status == row.status,
            filter.contractID == nil || filter.contractID == row.contractID
        else { return nil }
        let (sql, values) = scope(filter)
        let n = values.count
        let before: String
        if row.updatedAt == nil {
            before = "(updated_at IS NOT NULL OR id < ?\(n + 1))"
        } else {
            before = "(updated_at > ?\(n + 2) OR (updated_at = ?\(n + 2) AND id < ?\(n + 1)))"
        }
        let select = try db.prepare("SELECT count(*) FROM task_rows WHERE \(sql) AND \(before)")
        try bind(values, to: select)
        try select.bind(id, at: Int32(n + 1))
        if let at = row.updatedAt { try select.bind(at.timeIntervalSince1970, at: Int32(n + 2)) }
        let position = try select.step() ? select.int(0) : 0
        if let limit = filter.limit, position >= limit { return nil }
        return position
    }

    /// The ids of the filter's rows whose case-folded title holds `needle` (already folded), in
    /// the pane's order, at most `maxMatches`; `capped` when there may be more, `partial` when
    /// only the newest `shortScanRows` were searched (a piece too short for the index).
    static func search(_ needle: String, in filter: TasksStore.Filter, db: SQLiteDatabase) throws -> (
        ids: [String], capped: Bool, partial: Bool
    ) {
        let (sql, values) = scope(filter)
        let n = values.count
        // A rare title piece is found through the trigram index (three characters without a
        // LIKE wildcard), then sorted; a common one by reading the rows in order until enough
        // match, which stops early precisely because matches are common; a short one among
        // the newest rows only.
        let piece = longestPiece(needle)
        let indexed = piece.unicodeScalars.count >= 3
        let useIndex = try indexed && fewCandidates(piece, in: db)
        let candidates = useIndex ? "AND rowid IN (SELECT rowid FROM task_rows_fts WHERE folded LIKE ?\(n + 3))" : ""
        // A list of the newest few is searched among those few only.
        let newest = filter.limit.map { min($0, indexed ? Int.max : shortScanRows) } ?? (indexed ? nil : shortScanRows)
        let source = newest.map { "(SELECT rowid, * FROM task_rows WHERE \(sql) \(order) LIMIT \(max(0, $0)))" }
        let select = try db.prepare(
            """
            SELECT id FROM \(source ?? "task_rows") WHERE \(sql) AND instr(folded, ?\(n + 1)) > 0 \(candidates)
            \(order) LIMIT ?\(n + 2)
            """)
        try bind(values, to: select)
        try select.bind(needle, at: Int32(n + 1))
        let bound = filter.limit.map { min($0, maxMatches) } ?? maxMatches
        try select.bind(bound + 1, at: Int32(n + 2))
        if useIndex { try select.bind("%" + piece + "%", at: Int32(n + 3)) }
        var ids: [String] = []
        while try select.step() { if let id = select.text(0) { ids.append(id) } }
        let capped = ids.count > bound
        return (Array(ids.prefix(bound)), capped && filter.limit == nil, !indexed && filter.limit == nil)
    }

    /// Whether the trigram index holds at most `indexCandidates` titles with `piece`.
    private static func fewCandidates(_ piece: String, in db: SQLiteDatabase) throws -> Bool {
        let select = try db.prepare(
            "SELECT count(*) FROM (SELECT rowid FROM task_rows_fts WHERE folded LIKE ?1 LIMIT ?2)")
        try select.bind("%" + piece + "%", at: 1)
        try select.bind(indexCandidates + 1, at: 2)
        return try select.step() && select.int(0) <= indexCandidates
    }

    /// Past this many candidates, reading the rows in order finds the first matches sooner.
    static let indexCandidates = 1_500

    /// The longest run of `text` without a `LIKE` wildcard (`%`, `_`): what the index is asked.
    static func longestPiece(_ text: String) -> String {
        let pieces = text.split(whereSeparator: { (c: Character) in c == "%" || c == "_" })
        return pieces.max { $0.count < $1.count }.map(String.init) ?? ""
    }

    private static func task(from s: SQLiteStatement) -> MeshTask {
        MeshTask(
            id: s.text(0) ?? "", contractID: s.text(2), parentID: s.text(4), title: s.text(5),
            status: TaskStatus(rawValue: s.text(1) ?? "unknown"), daemonID: s.text(3), createdAt: s.date(6),
            updatedAt: s.date(7), completedAt: s.date(8))
    }
}
