import Foundation

extension OutputSearchIndex {
    /// Task ids to their numbers, looked up (or given) once per task per write.
    struct TaskNumbers {
        private var known: [String: Int64] = [:]
        private var lookup: SQLiteStatement?
        private var create: SQLiteStatement?

        mutating func num(for task: String, in db: SQLiteDatabase) throws -> Int64 {
            if let n = known[task] { return n }
            if lookup == nil {
                lookup = try db.prepare("SELECT num FROM search_tasks WHERE task_id = ?1")
                create = try db.prepare("INSERT INTO search_tasks (task_id) VALUES (?1)")
            }
            let n: Int64
            try lookup!.bind(task, at: 1)
            if try lookup!.step() {
                n = lookup!.int64(0)
                lookup!.reset()
            } else {
                lookup!.reset()
                try create!.bind(task, at: 1)
                try create!.step()
                create!.reset()
                n = db.lastInsertRowID
            }
            known[task] = n
            return n
        }
    }
}
