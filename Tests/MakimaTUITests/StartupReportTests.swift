import Foundation
import Testing

@testable import MakimaTUI

@Suite("Start-up report (the bench's in-process figure)")
struct StartupReportTests {
    @Test("the kernel's start time is field 22 of /proc/self/stat, counted after the name")
    func parsesStat() {
        let hz = Double(sysconf(Int32(_SC_CLK_TCK)))
        // A command name holding spaces and parentheses must not shift the fields.
        let stat = "4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 123456 1000 10"
        #expect(StartupReport.processStartSinceBoot(stat: stat) == 123456 / hz)
        #expect(StartupReport.processStartSinceBoot(stat: "4242 (short) S 1 2") == nil)
        #expect(StartupReport.processStartSinceBoot(stat: "no parenthesis") == nil)
        // This process's own start: in the past, since boot.
        var ts = timespec()
        clock_gettime(CLOCK_BOOTTIME, &ts)
        let start = StartupReport.processStartSinceBoot()
        #expect(start != nil && start! > 0 && start! <= Double(ts.tv_sec) + 1)
    }

    @MainActor
    @Test("the report file holds every figure, from the launcher's stamp, the kernel's and main's")
    func writesFigures() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("startup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("report").path
        StartupReport.markMain()
        StartupReport.mark("terminal")
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        let aQuarterSecondAgo = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 - 0.25
        StartupReport.write(to: path, execStamp: aQuarterSecondAgo)

        var figures: [String: Double] = [:]
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let v = Double(parts[1]) { figures[String(parts[0])] = v }
        }
        let exec = try #require(figures["startup.exec_to_frame_ms"])
        #expect(exec >= 250 && exec < 60_000)
        #expect(try #require(figures["startup.proc_start_to_frame_ms"]) > 0)
        #expect(figures["startup.proc_start_resolution_ms"] == 1000 / Double(sysconf(Int32(_SC_CLK_TCK))))
        let main = try #require(figures["startup.main_to_frame_ms"])
        #expect(main >= 0 && main < exec)
        #expect(try #require(figures["startup.phase.terminal_ms"]) <= main)
        #expect(!FileManager.default.fileExists(atPath: path + ".partial"))
    }
}
