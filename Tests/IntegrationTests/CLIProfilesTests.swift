import Foundation
import MakimaKit
import TestSupport
import Testing

/// Named profiles through the built binary against two dev servers, each taking only its own
/// key (so a key sent to the other profile's server would be refused): `login --name`,
/// `profiles`, `--profile` and `MAKIMA_PROFILE`, `logout --name`, and a config written before
/// names existed.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CLIProfilesTests {
    typealias Session = CLITests.Session

    func login(_ s: Session, _ name: String, _ server: DevServer) throws -> CLIRunner.Result {
        try s.run(
            ["login", "--name", name, "--server", server.baseURL.absoluteString], stdin: server.apiKey.secret + "\n")
    }

    func keyFiles(_ s: Session) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: s.configDir + "/credentials")) ?? []).count
    }

    @Test("two named profiles: listed, each chosen by --profile or MAKIMA_PROFILE with its own key")
    func twoNamedProfiles() throws {
        let staging = try DevServer(demoKey: "mk_profile_staging_0001")
        let prod = try DevServer(demoKey: "mk_profile_prod_00000002")
        let s = Session()
        let first = try login(s, "staging", staging)
        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(first.stdout.hasSuffix("(profile staging)\n"))
        #expect(try login(s, "prod", prod).status == 0)
        #expect(keyFiles(s) == 2)

        let names = try s.run(["profiles", "--names"])
        #expect(names.stdout == "staging\nprod\n")
        let table = try s.run(["profiles"])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(table.stdout)")
        #expect(
            lines.contains {
                $0.hasPrefix("* prod") && $0.contains(prod.baseURL.absoluteString) && $0.hasSuffix("stored")
            })
        #expect(lines.contains { $0.hasPrefix("  staging") && $0.contains(staging.baseURL.absoluteString) })
        let json = try s.run(["profiles", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: [[String: Any]]]
        #expect(object?["profiles"]?.map { $0["name"] as? String } == ["staging", "prod"])
        #expect(object?["profiles"]?.map { $0["active"] as? Bool } == [false, true])

        // Each run reaches its profile's server with that profile's key: the other server
        // would refuse it (exit 4).
        #expect(try s.run(["status", "--json"]).status == 0)
        let byFlag = try s.run(["status", "--json", "--profile", "staging"])
        #expect(byFlag.status == 0, "stderr: \(byFlag.stderr)")
        let byEnvironment = try s.run(["status", "--json"], env: ["MAKIMA_PROFILE": "staging"])
        #expect(byEnvironment.status == 0, "stderr: \(byEnvironment.stderr)")
        let requests = try staging.controlJSON(method: .get, path: "/_dev/requests")
        #expect((requests["total"] as? Int ?? 0) > 0)

        let unknown = try s.run(["status", "--profile", "nope"])
        #expect(unknown.status == 3)
        #expect(unknown.stderr.contains("no profile named 'nope' (stored: staging, prod)"))
        let both = try s.run(["status", "--profile", "staging", "--server", prod.baseURL.absoluteString])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--profile and --server both choose the server"))
        #expect(s.neverPrinted(staging.apiKey.secret) && s.neverPrinted(prod.apiKey.secret))
    }

    @Test("logout --name removes that profile and its key only")
    func logoutByName() throws {
        let staging = try DevServer(demoKey: "mk_profile_staging_0001")
        let prod = try DevServer(demoKey: "mk_profile_prod_00000002")
        let s = Session()
        #expect(try login(s, "staging", staging).status == 0)
        #expect(try login(s, "prod", prod).status == 0)
        let out = try s.run(["logout", "--name", "staging"])
        #expect(out.status == 0, "stderr: \(out.stderr)")
        #expect(out.stdout == "removed profile staging (\(staging.baseURL.absoluteString))\n")
        #expect(try s.run(["profiles", "--names"]).stdout == "prod\n")
        #expect(keyFiles(s) == 1)
        #expect(try s.run(["status", "--json"]).status == 0)
        let gone = try s.run(["logout", "--name", "staging"])
        #expect(gone.status == 3)
        #expect(gone.stderr.contains("no profile named 'staging' (stored: prod)"))
    }

    @Test("one server, two names: two profiles, each with its own key file")
    func twoNamesOneServer() throws {
        let server = try DevServer()
        let s = Session()
        #expect(try login(s, "team", server).status == 0)
        #expect(try login(s, "mine", server).status == 0)
        #expect(try s.run(["profiles", "--names"]).stdout == "team\nmine\n")
        #expect(keyFiles(s) == 2)
        // Logging in again under a name updates that profile, adding none.
        #expect(try login(s, "team", server).status == 0)
        #expect(try s.run(["profiles", "--names"]).stdout == "team\nmine\n")
        let bad = try s.run(["login", "--name", "has space", "--server", server.baseURL.absoluteString], stdin: "x\n")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'has space' cannot name a profile"))
    }

    @Test("a config stored before names existed keeps working, its profile named by its host")
    func configFromBeforeNames() throws {
        let server = try DevServer()
        let s = Session()
        let host = "127.0.0.1:\(server.baseURL.port ?? 0)"
        let profileID = UUID().uuidString
        let credentialID = UUID().uuidString.lowercased()
        let config = """
            {"version":1,"active_profile_id":"\(profileID)","profiles":[{"id":"\(profileID)","label":"\(host)",\
            "base_url":"\(server.baseURL.absoluteString)","credential_id":"\(credentialID)",\
            "allow_insecure_http":false}],"settings":{"theme":"light"}}
            """
        try FileManager.default.createDirectory(atPath: s.configDir + "/credentials", withIntermediateDirectories: true)
        try Data(config.utf8).write(to: URL(fileURLWithPath: s.configDir + "/config.json"))
        let keyPath = s.configDir + "/credentials/\(credentialID).key"
        try Data((server.apiKey.secret + "\n").utf8).write(to: URL(fileURLWithPath: keyPath))
        chmod(keyPath, 0o600)
        chmod(s.configDir + "/credentials", 0o700)
        chmod(s.configDir, 0o700)
        #expect(try s.run(["status", "--json"]).status == 0)
        let table = try s.run(["profiles"])
        #expect(table.stdout.contains("* \(host)"), "\(table.stdout)")
        #expect(try s.run(["status", "--json", "--profile", host]).status == 0)
    }

    @Test("status --all: every mesh's numbers with its own key, a dead one said in its place")
    func statusAll() throws {
        let staging = try DevServer(demoKey: "mk_profile_staging_0001")
        let prod = try DevServer(demoKey: "mk_profile_prod_00000002")
        let dead = try DevServer(demoKey: "mk_profile_dead_00000003")
        let s = Session()
        #expect(try login(s, "staging", staging).status == 0)
        #expect(try login(s, "prod", prod).status == 0)
        #expect(try login(s, "dead", dead).status == 0)
        dead.stop()
        // A key in the environment is for one run against one server, never sent to all.
        let json = try s.run(["status", "--all", "--json"], env: ["MAKIMA_API_KEY": staging.apiKey.secret])
        #expect(json.status == 5, "stderr: \(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: [[String: Any]]]
        let rows = try #require(object?["profiles"])
        #expect(rows.map { $0["profile"] as? String } == ["staging", "prod", "dead"])
        #expect(rows[0]["server"] as? String == staging.baseURL.absoluteString)
        #expect(rows[0]["running_tasks"] is Int && rows[1]["running_tasks"] is Int)
        #expect(rows[2]["exit_code"] as? Int == 5)
        #expect(rows[2]["running_tasks"] == nil)
        let tmux = try s.run(["status", "--all", "--tmux"])
        let line = tmux.stdout.trimmingCharacters(in: .newlines)
        #expect(!line.contains("\n"))
        #expect(
            line.hasPrefix("MK staging ▶") && line.contains(" · prod ▶") && line.hasSuffix(" · dead !offline"),
            "\(line)")
        let human = try s.run(["status", "--all"])
        #expect(human.stdout.contains("[prod] MAKIMA  \(prod.baseURL.absoluteString)"))
        #expect(try s.run(["status", "--all", "--profile", "prod"]).status == 2)
        #expect(s.neverPrinted(staging.apiKey.secret) && s.neverPrinted(prod.apiKey.secret))
    }

    @Test("status --all --tmux: a mesh that never answers is said !slow, the healthy one printed beside it")
    func statusAllWithAHangingMesh() throws {
        let good = try DevServer(demoKey: "mk_profile_good_00000001")
        let hang = try DevServer(demoKey: "mk_profile_hang_00000002")
        let s = Session()
        #expect(try login(s, "good", good).status == 0)
        #expect(try login(s, "hang", hang).status == 0)
        // Accepts every request and holds it for an hour: curl's own timeouts would take 30 s.
        _ = try hang.controlJSON(path: "/_dev/latency", query: ["ms": "3600000"])
        let tmux = try s.run(["status", "--all", "--tmux"])
        let line = tmux.stdout.trimmingCharacters(in: .newlines)
        #expect(line.hasPrefix("MK good ▶") && line.hasSuffix(" · hang !slow"), "\(line)")
        #expect(tmux.status == 5)
        #expect(s.neverPrinted(good.apiKey.secret) && s.neverPrinted(hang.apiKey.secret))
    }
}

