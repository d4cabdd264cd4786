import Glibc
import MakimaTUI

/// Milliseconds per run: on the wall clock (what the operator waits, stretched whenever
/// another process holds the core) and on the thread's CPU clock (the work itself, whatever
/// the load). Every benchmark that times runs of a body on the UI thread keeps them here.
struct BenchSamples {
    private(set) var wall: [Double] = []
    private(set) var cpu: [Double] = []

    /// `n` runs of `body`, after one warm-up run.
    static func measure(_ n: Int, _ body: () -> Void) -> BenchSamples {
        body()
        var samples = BenchSamples()
        samples.wall.reserveCapacity(n)
        samples.cpu.reserveCapacity(n)
        for _ in 0..<n { samples.time(body) }
        return samples
    }

    /// Runs `body` once and keeps its times.
    mutating func time(_ body: () -> Void) {
        let mark = Mark()
        body()
        record(since: mark)
    }

    /// When a run began: for a run that cannot be a closure (one that changes an `inout`
    /// main-actor value, which a closure may not capture).
    struct Mark {
        let wall = Clocks.monotonic()
        let cpu = threadCPUSeconds()
    }

    mutating func record(since mark: Mark) {
        cpu.append((threadCPUSeconds() - mark.cpu) * 1000)
        wall.append((Clocks.monotonic() - mark.wall) * 1000)
    }

    var count: Int { cpu.count }
    func cpu(percentile p: Int) -> Double { Self.percentile(cpu, p) }
    func wall(percentile p: Int) -> Double { Self.percentile(wall, p) }

    /// `<name>_p50_ms`, `<name>_p99_ms` (wall) and `<name>_cpu_p50_ms`, `<name>_cpu_p99_ms`.
    func report(as name: String, into results: inout [String: Double]) {
        results[name + "_p50_ms"] = wall(percentile: 50)
        results[name + "_p99_ms"] = wall(percentile: 99)
        results[name + "_cpu_p50_ms"] = cpu(percentile: 50)
        results[name + "_cpu_p99_ms"] = cpu(percentile: 99)
    }

    private static func percentile(_ values: [Double], _ p: Int) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, sorted.count * p / 100)]
    }
}

/// Seconds of CPU the calling thread has used: a run's cost whatever else the machine runs.
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
