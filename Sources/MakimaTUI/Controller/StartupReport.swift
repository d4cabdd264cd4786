import Glibc

/// `make bench`'s start-up figure, taken inside the process: how long from the program's
/// start to the moment its first full frame has been flushed (`doupdate` returned).
///
/// Off unless `MAKIMA_STARTUP_REPORT` names a file; the figures go to that file as
/// `key value` lines, never to the terminal. Three clocks, because none alone is both exact
/// and self-contained:
/// - `startup.exec_to_frame_ms`: from `MAKIMA_EXEC_REALTIME`, the `CLOCK_REALTIME` stamp the
///   launcher took just before `exec` (bash's `$EPOCHREALTIME`, microseconds) — includes the
///   dynamic loader and the Swift runtime's set-up;
/// - `startup.proc_start_to_frame_ms`: from the kernel's start time of the process
///   (`/proc/self/stat` field 22, in clock ticks since boot, against `CLOCK_BOOTTIME`), so
///   with the resolution of one tick (10 ms at the usual 100 Hz); no launcher needed;
/// - `startup.main_to_frame_ms`: from the first line of `main` (`markMain()`), so the
///   difference from the first figure is what happens before any code of ours runs.
public enum StartupReport {
    public static let fileVariable = "MAKIMA_STARTUP_REPORT"
    public static let execStampVariable = "MAKIMA_EXEC_REALTIME"

    /// `CLOCK_MONOTONIC` seconds at `main`'s first line; set once, before any other thread.
    nonisolated(unsafe) private static var mainAt: Double?

    /// Phases of the start-up passed so far, with their `CLOCK_MONOTONIC` seconds (UI thread).
    nonisolated(unsafe) private static var phases: [(name: String, at: Double)] = []

    /// Call first thing in `main`.
    public static func markMain() { mainAt = Clocks.monotonic() }

    /// Notes that the start-up phase `name` has ended (UI thread; reported as
    /// `startup.phase.<name>_ms`, milliseconds after `main`). Costs one clock read.
    static func mark(_ name: String) {
        guard mainAt != nil, phases.count < 16 else { return }
        phases.append((name, Clocks.monotonic()))
    }

    /// Writes the figures once the first frame is on the terminal (the event loop calls this
    /// after its first flush; it does nothing without `MAKIMA_STARTUP_REPORT`).
    static func firstFrameFlushed() {
        guard let path = getenv(fileVariable).map({ String(cString: $0) }), !path.isEmpty else { return }
        write(to: path, execStamp: getenv(execStampVariable).flatMap { Double(String(cString: $0)) })
    }

    /// Writes the figures as of now to `path`; `execStamp` is the launcher's `CLOCK_REALTIME`
    /// seconds at `exec`, if it gave one.
    static func write(to path: String, execStamp: Double?) {
        let monotonic = Clocks.monotonic()
        let realtime = clockSeconds(CLOCK_REALTIME)
        let boottime = clockSeconds(CLOCK_BOOTTIME)
        var lines: [String] = []
        if let stamp = execStamp {
            lines.append("startup.exec_to_frame_ms \(milliseconds(realtime - stamp))")
        }
        if let start = processStartSinceBoot() {
            lines.append("startup.proc_start_to_frame_ms \(milliseconds(boottime - start))")
            lines.append("startup.proc_start_resolution_ms \(milliseconds(1 / Double(sysconf(Int32(_SC_CLK_TCK)))))")
        }
        if let mainAt {
            lines.append("startup.main_to_frame_ms \(milliseconds(monotonic - mainAt))")
            for p in phases { lines.append("startup.phase.\(p.name)_ms \(milliseconds(p.at - mainAt))") }
        }
        // Written beside and renamed into place, so a reader never sees half the figures.
        let text = lines.joined(separator: "\n") + "\n"
        let partial = path + ".partial"
        let fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let written = text.utf8CString.withUnsafeBufferPointer { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
        if written == text.utf8.count { rename(partial, path) } else { unlink(partial) }
    }

    private static func clockSeconds(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Milliseconds with one decimal, e.g. `72.3`.
    private static func milliseconds(_ seconds: Double) -> String { String((seconds * 10_000).rounded() / 10) }

    /// Seconds since boot at which the kernel started this process: field 22 of
    /// `/proc/self/stat`, counted after the command name's closing parenthesis (the name
    /// may itself hold spaces and parentheses).
    static func processStartSinceBoot(stat: String? = readSelfStat()) -> Double? {
        guard let stat, let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the name start at field 3 (state); field 22 is the 20th of them.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count >= 20, let ticks = Double(fields[19]) else { return nil }
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        return hz > 0 ? ticks / hz : nil
    }

    private static func readSelfStat() -> String? {
        let fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 1024)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return String(decoding: bytes[0..<n], as: UTF8.self)
    }
}
