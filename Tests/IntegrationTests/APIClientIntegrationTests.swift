import Foundation
import MakimaKit
import Testing

/// The client against the dev server: every endpoint decodes, errors map as documented.
@Suite(.serialized) struct APIClientIntegrationTests {
    @Test func everyEndpointDecodes() async throws {
        let server = try DevServer()
        let c = try server.client()

        let daemons = try await c.daemons()
        #expect(!daemons.items.isEmpty)
        #expect(daemons.skipped == 0)

        let all = try await c.tasks()
        #expect(!all.items.isEmpty)
        let running = try await c.tasks(status: .running)
        #expect(running.items.allSatisfy { $0.status == .running })
        let first = try #require(all.items.first)
        let one = try await c.task(id: first.id)
        #expect(one.id == first.id)
        if let contractID = first.contractID {
            let ofContract = try await c.tasks(contractID: contractID)
            #expect(ofContract.items.contains { $0.id == first.id })
            #expect(ofContract.items.allSatisfy { $0.contractID == contractID })
        }

        let page = try await c.taskOutput(id: first.id, afterSeq: 0, limit: 5)
        #expect(page.events.count <= 5)
        #expect(page.events.allSatisfy { $0.taskID == first.id })
        #expect(page.events.map(\.seq) == page.events.map(\.seq).sorted())
        if let last = page.events.last {
            let next = try await c.taskOutput(id: first.id, afterSeq: last.seq, limit: 5)
            #expect(next.events.allSatisfy { $0.seq > last.seq })
        }

        let contracts = try await c.contracts()
        #expect(!contracts.items.isEmpty)
        let active = try await c.contracts(status: .active)
        #expect(active.items.allSatisfy { $0.status == .active })
        let contract = try await c.contract(id: contracts.items[0].id)
        #expect(contract.id == contracts.items[0].id)

        let pending = try await c.directives(pending: true)
        #expect(pending.items.allSatisfy { $0.hasPendingQuestion })
        let directives = try await c.directives()
        #expect(directives.items.count >= pending.items.count)

        let sessions = try await c.listenSessions(limit: 1)
        #expect(sessions.items.count <= 1)
        if let s = sessions.items.first {
            let detail = try await c.listenSession(id: s.id)
            #expect(detail.id == s.id)
            #expect(detail.transcript != nil)
        }

        let keys = try await c.apiKeys()
        #expect(!keys.items.isEmpty)
        #expect(
            keys.items.allSatisfy {
                !$0.prefix.isEmpty && !server.apiKey.secret.isEmpty && $0.prefix != server.apiKey.secret
            })

        let health = try await c.health()
        #expect(health.status == "ok")
    }

    @Test(arguments: [401, 403, 404, 500, 503])
    func injectedFailuresMapToErrors(status: Int) async throws {
        let server = try DevServer()
        try server.control(path: "/_dev/fail", query: ["count": "1", "status": String(status)])
        let expected: APIError =
            switch status {
            case 401, 403: .unauthorized(status: status)
            case 404: .notFound
            default: .http(status: status, message: "injected failure")
            }
        await #expect(throws: expected) { try await server.client().daemons() }
        // Only one request failed: the next one works.
        let after = try await server.client().daemons()
        #expect(!after.items.isEmpty)
    }

    @Test func wrongKeyAndServerSideUnauthorizedAreUnauthorized() async throws {
        let server = try DevServer()
        await #expect(throws: APIError.unauthorized(status: 401)) {
            try await server.client(key: APIKey("mk_wrong_key_0000")!).contracts()
        }
        try server.control(path: "/_dev/unauthorized", query: ["on": "true"])
        await #expect(throws: APIError.unauthorized(status: 401)) { try await server.client().contracts() }
        try server.control(path: "/_dev/unauthorized", query: ["on": "false"])
        _ = try await server.client().contracts()
    }

    @Test func unknownTaskIsNotFound() async throws {
        let server = try DevServer()
        await #expect(throws: APIError.notFound) {
            try await server.client().task(id: "no-such-task-\(UUID().uuidString)")
        }
    }

    @Test func homeSummaryMatchesTheSeededTruth() async throws {
        let server = try DevServer(seed: 11)
        let summary = try await MeshSummary.fetch(using: server.client())
        let truth = try server.controlJSON(method: .get, path: "/_dev/seeded")
        #expect(summary.daemonsOnline == truth["daemons_online"] as? Int)
        #expect(summary.daemonsOffline == truth["daemons_offline"] as? Int)
        #expect(summary.runningTasks == truth["running_tasks"] as? Int)
        #expect(summary.activeContracts == truth["active_contracts"] as? Int)
        #expect(summary.pendingQuestions == truth["pending_questions"] as? Int)
        let latest = truth["latest_listen_session"] as? [String: Any]
        #expect(summary.latestListenSession?.id == latest.flatMap { $0["id"] }.map { "\($0)" })
    }

    @Test func restartKeepsTheDatabaseAndPort() async throws {
        let server = try DevServer()
        let before = try await server.client().tasks().items.map(\.id).sorted()
        let port = server.port
        try server.restart()
        #expect(server.port == port)
        let after = try await server.client().tasks().items.map(\.id)
        #expect(Set(before).isSubset(of: Set(after)))
    }
}
