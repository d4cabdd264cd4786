import Foundation
import MakimaKit
import MakimaTUI
import TestSupport
import Testing

/// The built `makima-tui` binary run as a subprocess against the dev server.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CLITests {
    /// Runs the CLI with its own config dir and HOME; remembers every output for the leak check.
    final class Session {
        let dir = TempDirectory()
        var outputs: [String] = []
        var configDir: String { dir.sub("config") }

        @discardableResult
        func run(_ args: [String], env: [String: String] = [:], stdin: String? = nil) throws -> CLIRunner.Result {
            let r = try CLIRunner.run(
                args, environment: ["MAKIMA_CONFIG_DIR": configDir].merging(env) { _, n in n }, stdin: stdin,
                home: dir.path)
            outputs += [r.stdout, r.stderr]
            return r
        }

        @discardableResult
        func login(_ server: DevServer) throws -> CLIRunner.Result {
            try run(["login", "--server", server.baseURL.absoluteString], stdin: server.apiKey.secret + "\n")
        }

        /// True when `secret` appears in nothing the CLI printed.
        func neverPrinted(_ secret: String) -> Bool { !outputs.contains { $0.contains(secret) } }
    }

    @Test func loginStoresTheKeyPrivatelyAndPrintsItMasked() throws {
        let server = try DevServer()
        let s = Session()
        let r = try s.login(server)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stdout.contains(server.apiKey.displayMasked))
        let creds = s.configDir + "/credentials"
        let files = try FileManager.default.contentsOfDirectory(atPath: creds)
        #expect(files.count == 1)
        var st = stat()
        #expect(stat(creds + "/" + files[0], &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(stat(creds, &st) == 0 && st.st_mode & 0o777 == 0o700)
        #expect(s.neverPrinted(server.apiKey.secret))
    }

    @Test func statusJSONMatchesTheSeededTruth() throws {
        let server = try DevServer(seed: 3)
        let s = Session()
        try s.login(server)
        let r = try s.run(["status", "--json"])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.stderr.isEmpty)
        #expect(r.stdout.split(separator: "\n").count == 1, "one JSON object on one line")
        let got = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let truth = try server.controlJSON(method: .get, path: "/_dev/seeded")
        #expect(
            Set(got.keys) == [
                "server", "daemons_online", "daemons_offline", "running_tasks", "active_contracts", "pending_questions",
                "latest_listen_session", "last_hour",
            ])
        #expect(got["server"] as? String == server.baseURL.absoluteString)
        for key in ["daemons_online", "daemons_offline", "running_tasks", "active_contracts", "pending_questions"] {
            #expect(got[key] as? Int == truth[key] as? Int, "\(key)")
        }
        if let expected = truth["latest_listen_session"] as? [String: Any] {
            let latest = try #require(got["latest_listen_session"] as? [String: Any])
            #expect("\(latest["id"] ?? "")" == "\(expected["id"] ?? "-")")
            let expectedTitle = (expected["title"] as? String).map { UntrustedText.stripSGR(UntrustedText.clean($0)) }
            #expect(latest["title"] as? String == expectedTitle)
            let gotDate = (latest["started_at"] as? String).flatMap(RFC3339.parse)
            let wantDate = (expected["started_at"] as? String).flatMap(RFC3339.parse)
            #expect(gotDate != nil && gotDate == wantDate)
        } else {
            #expect(got["latest_listen_session"] is NSNull)
        }
    }

    @Test func statusTmuxAndHumanFormsCarryTheSameNumbers() throws {
        let server = try DevServer(seed: 5)
        let s = Session()
        try s.login(server)
        let truth = try server.controlJSON(method: .get, path: "/_dev/seeded")
        let online = try #require(truth["daemons_online"] as? Int)
        let offline = try #require(truth["daemons_offline"] as? Int)
        let running = try #require(truth["running_tasks"] as? Int)
        let pending = try #require(truth["pending_questions"] as? Int)
        let tmux = try s.run(["status", "--tmux"])
        #expect(tmux.status == 0)
        #expect(tmux.stdout == "MK ●\(online)/\(online + offline) ▶\(running)\(pending > 0 ? " ?\(pending)" : "")\n")
        let human = try s.run(["status"])
        #expect(human.status == 0)
        #expect(human.stdout.contains("\(online) online / \(offline) offline"))
        #expect(human.stdout.contains("\(pending) pending"))
        let printable = human.stdout.unicodeScalars.allSatisfy {
            $0 == "\n" || $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value)
        }
        #expect(printable, "no control characters from the server reach the terminal")
    }

    @Test func unauthorizedExitsWith4AndSaysSo() throws {
        let server = try DevServer()
        let s = Session()
        try s.login(server)
        try server.control(path: "/_dev/unauthorized", query: ["on": "true"])
        let r = try s.run(["status"])
        #expect(r.status == 4)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("makima-tui: unauthorized"))
        #expect(r.stderr.split(separator: "\n").count == 1)
        let tmux = try s.run(["status", "--tmux"])
        #expect(tmux.status == 4)
        #expect(tmux.stdout == "MK !auth\n")
        let wrong = "mk_wrong_env_key_4242"
        let viaEnv = try s.run(["status", "--json"], env: ["MAKIMA_API_KEY": wrong])
        #expect(viaEnv.status == 4)
        #expect(s.neverPrinted(server.apiKey.secret))
        #expect(s.neverPrinted(wrong))
    }

    @Test func closedPortExitsWith5() throws {
        let server = try DevServer()
        let s = Session()
        try s.login(server)
        server.stop()
        let r = try s.run(["status", "--json"])
        #expect(r.status == 5)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("cannot reach server"))
        #expect(s.neverPrinted(server.apiKey.secret))
    }

    @Test func serverErrorsExitWith6() throws {
        let server = try DevServer()
        let s = Session()
        try s.login(server)
        try server.control(path: "/_dev/fail", query: ["count": "5", "status": "500"])
        let r = try s.run(["status"])
        #expect(r.status == 6)
        #expect(r.stderr.contains("HTTP 500"))
        #expect(r.stderr.contains("injected failure"))
    }

    @Test func logsOfAnUnknownTaskExitsWith7AndShortFollowIsAccepted() throws {
        let server = try DevServer(seed: 3, rate: 0)
        let s = Session()
        try s.login(server)
        let missing = try s.run(["logs", "no-such-task"])
        #expect(missing.status == 7, "stderr: \(missing.stderr)")
        #expect(missing.stdout.isEmpty)
        let task = try server.controlJSON(path: "/_dev/task", query: ["status": "completed"])["id"] as! String
        _ = try server.control(path: "/_dev/burst", query: ["task_id": task, "count": "3"])
        // A finished task: -f prints what there is and ends, as --follow does.
        let short = try s.run(["logs", "-f", task])
        #expect(short.status == 0, "stderr: \(short.stderr)")
        #expect(short.stdout.contains("burst line 3 of 3"))
        let help = try s.run(["logs", "--help"])
        #expect(help.stdout.contains("-f, --follow"))
    }

    @Test func aBareHostAndPortSpeakingPlainHTTPIsToldToUseHTTP() throws {
        let server = try DevServer()
        let s = Session()
        let bare = "127.0.0.1:\(server.baseURL.port!)"
        let r = try s.run(["login", "--server", bare], stdin: server.apiKey.secret + "\n")
        #expect(r.status == 2, "stderr: \(r.stderr)")
        #expect(r.stderr.contains("answers plain HTTP, not HTTPS: use http://\(bare)"), "stderr: \(r.stderr)")
        #expect(!r.stderr.contains("wrong version number"))
    }

    @Test func notConfiguredExitsWith3() throws {
        let s = Session()
        let r = try s.run(["status"])
        #expect(r.status == 3)
        #expect(r.stderr.contains("makima-tui login"))
        let otherServer = try s.run(["status", "--server", "https://makima.example"])
        #expect(otherServer.status == 3)
        #expect(otherServer.stderr.contains("MAKIMA_API_KEY"))
    }

    @Test func environmentOverridesWorkWithoutAnyConfig() throws {
        let server = try DevServer()
        let s = Session()
        let r = try s.run(
            ["status", "--json"],
            env: ["MAKIMA_SERVER_URL": server.baseURL.absoluteString, "MAKIMA_API_KEY": server.apiKey.secret])
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: s.configDir + "/config.json"), "overrides are not persisted")
        #expect(s.neverPrinted(server.apiKey.secret))
    }

    @Test func loginWithARejectedOrMalformedKeyStoresNothing() throws {
        let server = try DevServer()
        let s = Session()
        let rejected = try s.run(["login", "--server", server.baseURL.absoluteString], stdin: "mk_rejected_key_777\n")
        #expect(rejected.status == 4)
        let malformed = try s.run(["login", "--server", server.baseURL.absoluteString], stdin: "sk-not-makima\n")
        #expect(malformed.status == 2)
        #expect(malformed.stderr.contains("mk_"))
        let injected = try s.run(["login", "--server", server.baseURL.absoluteString], stdin: "mk_abc\r\nX-Evil: 1\n")
        #expect(injected.status == 2)
        let insecure = try s.run(["login", "--server", "http://makima.example"], stdin: "mk_whatever_key_1\n")
        #expect(insecure.status == 2)
        #expect(insecure.stderr.contains("--allow-insecure-http"))
        #expect(!FileManager.default.fileExists(atPath: s.configDir + "/config.json"))
        #expect(s.neverPrinted("mk_rejected_key_777"))
        #expect(s.neverPrinted("mk_whatever_key_1"))
    }

    @Test func logoutRemovesTheKeyAndStatusThenNeedsLogin() throws {
        let server = try DevServer()
        let s = Session()
        try s.login(server)
        let out = try s.run(["logout"])
        #expect(out.status == 0)
        #expect(out.stdout.contains("logged out"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: s.configDir + "/credentials").isEmpty)
        #expect(try s.run(["status"]).status == 3)
        let again = try s.run(["logout"])
        #expect(again.status == 0)
        #expect(again.stdout.contains("not logged in"))
        #expect(s.neverPrinted(server.apiKey.secret))
    }

    /// On a terminal the key is typed at a prompt with echo off: run under a real pty.
    @Test(arguments: [true, false])
    func loginPromptOnATerminalDoesNotEchoTheKey(typesKey: Bool) throws {
        let server = try DevServer()
        let s = Session()
        let typed = typesKey ? server.apiKey.secret + "\r" : "\u{3}"
        let script = """
            import os, pty, signal, sys
            signal.alarm(30)  # never hang the test run
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:2] + ["login", "--server", sys.argv[2]])
            out = b""
            while b"(input hidden)" not in out:
                out += os.read(fd, 1024)
            os.write(fd, sys.argv[3].encode())
            while True:
                try:
                    chunk = os.read(fd, 1024)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(out.decode("utf-8", "replace"))
            sys.exit(os.WEXITSTATUS(status))
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, CLIRunner.binary, server.baseURL.absoluteString, typed]
        p.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": s.dir.path,
            "MAKIMA_CONFIG_DIR": s.configDir, "LANG": "C.UTF-8",
        ]
        let out = Pipe.closedOnExec()
        p.standardOutput = out
        try p.run()
        let transcript = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let leaked = transcript.contains(server.apiKey.secret)
        #expect(!leaked, "the typed key was echoed")
        #expect(transcript.contains("API key for"))
        if typesKey {
            #expect(p.terminationStatus == 0, "transcript: \(transcript)")
            #expect(transcript.contains("logged in"))
            #expect(transcript.contains(server.apiKey.displayMasked))
        } else {
            #expect(p.terminationStatus == 2, "Ctrl-C aborts the prompt")
            #expect(transcript.contains("no key entered"))
        }
    }

    @Test(arguments: [
        ["frobnicate"], ["--frobnicate"], ["status", "--verbose"], ["status", "--json", "--tmux"],
        ["status", "extra"], ["--server"], ["--config-dir="], ["logout", "--json"], ["help", "nope"], ["--version=2"],
    ])
    func usageErrorsExitWith2WithOneLine(args: [String]) throws {
        let r = try Session().run(args)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("makima-tui: "))
        #expect(r.stderr.split(separator: "\n").count == 1)
    }

    @Test func aLaunchLinkIsParsedAmongTheDestinationsKinds() throws {
        let s = Session()
        let unknown = try s.run(["makima://memo/m1"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("not a link the dashboard can open: 'makima://memo/m1'"))
        for kind in DeepLink.openedKinds {
            #expect(unknown.stderr.contains("\(kind)"), "the usage names \(kind)")
        }
        // A link of a destination's kind is taken; without a terminal the dashboard stops there.
        let known = try s.run(["makima://contract/c1"])
        #expect(known.status == 1 && known.stderr.contains("must be a terminal"), "\(known.stderr)")
    }

    @Test func helpVersionAndDashboardNeedsATerminal() throws {
        let s = Session()
        let version = try s.run(["--version"])
        #expect(version.status == 0)
        // The version, then the commit the binary was built from (`make build` writes it).
        #expect(version.stdout.hasPrefix("makima-tui \(MakimaVersion.current) (commit "))
        #expect(version.stdout.hasSuffix(")\n") && !version.stdout.dropLast().contains("\n"))
        let help = try s.run(["--help"])
        #expect(help.status == 0)
        for word in [
            "status", "login", "logout", "--server", "--allow-insecure-http", "--config-dir", "MAKIMA_API_KEY",
        ] {
            #expect(help.stdout.contains(word), "help mentions \(word)")
        }
        let statusHelp = try s.run(["status", "-h"])
        #expect(statusHelp.status == 0)
        #expect(statusHelp.stdout.contains("--tmux"))
        // Without a terminal the dashboard says so instead of drawing into a pipe.
        let dashboard = try s.run([])
        #expect(dashboard.status == 1)
        #expect(dashboard.stderr.contains("must be a terminal"))
        #expect(dashboard.stdout.isEmpty)
    }
}
