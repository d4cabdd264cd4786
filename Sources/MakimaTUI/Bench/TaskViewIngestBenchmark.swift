import Glibc
import MakimaKit

/// Figures for a burst of live output: 100,000 events (a sixth of them into the task on screen,
/// the rest spread over other tasks) taken in by the UI thread in the batches the sync engine
/// posts, with one frame drawn per batch, once with the task's output view open and once with
/// Home open (the baseline, same run). CPU time of this thread, so a shared machine's other
/// load does not count.
/// - `ingest_100k_home_ms`, `ingest_100k_task_view_ms`: the whole burst;
/// - `ingest_100k_task_view_over_home_pct`: how much slower with the task view open (target
///   under 20 %).
enum TaskViewIngestBenchmark {
    @MainActor
    static func run(events: Int = 100_000, batch: Int = 500, width: Int = 200, height: Int = 50) -> [String: Double] {
        let home = burst(events: events, batch: batch, width: width, height: height, taskViewOpen: false)
        let view = burst(events: events, batch: batch, width: width, height: height, taskViewOpen: true)
        return [
            "ingest_100k_home_ms": home,
            "ingest_100k_task_view_ms": view,
            "ingest_100k_task_view_over_home_pct": home > 0 ? (view / home - 1) * 100 : 0,
        ]
    }

    @MainActor
    private static func burst(events: Int, batch: Int, width: Int, height: Int, taskViewOpen: Bool) -> Double {
        let hub = StoreHub()
        var app = AppState(
            masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .online, clock: "12:00"))
        var lines = TaskOutputLines()
        if taskViewOpen { app.stack.push(TaskOutputPane(model: TaskOutputViewModel(taskID: "t0", title: "burst"))) }
        var seqs = [Int](repeating: 0, count: 6)
        let start = threadCPUTime()
        var sent = 0
        while sent < events {
            let n = min(batch, events - sent)
            let chunk = (0..<n).map { i -> TaskEvent in
                let k = sent + i
                let task = k % 6
                seqs[task] += 1
                let text =
                    k % 5 == 0
                    ? "## step \(k)\n\nsome **bold** prose and `code` \(k)\n\n"
                    : "line \(k) of the burst, plain words\n"
                return TaskEvent(
                    eventID: Int64(k + 1), taskID: "t\(task)", seq: seqs[task], type: .output,
                    payload: .output(text: text, stream: "assistant"))
            }
            sent += n
            hub.apply(.events(chunk))
            if taskViewOpen, let buffer = hub.tasks.outputs["t0"] {
                let model = TaskOutputViewModel(
                    taskID: "t0", title: "burst", lines: lines.lines(of: buffer),
                    firstLineNumber: lines.firstLineNumber)
                app.stack.update(.tasks, as: TaskOutputPane.self) { $0.update(model) }
            }
            _ = app.render(width: width, height: height)
        }
        return (threadCPUTime() - start) * 1000
    }

    private static func threadCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
