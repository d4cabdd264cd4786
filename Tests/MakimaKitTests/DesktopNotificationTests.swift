import Foundation
import TestSupport
import Testing

@testable import MakimaKit

@Suite struct DesktopNotificationTests {
    static func failed(_ i: Int, title: String = "build") -> MeshNotification {
        MeshNotification(
            id: EventIdentity(taskID: "t", seq: i), kind: .taskFailed, title: "Task failed", body: title,
            link: .task("t\(i)"),
            at: Date())
    }

    @Test("OSC 777 and OSC 9 bytes, and tmux's passthrough with every ESC doubled")
    func encoding() {
        let m = DesktopMessage(title: "Task failed", body: "deploy api")
        #expect(TerminalNotification.osc777(m) == Array("\u{1B}]777;notify;Task failed;deploy api\u{07}".utf8))
        #expect(TerminalNotification.osc9(m) == Array("\u{1B}]9;Task failed: deploy api\u{07}".utf8))
        let plain = TerminalNotification.bytes(for: m, insideTmux: false)
        #expect(plain == TerminalNotification.osc777(m) + TerminalNotification.osc9(m))
        let wrapped = String(decoding: TerminalNotification.bytes(for: m, insideTmux: true), as: UTF8.self)
        #expect(
            wrapped == "\u{1B}Ptmux;\u{1B}\u{1B}]777;notify;Task failed;deploy api\u{07}\u{1B}\\"
                + "\u{1B}Ptmux;\u{1B}\u{1B}]9;Task failed: deploy api\u{07}\u{1B}\\" + "\u{07}")
        // Passthrough off: the wrapped sequences would be dropped, the BEL alone goes out.
        #expect(TerminalNotification.bytes(for: m, insideTmux: true, passthrough: false) == [0x07])
        #expect(TerminalNotification.bytes(for: m, insideTmux: false, passthrough: false) == plain)
    }

    @Test("nothing in the text can end the sequence or start another; the length is bounded")
    func hostileText() {
        let evil = "a\u{07}b\u{1B}]0;owned\u{1B}\\c\u{9C}d\u{9D}e\u{90}f\nline\r\t\u{202E}g\u{200B}h\u{7F}"
        let m = DesktopMessage(title: "x;y\u{1B}z", body: evil)
        #expect(m.title == "x,y z")
        for s in m.title.unicodeScalars + m.body.unicodeScalars {
            #expect(s.value >= 0x20 && s.value != 0x7F && !(0x80...0x9F).contains(s.value))
            #expect(!UntrustedText.isBidiControl(s.value))
        }
        let bytes = TerminalNotification.bytes(for: m, insideTmux: false)
        // Exactly two sequences: two ESCs (one per OSC introducer) and two BELs (one per end).
        #expect(bytes.filter { $0 == 0x1B }.count == 2)
        #expect(bytes.filter { $0 == 0x07 }.count == 2)
        let long = DesktopMessage(title: String(repeating: "t", count: 500), body: String(repeating: "é", count: 5000))
        #expect(long.title.count == DesktopMessage.titleLimit)
        #expect(long.body.count == DesktopMessage.bodyLimit)
        #expect(long.body.hasSuffix("…"))
        #expect(
            DesktopMessage(title: "t", body: String(repeating: "b", count: DesktopMessage.bodyLimit)).body.count
                == DesktopMessage.bodyLimit)
        // A number first would read as a ConEmu command in OSC 9.
        #expect(
            TerminalNotification.osc9(DesktopMessage(title: "5;4", body: "")).starts(
                with: Array("\u{1B}]9;Makima: ".utf8)))
    }

    @Test("many notifications become one summary")
    func digest() {
        var d = NotificationDigest((1...5).map { Self.failed($0) })
        #expect(d.message == DesktopMessage(title: "5 tasks failed", body: "5 tasks failed"))
        d.add(
            MeshNotification(
                id: EventIdentity(taskID: "t", seq: 9), kind: .supervisorQuestion, title: "Supervisor question",
                body: "?", link: .task("q"), at: Date())
        )
        d.merge(NotificationDigest([Self.failed(10)]))
        #expect(d.message.body == "6 tasks failed, 1 supervisor question")
        #expect(
            NotificationDigest([Self.failed(1, title: "deploy")]).message
                == DesktopMessage(title: "Task failed", body: "deploy"))
    }

    @Test("the notifier sends one notification, then holds the rest for one summary")
    func coalescing() {
        let route = NotificationRoute(terminal: true, insideTmux: false, tmux: nil, notifySend: nil)
        let n = DesktopNotifier(route: route, preferences: NotificationPreferences(), environment: [:])
        let first = n.notify([Self.failed(1, title: "deploy")], now: 100)
        #expect(String(decoding: first.terminalBytes, as: UTF8.self).contains("]777;notify;Task failed;deploy\u{07}"))
        #expect(first.flushAfter == nil)
        let held = n.notify((2...200).map { Self.failed($0) }, now: 100.5)
        #expect(held.terminalBytes.isEmpty)
        #expect(held.flushAfter == 1.5)
        #expect(n.notify([Self.failed(201)], now: 101).flushAfter == nil)  // the timer is already set
        let summary = n.flush(now: 102)
        #expect(
            String(decoding: summary.terminalBytes, as: UTF8.self).contains(
                "]777;notify;200 tasks failed;200 tasks failed\u{07}"))
        #expect(n.flush(now: 103).terminalBytes.isEmpty)
    }

    @Test("preferences: a kind turned off, or desktop off, sends nothing; saved in the config file")
    func preferences() throws {
        var prefs = NotificationPreferences()
        prefs.taskFailed = false
        let route = NotificationRoute(terminal: true, insideTmux: false, tmux: nil, notifySend: nil)
        let n = DesktopNotifier(route: route, preferences: prefs, environment: [:])
        #expect(n.notify([Self.failed(1)], now: 0).terminalBytes.isEmpty)
        n.preferences.taskFailed = true
        n.preferences.desktop = false
        #expect(n.notify([Self.failed(2)], now: 10).terminalBytes.isEmpty)

        let tmp = TempDirectory()
        let store = ConfigStore(location: ConfigLocation(directory: tmp.path))
        var config = try store.load()
        #expect(config.notificationPreferences == NotificationPreferences())
        var saved = NotificationPreferences()
        saved.bell = false
        saved.supervisorQuestion = false
        config.notificationPreferences = saved
        config.theme = "light"
        try store.save(config)
        let back = try store.load()
        #expect(back.notificationPreferences == saved)
        #expect(back.theme == "light")
        let text = try String(contentsOfFile: store.location.configFile, encoding: .utf8)
        #expect(text.contains("\"supervisor_question\" : false"))
    }

    @Test("routes: OSC inside a terminal (tmux-wrapped in tmux), notify-send only without one")
    func routes() throws {
        let tmp = TempDirectory()
        for tool in ["tmux", "notify-send"] {
            _ = FileManager.default.createFile(
                atPath: tmp.sub(tool), contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        }
        let base = ["PATH": tmp.path, "TERM": "xterm-256color", "DISPLAY": ":0"]
        let inTmux = NotificationRoute.detect(
            environment: base.merging(["TMUX": "/tmp/t,1,0"]) { $1 }, outputIsTerminal: true)
        #expect(inTmux == NotificationRoute(terminal: true, insideTmux: true, tmux: tmp.sub("tmux"), notifySend: nil))
        let piped = NotificationRoute.detect(environment: base, outputIsTerminal: false)
        #expect(
            piped
                == NotificationRoute(terminal: false, insideTmux: false, tmux: nil, notifySend: tmp.sub("notify-send")))
        let console = NotificationRoute.detect(
            environment: base.merging(["TERM": "linux"]) { $1 }, outputIsTerminal: true)
        #expect(!console.terminal)
        #expect(
            NotificationRoute.detect(
                environment: ["PATH": "relative:" + tmp.path, "TMUX": "x"], outputIsTerminal: true
            ).tmux == tmp.sub("tmux"))
    }

    @Test("helper arguments: tmux formats and strftime escaped; notify-send markup escaped")
    func helperArguments() {
        let m = DesktopMessage(title: "Task failed", body: "-x #(touch /tmp/pwned) %H:%M #{pane_id} <b>&")
        #expect(
            DesktopNotifier.tmuxArguments(m, pane: "%3") == [
                "display-message", "-d", "5000", "-t", "%3", "--",
                "MAKIMA: Task failed: -x ##(touch /tmp/pwned) %%H:%%M ##{pane_id} <b>&",
            ])
        #expect(
            DesktopNotifier.notifySendArguments(m) == [
                "--app-name=makima-tui", "--", "Task failed", "-x #(touch /tmp/pwned) %H:%M #{pane_id} &lt;b&gt;&amp;",
            ])
        #expect(
            ChildEnvironment.filter(["MAKIMA_API_KEY": "mk_x", "GITHUB_TOKEN": "t", "TMUX": "s", "LC_ALL": "C"])
                == ["TMUX": "s", "LC_ALL": "C"])
    }

    /// A stand-in tmux that is a real program: it records whether two copies ever ran at once,
    /// its environment, and the message it was given.
    static func fakeTmux(in dir: TempDirectory, sleep: String) throws -> String {
        let script = """
            #!/bin/sh
            mkdir '\(dir.sub("lock"))' 2>/dev/null || echo overlap >> '\(dir.sub("overlaps"))'
            env > '\(dir.sub("env"))'
            for a; do last=$a; done
            printf '%s\\n' "$last" >> '\(dir.sub("messages"))'
            sleep \(sleep)
            rmdir '\(dir.sub("lock"))'

            """
        let path = dir.sub("tmux")
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    @Test("a flood of 200 failed tasks: one worker thread, one child at a time, coalesced, no secret in the child")
    func flood() async throws {
        let dir = TempDirectory()
        let tmux = try Self.fakeTmux(in: dir, sleep: "0.2")
        let env = [
            "PATH": "\(dir.path):/usr/bin:/bin", "TMUX": "/tmp/x,1,0", "TMUX_PANE": "%1",
            "MAKIMA_API_KEY": "mk_flood_secret_key_0001", "AWS_SECRET_ACCESS_KEY": "s3cr3t",
        ]
        let route = NotificationRoute(terminal: true, insideTmux: true, tmux: tmux, notifySend: nil)
        let notifier = DesktopNotifier(route: route, preferences: NotificationPreferences(), environment: env)
        var bytes: [UInt8] = []
        // Each event on its own, past the notifier's interval, so every one reaches the worker:
        // the worker's own queue has to do the coalescing.
        for i in 1...200 {
            bytes += notifier.notify([Self.failed(i)], now: Double(i) * 10).terminalBytes
        }
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let messages = (try? String(contentsOfFile: dir.sub("messages"), encoding: .utf8)) ?? ""
            if Self.total(in: messages) == 200 && !FileManager.default.fileExists(atPath: dir.sub("lock")) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let stats = try #require(notifier.worker?.stats)
        let messages = try String(contentsOfFile: dir.sub("messages"), encoding: .utf8)
        #expect(Self.total(in: messages) == 200, "every failure counted once across the coalesced messages")
        // Counted by the worker itself (threads alive in its drain loop, children between spawn
        // and reap): the process's thread count also holds the tests running beside this one.
        #expect(stats.mostWorkersAtOnce == 1)
        #expect(stats.mostChildrenAtOnce == 1)
        #expect(stats.childrenStarted < 50, "coalesced: \(stats.childrenStarted) children for 200 events")
        #expect(messages.contains("tasks failed"))
        #expect(!FileManager.default.fileExists(atPath: dir.sub("overlaps")), "two tmux children ran at once")
        let childEnv = try String(contentsOfFile: dir.sub("env"), encoding: .utf8)
        #expect(!childEnv.contains("mk_flood_secret_key_0001"))
        #expect(!childEnv.contains("s3cr3t"))
        #expect(childEnv.contains("TMUX=/tmp/x,1,0"))
        // And the terminal got every notification as tmux-wrapped OSC 777.
        #expect(
            String(decoding: bytes, as: UTF8.self).components(separatedBy: "\u{1B}Ptmux;\u{1B}\u{1B}]777;notify;").count
                == 201)
    }

    /// Failures counted in tmux messages: "Task failed: …" is one, "N tasks failed" is N.
    static func total(in messages: String) -> Int {
        messages.split(separator: "\n").reduce(0) { sum, line in
            if line.hasPrefix("MAKIMA: Task failed:") { return sum + 1 }
            let words = line.dropFirst("MAKIMA: ".count).split(separator: " ")
            if words.count >= 3, words[1] == "tasks", let n = Int(words[0]) { return sum + n }
            return sum
        }
    }

    @Test("a helper that hangs is killed after the timeout and the next one still runs")
    func timeout() async throws {
        let dir = TempDirectory()
        let tmux = try Self.fakeTmux(in: dir, sleep: "30")
        let worker = NotifierWorker(environment: ["PATH": "/usr/bin:/bin"], timeout: 0.5) { _ in [(tmux, ["hi"])] }
        worker.submit(NotificationDigest([Self.failed(1)]))
        // Generous, separate deadlines: under a full parallel run the test's own wake-ups can
        // wait long for a free thread.
        var deadline = Date().addingTimeInterval(120)
        while worker.stats.childrenTimedOut < 1, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(worker.stats.childrenTimedOut == 1)
        try? FileManager.default.removeItem(atPath: dir.sub("lock"))
        worker.submit(NotificationDigest([Self.failed(2)]))
        deadline = Date().addingTimeInterval(120)
        while worker.stats.childrenStarted < 2, Date() < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(worker.stats.childrenStarted == 2)
        worker.stop()
    }
}

