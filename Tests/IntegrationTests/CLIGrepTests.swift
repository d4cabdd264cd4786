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
}
