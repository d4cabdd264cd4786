import Foundation
import MakimaKit
import TestSupport
import Testing

/// `makima-tui grep` run as a subprocess over the cache of a dev server's tasks: the output
/// fetched from the server and cached as the engine caches it, plus lines a hostile server
/// could send (FTS syntax, the API key echoed back).
@Suite(.serialized, .timeLimit(.minutes(2))) struct CLIGrepTests {
    @Test func grepPrintsTaskIDAndLineAndExitsOneOnNoMatch() async throws {
        let server = try DevServer(seed: 11)
        let s = CLITests.Session()
        #expect(try s.login(server).status == 0)
        // The cache the CLI opens for this server (HOME is the session's directory).
        let environment = ["HOME": s.dir.path]
        let key = CacheLocation.profileKey(serverURL: try server.profile().baseURL.absoluteString)
        let store = try CacheStore.open(profileKey: key, environment: environment).store
        let client = try server.client()
        let task = try #require(
            try await fetchOnThread(client) { try $0.items(.tasks(status: nil, contractID: nil), MeshTask.self) }.first)
        let page = try await fetchOnThread(client) { try $0.outputPage(taskID: task.id, afterSeq: 0, limit: 500) }
        try store.appendEvents(page.events)
        let served = try #require(
            page.events.lazy.compactMap { e -> String? in
                guard case .output(let text, _) = e.payload else { return nil }
                return UntrustedText.stripSGR(text).split(separator: "\n").first { $0.count >= 8 }.map(String.init)
            }.first)
        let next = (page.events.map(\.seq).max() ?? 0) + 1
        let hostile = [
            "echo \"quoted\" AND (NOT x) OR y* col:val ^z",
            "the key is \(server.apiKey.secret) in\there",
        ]
        try store.appendEvents(
            hostile.enumerated().map { i, text in
                TaskEvent(
                    eventID: 900_000 + Int64(i), taskID: task.id, seq: next + i, type: .output,
                    payload: .output(text: text + "\n", stream: "tool"))
            })
        store.close()

        let found = try s.run(["grep", served])
        #expect(found.status == 0, "stderr: \(found.stderr)")
        let lines = found.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasPrefix("\(task.id)\t") && $0.hasSuffix("\t\(served.trimmingCharacters(in: .whitespaces))")
            })
        #expect(lines.allSatisfy { $0.split(separator: "\t").count == 3 && Int($0.split(separator: "\t")[1]) != nil })

        let syntax = try s.run(["grep", "\"quoted\" AND (NOT x) OR y*"])
        #expect(syntax.status == 0, "stderr: \(syntax.stderr)")
        #expect(syntax.stdout.hasPrefix("\(task.id)\t"))
        #expect(syntax.stdout.hasSuffix("\t\(hostile[0])\n"))

        let masked = try s.run(["grep", "the key is"])
        #expect(masked.status == 0)
        #expect(masked.stdout.hasPrefix("\(task.id)\t"))
        #expect(masked.stdout.contains("\tthe key is "))
        #expect(!masked.stdout.contains(server.apiKey.secret))

        let none = try s.run(["grep", "no-such-text-anywhere"])
        #expect(none.status == 1)
        #expect(none.stdout.isEmpty)
        #expect(try s.run(["grep"]).status == 2)
        #expect(s.neverPrinted(server.apiKey.secret))
    }

    /// Output the dev server streams in pieces of 1 to 40 characters cut anywhere, cached as
    /// the engine caches it: every line is found whole, with its number, one hit a line.
    @Test func linesStreamedInPiecesAreFoundWhole() async throws {
        let server = try DevServer(seed: 11, extra: ["--output-pieces", "1,40"])
        let s = CLITests.Session()
        #expect(try s.login(server).status == 0)
        let environment = ["HOME": s.dir.path]
        let key = CacheLocation.profileKey(serverURL: try server.profile().baseURL.absoluteString)
        let created = try server.controlJSON(path: "/_dev/task", query: ["title": "streamed report"])
        let id = try #require(created["id"] as? String)
        let report = """
            ## Findings

            The **scheduler** drops `heartbeat` frames when *busy*.

            - the first point: frames queue behind the writer

            checking disk quota
            writing to disk
            FAILED: disk full

            """
        let written = try server.controlJSON(
            path: "/_dev/hostile/output_text", query: ["task_id": id, "text": report])
        // The server did cut it: several events (of 20 characters on average).
        #expect((written["events"] as? Int ?? 0) >= 5)
        let page = try await fetchOnThread(server.client()) { try $0.outputPage(taskID: id, afterSeq: 0, limit: 500) }
        let store = try CacheStore.open(profileKey: key, environment: environment).store
        try store.appendEvents(page.events)
        store.close()

        func grep(_ pattern: String) throws -> [String] {
            let run = try s.run(["grep", pattern])
            #expect(run.status == 0, "\(pattern): \(run.stderr)")
            return run.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try grep("heartbeat") == ["\(id)\t3\tThe **scheduler** drops `heartbeat` frames when *busy*."])
        #expect(try grep("scheduler") == ["\(id)\t3\tThe **scheduler** drops `heartbeat` frames when *busy*."])
        #expect(try grep("Findings") == ["\(id)\t1\t## Findings"])
        #expect(try grep("first point") == ["\(id)\t5\t- the first point: frames queue behind the writer"])
        #expect(
            try grep("disk") == [
                "\(id)\t9\tFAILED: disk full", "\(id)\t8\twriting to disk", "\(id)\t7\tchecking disk quota",
            ])
        #expect(s.neverPrinted(server.apiKey.secret))
    }

    /// `-C N` over output streamed in pieces of 1 to 40 characters: each hit with N lines of
    /// its task's cached output either side, GNU grep's `id:n:hit` / `id-n-context` form,
    /// windows that touch joined, `--` between groups; context lines whole, cleaned and masked.
    @Test func contextLinesAroundHitsGrepStyle() async throws {
        let server = try DevServer(seed: 11, extra: ["--output-pieces", "1,40"])
        let s = CLITests.Session()
        #expect(try s.login(server).status == 0)
        let created = try server.controlJSON(path: "/_dev/task", query: ["title": "context report"])
        let id = try #require(created["id"] as? String)
        let report = """
            alpha one
            \tindented\there
            the key is \(server.apiKey.secret) here
            beta two
            gamma three
            beta four
            delta five
            epsilon six
            zeta seven
            beta eight

            """
        let written = try server.controlJSON(path: "/_dev/hostile/output_text", query: ["task_id": id, "text": report])
        #expect((written["events"] as? Int ?? 0) >= 5)
        let page = try await fetchOnThread(server.client()) { try $0.outputPage(taskID: id, afterSeq: 0, limit: 500) }
        let key = CacheLocation.profileKey(serverURL: try server.profile().baseURL.absoluteString)
        let store = try CacheStore.open(profileKey: key, environment: ["HOME": s.dir.path]).store
        try store.appendEvents(page.events)
        store.close()

        func grep(_ args: String...) throws -> [String] {
            let run = try s.run(["grep"] + args)
            #expect(run.status == 0, "\(args): \(run.stderr)")
            return run.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        }
        // Newest group first; in a group, reading order. 4 and 6 are two apart: one group.
        let beta = try grep("-C", "1", "beta")
        #expect(beta.count == 8, "\(beta)")
        #expect(
            Array(beta.prefix(3)) == ["\(id)-9-zeta seven", "\(id):10:beta eight", "--"]
                && Array(beta.suffix(4)) == [
                    "\(id):4:beta two", "\(id)-5-gamma three", "\(id):6:beta four", "\(id)-7-delta five",
                ], "\(beta)")
        // A context line is cleaned and masked as a hit is.
        #expect(beta.dropFirst(3).first?.hasPrefix("\(id)-3-the key is mk_") == true, "\(beta)")
        // -C 0: the hits alone, `--` between those not next to each other.
        #expect(
            try grep("--context=0", "beta") == [
                "\(id):10:beta eight", "--", "\(id):6:beta four", "--", "\(id):4:beta two",
            ])
        // At the first line there is nothing above; a context line keeps its indent.
        let alpha = try grep("--context", "2", "alpha")
        #expect(alpha.count == 3 && alpha.first == "\(id):1:alpha one", "\(alpha)")
        #expect(alpha.dropFirst().first?.hasPrefix("\(id)-2- ") == true, "\(alpha)")
        #expect(alpha.dropFirst().first?.hasSuffix("indented        here") == true, "tabs as the cache keeps them")
        #expect(alpha.last?.hasPrefix("\(id)-3-the key is mk_") == true)
        // Without -C the form is as before.
        #expect(try grep("gamma") == ["\(id)\t5\tgamma three"])

        for bad in ["51", "-1", "x", ""] {
            let run = try s.run(["grep", "-C", bad, "beta"])
            #expect(run.status == 2, "-C '\(bad)'")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.split(separator: "\n").count == 1)
        }
        #expect(try s.run(["grep", "-C", "51", "beta"]).stderr.contains("0 to 50"))
        #expect(try s.run(["grep", "-C", "2", "no-such-text-anywhere"]).status == 1)
        #expect(s.neverPrinted(server.apiKey.secret))
    }
}
