import Foundation
import TestSupport
import Testing

@testable import MakimaKit

/// The one way the client starts a child, with real children (a recording script): what they
/// get (environment, descriptors, arguments), one at a time, floods bounded.
@Suite struct ChildLauncherTests {
    static let secret = "mk_child_secret_key_0001"

    static func environment(_ opener: FakeOpener) -> [String: String] {
        [
            "PATH": opener.path, "HOME": "/home/op", "LC_ALL": "C.UTF-8", "XDG_CURRENT_DESKTOP": "GNOME",
            "DISPLAY": ":0", "MAKIMA_API_KEY": secret, "MAKIMA_SERVER_URL": "https://makima.example",
            "MAKIMA_CONFIG_DIR": "/home/op/.config/makima-tui", "GITHUB_TOKEN": "ghp_not_for_children",
        ]
    }

    @Test("a child gets the kept environment (never MAKIMA_ or a token), only 0/1/2, and its arguments as given")
    func whatAChildGets() throws {
        let opener = try FakeOpener()
        let stray = openInheritableDescriptor()
        defer { close(stray) }
        #expect(stray > 2)
        let launcher = ChildLauncher(environment: Self.environment(opener))
        let link = LinkOpener(launcher: launcher)
        #expect(link.open("https://example.com/a?b=c d") == .malformed, "a space: refused whole")
        #expect(link.open("https://example.com/é?x=1;y") == .opening)
        let run = try #require(opener.waitForRuns(1).first)
        #expect(run.arguments == ["https://example.com/%C3%A9?x=1;y"])
        #expect(run.descriptors == [0, 1, 2], "\(run.descriptors)")
        let names = Set(run.environment.compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) })
        #expect(!names.contains { $0.hasPrefix("MAKIMA_") }, "\(names)")
        #expect(!run.environment.joined().contains(Self.secret))
        #expect(!run.environment.joined().contains("ghp_not_for_children"))
        #expect(names.isSuperset(of: ["PATH", "HOME", "LC_ALL", "XDG_CURRENT_DESKTOP", "DISPLAY"]), "\(names)")
        #expect(!ChildEnvironment.isAllowed("MAKIMA_XDG_"))
    }

    @Test("only http and https leave: every other scheme is refused and named, nothing started")
    func schemes() throws {
        let opener = try FakeOpener()
        let link = LinkOpener(launcher: ChildLauncher(environment: Self.environment(opener)))
        let refused: [(String, String)] = [
            ("mailto:x@y?attach=~/.config/makima-tui/credentials/default", "mailto"),
            ("MAILTO:x@y", "MAILTO"), ("file:///etc/passwd", "file"), ("javascript:alert(1)", "javascript"),
            ("steam://run/1", "steam"), ("vscode://file/etc/passwd", "vscode"), ("ftp://example.com", "ftp"),
            ("x-scheme+1.2-3:whatever", "x-scheme+1.2-3"), ("-https://example.com", ""),
            ("//example.com/a", ""), ("example.com", ""), ("", ""),
        ]
        for (url, scheme) in refused {
            #expect(link.open(url) == .refused(scheme: scheme), "\(url.debugDescription)")
        }
        for url in [
            "https:example.com", "http://", "https://example.com/\u{1B}]0;x\u{07}",
            "https://e.x/" + String(repeating: "a", count: 2048),
        ] {
            #expect(link.open(url) == .malformed, "\(url.debugDescription)")
        }
        #expect(link.open("HTTPS://example.com/") == .opening)
        #expect(opener.waitForRuns(1).map(\.arguments) == [["HTTPS://example.com/"]])
        #expect(link.launcher.stats.childrenStarted == 1)
    }

    @Test("200 opens of one link while it opens start one child; 200 different ones, one at a time, the queue bounded")
    func floods() throws {
        let opener = try FakeOpener(holds: true)
        let launcher = ChildLauncher(environment: Self.environment(opener))
        let link = LinkOpener(launcher: launcher)
        var outcomes: [LinkOpener.Outcome] = []
        for _ in 0..<200 { outcomes.append(link.open("https://example.com/same")) }
        #expect(outcomes.first == .opening)
        #expect(outcomes.dropFirst().allSatisfy { $0 == .alreadyOpening })
        // The first child runs (held): the queue is empty again.
        let started = Date().addingTimeInterval(120)
        while launcher.stats.childrenStarted < 1 && Date() < started { usleep(20_000) }
        for i in 0..<200 { outcomes.append(link.open("https://example.com/\(i)")) }
        let queued = outcomes.suffix(200).filter { $0 == .opening }.count
        #expect(queued == ChildLauncher.defaultCapacity, "the queue holds \(queued)")
        #expect(launcher.stats.jobsDropped == 200 - queued)
        opener.release()
        let runs = opener.waitForRuns(1 + queued)
        let deadline = Date().addingTimeInterval(120)
        while launcher.isBusy && Date() < deadline { usleep(20_000) }
        #expect(runs.count == 1 + queued, "\(launcher.stats)")
        #expect(launcher.stats.childrenStarted == 1 + queued)
        #expect(launcher.stats.mostChildrenAtOnce == 1)
        #expect(launcher.stats.mostWorkersAtOnce == 1)
        #expect(!opener.overlapped, "two children ran at once")
    }
}