/// A second mesh that answers every request with a redirect to another host, a body that never
/// ends, or a body that is not JSON: `status --all` prints the healthy mesh as ever, says the
/// hostile one in its place with a clear error, and nothing (the key least of all) reaches the
/// host the redirect names.
@Suite(.serialized, .timeLimit(.minutes(2))) struct CLIHostileSecondMeshTests {
    typealias Session = CLITests.Session

    @Test(arguments: ["redirect", "huge", "malformed"])
    func aHostileSecondMeshLeavesTheFirstLive(mode: String) throws {
        let good = try DevServer(demoKey: "mk_profile_good_00000001")
        let bad = try DevServer(demoKey: "mk_profile_bad_000000002")
        let elsewhere = try DevServer(demoKey: "mk_profile_else_00000003")
        let s = Session()
        for (name, server) in [("good", good), ("bad", bad)] {
            let login = try s.run(
                ["login", "--name", name, "--server", server.baseURL.absoluteString],
                stdin: server.apiKey.secret + "\n")
            #expect(login.status == 0)
        }
        // Another host name for the same loopback: what a redirect to another host looks like.
        let target = "http://localhost:\(elsewhere.baseURL.port ?? 0)"
        _ = try bad.controlJSON(path: "/_dev/hostile/rest", query: ["mode": mode, "to": target])
        _ = try elsewhere.controlJSON(path: "/_dev/requests/reset")
        let json = try s.run(["status", "--all", "--json"])
        #expect(json.status == 6, "stderr: \(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: [[String: Any]]]
        let rows = try #require(object?["profiles"])
        #expect(rows.map { $0["profile"] as? String } == ["good", "bad"])
        #expect(rows[0]["running_tasks"] is Int)
        #expect(rows[1]["running_tasks"] == nil)
        let error = try #require(rows[1]["error"] as? String)
        let said =
            [
                "redirect": "redirect (HTTP 302), which is not followed", "huge": "larger than",
                "malformed": "unexpected answer",
            ][mode] ?? "?"
        #expect(error.contains(said), "\(error)")
        let reached = try elsewhere.controlJSON(method: .get, path: "/_dev/requests")
        #expect(reached["total"] as? Int == 0)
        #expect(s.neverPrinted(good.apiKey.secret) && s.neverPrinted(bad.apiKey.secret))
    }
}

/// Names typed on the command line carrying escape sequences, newlines and shell syntax: each
/// refusal names what was typed as text, never as a control sequence a terminal would act on.
@Suite(.timeLimit(.minutes(1))) struct CLIHostileNamesTests {
    typealias Session = CLITests.Session

    @Test(arguments: [
        ["--profile", "\u{1B}]0;pwned\u{07}$(id)", "status"], ["logout", "--name", "\u{1B}[31mred\u{1B}[0m"],
        ["login", "--name", "a\nb\u{9B}2J", "--server", "http://127.0.0.1:1"], ["open", "\u{1B}[2Jx"],
        ["status", "--profile", "`id`;\u{7F}"],
    ])
    func aHostileNameIsRefusedAsText(args: [String]) throws {
        let s = Session()
        let result = try s.run(args, stdin: "")
        #expect(result.status != 0)
        for text in [result.stdout, result.stderr] {
            let controls = text.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
            }
            #expect(controls.isEmpty, "\(args): \(text.debugDescription)")
        }
        #expect(!result.stderr.isEmpty, "\(args): a refusal says why")
    }
}
