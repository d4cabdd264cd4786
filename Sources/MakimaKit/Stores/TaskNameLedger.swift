/// Which tasks the client already holds a name for, in memory, so that a drain of events asks
/// the task table at most once per task id (when the id is first seen), not once per event:
/// at an agent's pace the same twenty ids speak a thousand times a second, and a read each
/// (a prepared statement and a read transaction) was most of the UI thread's work on Home.
///
/// A named task stays named (a title or a plan is never taken back), so `named` is final. An
/// id found unnamed is remembered as such until the table changes (`tableChanged`): a list
/// read by the cache's writer thread may have named it meanwhile, and the next drain that
/// sees it reads its row again. Both sets are bounded: past `capacity` the older half of
/// the named ids is forgotten (read again once if seen again), and the unnamed ones are at
/// most the ids a drain checks (`StoreHub.namesCheckedPerBatch`) between two table changes.
struct TaskNameLedger {
    static let capacity = 16_384

    private var named: Set<String> = []
    private var namedOrder: [String] = []
    private var unnamed: Set<String> = []

    /// What is known of `id` without a read: `true` named, `false` unnamed, `nil` unknown.
    func known(_ id: String) -> Bool? {
        if named.contains(id) { return true }
        return unnamed.contains(id) ? false : nil
    }

    mutating func record(_ id: String, named isNamed: Bool) {
        guard isNamed else {
            if unnamed.count >= Self.capacity { unnamed.removeAll(keepingCapacity: true) }
            unnamed.insert(id)
            return
        }
        unnamed.remove(id)
        guard named.insert(id).inserted else { return }
        namedOrder.append(id)
        guard namedOrder.count > Self.capacity else { return }
        let drop = namedOrder.prefix(namedOrder.count / 2)
        for gone in drop { named.remove(gone) }
        namedOrder.removeFirst(drop.count)
    }

    mutating func learn(_ tasks: some Sequence<MeshTask>) {
        for task in tasks where !task.isUnnamed { record(task.id, named: true) }
    }

    /// The table changed under us: what was unnamed is read again when next seen.
    mutating func tableChanged() { unnamed.removeAll(keepingCapacity: true) }

    mutating func reset() { self = TaskNameLedger() }
}