@Suite struct TaskTitleBookTests {
    @Test("notifications are named by title; unknown ids are listed for a lookup, bounded")
    func naming() {
        var book = TaskTitleBook()
        let running = MeshTask(id: "t1", title: "deploy\napi", status: .running)
        book.learn(
            from: .list(
                .tasks(status: .running, contractID: nil), .tasks([running]), fetchedAt: Date(), fromCache: false))
        let n = MeshNotification(
            id: EventIdentity(taskID: "t", seq: 1), kind: .taskFailed, title: "Task failed", body: "t1 — exit 1",
            link: .task("t1"), at: Date())
        #expect(book.named(n).body == "deploy api — exit 1")
        let unknown = (2...20).map {
            MeshNotification(
                id: EventIdentity(taskID: "t", seq: $0), kind: .taskFailed, title: "Task failed", body: "t\($0)",
                link: .task("t\($0)"),
                at: Date())
        }
        #expect(book.unknown(in: [n] + unknown, limit: 4) == ["t2", "t3", "t4", "t5"])
        book.lookupFailed("t2")
        #expect(book.unknown(in: unknown, limit: 2) == ["t3", "t4"], "a failed lookup is not repeated")
        #expect(book.named(unknown[0]).body == "t2", "without a title the id stays")
    }

    @Test func boundedMemory() {
        var book = TaskTitleBook()
        for i in 0..<(TaskTitleBook.capacity * 3) {
            book.learn(MeshTask(id: "t\(i)", title: "n\(i)", status: .running))
        }
        var known = 0
        for i in 0..<(TaskTitleBook.capacity * 3) where book.title("t\(i)") != nil { known += 1 }
        #expect(known <= TaskTitleBook.capacity)
        #expect(book.title("t\(TaskTitleBook.capacity * 3 - 1)") == "n\(TaskTitleBook.capacity * 3 - 1)")
    }
}

