import Foundation

/// Hands items to a slow writer (the SQLite cache) on its own thread, in batches, so a burst
/// of events never waits on the disk. Sleeps on a condition when idle: no polling.
/// Bounded: `enqueue` waits while `maxQueued` items are waiting (the disk sets the pace of a
/// flood instead of memory growing). After a burst it hands freed heap back to the system.
public final class BatchWriter<Item: Sendable>: @unchecked Sendable {
    // @unchecked: every field below is guarded by `condition`.
    private let condition = NSCondition()
    private var queue: [Item] = []
    private var stopping = false
    private var writing = false
    private let maxBatch: Int
    private let maxQueued: Int
    private let write: @Sendable ([Item]) -> Void
    private var thread: Thread?
    private var writtenSinceTrim = 0
    /// How long a batch smaller than `maxBatch` waits for more before it is written (0: not at
    /// all). In a flood each write then takes many events, so fewer transactions, and the
    /// cache leaves out what a batch itself pushes out of a task's window. `flush` and `stop`
    /// cut the wait short.
    private let linger: TimeInterval
    private var flushWaiters = 0

    public init(
        name: String, maxBatch: Int = 2000, maxQueued: Int = 20_000, linger: TimeInterval = 0,
        write: @escaping @Sendable ([Item]) -> Void
    ) {
        self.maxBatch = maxBatch
        self.linger = max(0, linger)
        self.maxQueued = max(maxBatch, maxQueued)
        self.write = write
        // The thread keeps the writer alive until `stop()`.
        let t = Thread { [self] in self.loop() }
        t.name = name
        thread = t
        t.start()
    }

    public func enqueue(_ items: [Item]) {
        guard !items.isEmpty else { return }
        condition.lock()
        while queue.count >= maxQueued && !stopping { condition.wait() }
        if queue.isEmpty { queue = items } else { queue.append(contentsOf: items) }  // no copy when empty
        condition.broadcast()  // the writer, lingering or asleep (a flusher may wait too)
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
            writing = true
            condition.broadcast()  // producers waiting on the bound
            condition.unlock()
            write(batch)
            condition.lock()
            writtenSinceTrim += n
            let trim = queue.isEmpty && writtenSinceTrim >= 10_000
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
