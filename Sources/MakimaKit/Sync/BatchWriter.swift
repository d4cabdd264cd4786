import Foundation

/// Hands items to a slow consumer (the SQLite cache, the frame decoder) on its own thread, in
/// batches, so a burst never waits on it. Sleeps on a condition when idle: no polling.
/// Bounded: `enqueue` waits while `maxQueued` items, or items weighing `maxQueuedWeight`
/// together, are waiting (the consumer sets the pace of a flood instead of memory growing).
/// After a burst it can hand freed heap back to the system (`trimsHeap`).
public final class BatchWriter<Item: Sendable>: @unchecked Sendable {
    // @unchecked: every field below is guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [Item] = []
    private var stopping = false
    private var writing = false
    private let maxBatch: Int
    private let maxQueued: Int
    private let weigh: (@Sendable (Item) -> Int)?
    private let maxQueuedWeight: Int
    private var queuedWeight = 0
    private let trimsHeap: Bool
    private let write: @Sendable ([Item]) -> Void
    private var thread: Thread?
    private var writtenSinceTrim = 0
    /// How long a batch smaller than `maxBatch` waits for more before it is written (0: not at
    /// all). In a flood each write then takes many events, so fewer transactions, and the
    /// cache leaves out what a batch itself pushes out of a task's window. `flush` and `stop`
    /// cut the wait short.
    private let linger: TimeInterval
    private var flushWaiters = 0

    /// `weigh` and `maxQueuedWeight`: a second bound, on the items' total weight (bytes); one
    /// item heavier than the bound still passes alone.
    public init(
        name: String, maxBatch: Int = 2000, maxQueued: Int = 20_000, linger: TimeInterval = 0,
        weigh: (@Sendable (Item) -> Int)? = nil, maxQueuedWeight: Int = .max, trimsHeap: Bool = true,
        write: @escaping @Sendable ([Item]) -> Void
    ) {
        self.maxBatch = maxBatch
        self.linger = max(0, linger)
        self.maxQueued = max(maxBatch, maxQueued)
        self.weigh = weigh
        self.maxQueuedWeight = maxQueuedWeight
        self.trimsHeap = trimsHeap
        self.write = write
        // The thread keeps the writer alive until `stop()`.
        let t = Thread { [self] in self.loop() }
        t.name = name
        thread = t
        t.start()
    }

    public func enqueue(_ items: [Item]) {
        guard !items.isEmpty else { return }
        let weight = weigh.map { w in items.reduce(0) { $0 + w($1) } } ?? 0
        condition.lock()
        while (queue.count >= maxQueued || (!queue.isEmpty && queuedWeight + weight > maxQueuedWeight)) && !stopping {
            condition.wait()
        }
        let wasEmpty = queue.isEmpty
        if wasEmpty { queue = items } else { queue.append(contentsOf: items) }  // no copy when empty
        queuedWeight += weight
        // Only a writer asleep on an empty queue, or lingering for a batch now full, has to be
        // woken: a lingering writer woken by every arrival (a hundred a second at an agent's
        // pace) only went back to sleep, a thread switch each time.
        if wasEmpty || queue.count >= maxBatch { condition.broadcast() }
        condition.unlock()
    }

    /// Blocks until everything enqueued so far is written.
    public func flush() {
        condition.lock()
        flushWaiters += 1
        condition.broadcast()  // a lingering writer writes now
        while !queue.isEmpty || writing { condition.wait() }
        flushWaiters -= 1
        condition.unlock()
    }

    /// Drops what is queued and returns at once; the thread ends after the batch in hand
    /// (which may be waiting on its consumer).
    public func abandon() {
        condition.lock()
        stopping = true
        queue = []
        queuedWeight = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Writes what is queued, then ends the thread.
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        flush()
    }

    private func loop() {
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty && stopping {
                condition.unlock()
                return
            }
            if linger > 0 && queue.count < maxBatch {
                let deadline = Date().addingTimeInterval(linger)
                while queue.count < maxBatch && !stopping && flushWaiters == 0 && condition.wait(until: deadline) {}
            }
            let n = min(maxBatch, queue.count)
            let batch: [Item]
            if n == queue.count {
                // The whole queue: handed over as it is, no element copied.
                batch = queue
                queue = []
            } else {
                batch = Array(queue.prefix(n))
                queue.removeFirst(n)
            }
            if let weigh { queuedWeight = queue.isEmpty ? 0 : queuedWeight - batch.reduce(0) { $0 + weigh($1) } }
            writing = true
            condition.broadcast()  // producers waiting on the bound
            condition.unlock()
            write(batch)
            condition.lock()
            writtenSinceTrim += n
            let trim = trimsHeap && queue.isEmpty && writtenSinceTrim >= 10_000
            if trim {
                writtenSinceTrim = 0
                // A burst leaves its transient strings on freed heap pages that glibc keeps;
                // returning them once the queue is empty keeps a long-running dashboard flat.
                condition.unlock()
                _ = glibcMallocTrim(0)
                condition.lock()
            }
            writing = false
            condition.broadcast()
            condition.unlock()
        }
    }
}

/// glibc's `malloc_trim` (malloc.h, which the Glibc module does not export).
@_silgen_name("malloc_trim")
private func glibcMallocTrim(_ pad: Int) -> Int32