@Suite(.serialized) struct WebSettingsLinkTests {
    @Test("the settings page of the typed server")
    func page() throws {
        let url = try #require(WebSettingsLink.url(forServer: "makima.example/api/v1/"))
        #expect(url.absoluteString == "https://makima.example/settings")
        #expect(WebSettingsLink.url(forServer: "http://makima.lan") == nil)
        #expect(WebSettingsLink.url(forServer: "")?.absoluteString == "https://makima.jp/settings")
    }

    @Test("xdg-open runs off the calling thread, one at a time, with the URL as its only argument")
    func open() async throws {
        let dir = TempDirectory()
        let script = "#!/bin/sh\nprintf '%s\\n' \"$#:$1\" >> '\(dir.sub("opened"))'\nsleep 0.5\n"
        try script.write(toFile: dir.sub("xdg-open"), atomically: true, encoding: .utf8)
        chmod(dir.sub("xdg-open"), 0o755)
        let env = ["PATH": "\(dir.path):/usr/bin:/bin", "MAKIMA_API_KEY": "mk_not_for_children_0001"]
        let url = URL(string: "https://makima.example/settings")!
        let opener = LinkOpener(launcher: ChildLauncher(environment: env))
        #expect(WebSettingsLink.open(url, with: opener))
        #expect(!WebSettingsLink.open(url, with: opener), "a second press while the first runs does nothing")
        #expect(!WebSettingsLink.open(URL(string: "file:///etc/passwd")!, with: opener))
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, !WebSettingsLink.open(url, with: opener) {
            try await Task.sleep(for: .milliseconds(50))
        }
        while Date() < deadline,
            ((try? String(contentsOfFile: dir.sub("opened"), encoding: .utf8)) ?? "").split(separator: "\n").count < 2
        {
            try await Task.sleep(for: .milliseconds(50))
        }
        let opened = try String(contentsOfFile: dir.sub("opened"), encoding: .utf8)
        #expect(opened == "1:https://makima.example/settings\n1:https://makima.example/settings\n")
    }
}
