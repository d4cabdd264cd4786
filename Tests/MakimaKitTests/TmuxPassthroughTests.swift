import Foundation
import Synchronization
import TestSupport
import Testing

@testable import MakimaKit

/// Inside tmux: one BEL per notification, and the wrapped OSC only when tmux allows passthrough
/// (asked once, through the launcher, of a real program standing in for tmux).
@Suite struct TmuxPassthroughTests {
    typealias Routes = TmuxPassthrough.Routes

    @Test("the routes from what tmux printed: the pane's value wins, on/all allow, nothing said keeps the OSC")
    func decision() {
        let all = Routes(osc: true, bell: true)
        let bellOnly = Routes(osc: false, bell: true, notice: TmuxPassthrough.refusedNotice)
        #expect(TmuxPassthrough.routes(insideTmux: false, global: "off", pane: nil) == Routes(osc: true, bell: false))
        #expect(TmuxPassthrough.routes(insideTmux: true, global: "off\n", pane: "") == bellOnly)
        #expect(TmuxPassthrough.routes(insideTmux: true, global: "on\n", pane: "\n") == all)
        #expect(TmuxPassthrough.routes(insideTmux: true, global: "all", pane: nil) == all)
        #expect(TmuxPassthrough.routes(insideTmux: true, global: "off", pane: "on") == all)
        #expect(TmuxPassthrough.routes(insideTmux: true, global: "on", pane: "off") == bellOnly)
        // An old tmux (no such option) or no answer at all: the OSC goes out as it always did.
        #expect(TmuxPassthrough.routes(insideTmux: true, global: nil, pane: nil) == all)
        #expect(TmuxPassthrough.routes(insideTmux: true, global: "", pane: nil) == all)
        #expect(TmuxPassthrough.refusedNotice.contains("set -g allow-passthrough on"))
        #expect(TmuxPassthrough.paneArguments(pane: "%3") == ["show", "-pv", "-t", "%3", "allow-passthrough"])
    }

    /// A tmux that answers `show` with the given values and records every call's arguments.
    static func fakeTmux(in dir: TempDirectory, global: String, pane: String) throws -> String {
        let script = """
            #!/bin/sh
            printf '%s\\n' "$*" >> '\(dir.sub("calls"))'
            case "$1 $2" in
              "show -gv") printf '%s\\n' '\(global)' ;;
              "show -pv") printf '%s' '\(pane)' ;;
            esac

            """
        let path = dir.sub("tmux")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// Asks the notifier's tmux and hands the answer over, as the dashboard does.
    static func notifier(global: String, pane: String, dir: TempDirectory) async throws -> (DesktopNotifier, String?) {
        let tmux = try fakeTmux(in: dir, global: global, pane: pane)
        let env = ["PATH": "\(dir.path):/usr/bin:/bin", "TMUX": "/tmp/x,1,0", "TMUX_PANE": "%7"]
        let route = NotificationRoute(terminal: true, insideTmux: true, tmux: tmux, notifySend: nil)
        let notifier = DesktopNotifier(route: route, preferences: NotificationPreferences(), environment: env)
        let answer = Mutex<(String?, String?)?>(nil)
        #expect(notifier.askTmuxPassthrough { g, p in answer.withLock { $0 = (g, p) } })
        let deadline = Date().addingTimeInterval(30)
        while answer.withLock({ $0 == nil }) && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let (g, p) = try #require(answer.withLock { $0 })
        return (notifier, notifier.passthroughAnswered(global: g, pane: p))
    }

    static let failed = MeshNotification(
        id: EventIdentity(taskID: "t", seq: 1), kind: .taskFailed, title: "Task failed", body: "deploy",
        link: .task("t1"), at: Date())

    @Test("passthrough off: no wrapped OSC, one BEL, the notice; tmux asked for the global and the pane's value")
    func refused() async throws {
        let dir = TempDirectory()
        let (notifier, notice) = try await Self.notifier(global: "off", pane: "", dir: dir)
        #expect(notice == TmuxPassthrough.refusedNotice)
        #expect(notifier.notify([Self.failed], now: 100).terminalBytes == [0x07])
        let calls = try String(contentsOfFile: dir.sub("calls"), encoding: .utf8).split(separator: "\n")
        #expect(calls.prefix(2) == ["show -gv allow-passthrough", "show -pv -t %7 allow-passthrough"])
        notifier.stop()
    }

    @Test("passthrough on for the pane: both OSCs wrapped, then exactly one BEL outside them")
    func allowed() async throws {
        let dir = TempDirectory()
        let (notifier, notice) = try await Self.notifier(global: "off", pane: "on", dir: dir)
        #expect(notice == nil)
        let bytes = notifier.notify([Self.failed], now: 100).terminalBytes
        #expect(bytes.starts(with: Array("\u{1B}Ptmux;\u{1B}\u{1B}]777;notify;Task failed;deploy".utf8)))
        #expect(bytes.last == 0x07)
        #expect(Array(bytes.suffix(3)) == [0x1B, UInt8(ascii: "\\"), 0x07], "the BEL comes after the wrapper's end")
        // Coalesced: a second failure within the interval waits, and its flush has one BEL.
        #expect(notifier.notify([Self.failed], now: 100.5).terminalBytes.isEmpty)
        let later = notifier.flush(now: 103).terminalBytes
        #expect(later.filter { $0 == 0x07 }.count == 3, "two OSC terminators and one BEL")
        notifier.stop()
    }

    @Test("a captured child: its stdout bounded, nil when it fails or hangs")
    func capture() async throws {
        let launcher = ChildLauncher(environment: ["PATH": "/usr/bin:/bin"])
        let got = Mutex<[[UInt8]?]?>(nil)
        let commands = [
            ChildLauncher.Command("/bin/sh", ["-c", "head -c 100000 /dev/zero; echo tail"], timeout: 10),
            ChildLauncher.Command("/bin/sh", ["-c", "echo no; exit 3"], timeout: 10),
            ChildLauncher.Command("/bin/sleep", ["5"], timeout: 0.2),
            ChildLauncher.Command("/bin/echo", ["on"], timeout: 10),
        ]
        #expect(launcher.submitCapturing(key: "c", commands) { out in got.withLock { $0 = out } } == .queued)
        let deadline = Date().addingTimeInterval(30)
        while got.withLock({ $0 == nil }) && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let out = try #require(got.withLock { $0 })
        #expect(out.count == 4)
        #expect(out[0]?.count == 4096, "kept up to the limit; the rest read, so the child did not block")
        #expect(out[1] == nil)
        #expect(out[2] == nil)
        #expect(out[3] == Array("on\n".utf8))
        #expect(launcher.stats.childrenTimedOut == 1)
    }
}
