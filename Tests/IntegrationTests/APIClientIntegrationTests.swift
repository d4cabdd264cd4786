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

        // Lists and details as the sync engine fetches them.
        let all = try await fetchOnThread(c) { try $0.items(.tasks(status: nil, contractID: nil), MeshTask.self) }
        #expect(!all.isEmpty)
        let running = try await fetchOnThread(c) {
            try $0.items(.tasks(status: .running, contractID: nil), MeshTask.self)
        }
        #expect(running.allSatisfy { $0.status == .running })
        let first = try #require(all.first)
        let one = try await fetchOnThread(c) { try $0.task(id: first.id) }
        #expect(one.id == first.id)
        if let contractID = first.contractID {
            let ofContract = try await fetchOnThread(c) {
                try $0.items(.tasks(status: nil, contractID: contractID), MeshTask.self)
            }
            #expect(ofContract.contains { $0.id == first.id })
            #expect(ofContract.allSatisfy { $0.contractID == contractID })
        }

        let page = try await fetchOnThread(c) { try $0.outputPage(taskID: first.id, afterSeq: 0, limit: 5) }
        #expect(page.events.count <= 5)
        #expect(page.events.allSatisfy { $0.taskID == first.id })
        #expect(page.events.map(\.seq) == page.events.map(\.seq).sorted())
        if let last = page.events.last {
            let next = try await fetchOnThread(c) { try $0.outputPage(taskID: first.id, afterSeq: last.seq, limit: 5) }
            #expect(next.events.allSatisfy { $0.seq > last.seq })
        }

        let contracts = try await fetchOnThread(c) { try $0.items(.contracts(status: nil), Contract.self) }
        #expect(!contracts.isEmpty)
        let active = try await fetchOnThread(c) { try $0.items(.contracts(status: .active), Contract.self) }
        #expect(active.allSatisfy { $0.status == .active })
        let contract = try await fetchOnThread(c) {
            try $0.detail(.contract(contracts[0].id))?.items(as: Contract.self)
        }
        #expect(contract?.map(\.id) == [contracts[0].id])

        let pending = try await fetchOnThread(c) { try $0.items(.directives(pendingOnly: true), Directive.self) }
        #expect(pending.allSatisfy { $0.hasPendingQuestion })
        let directives = try await fetchOnThread(c) { try $0.items(.directives(pendingOnly: false), Directive.self) }
        #expect(directives.count >= pending.count)

        let sessions = try await fetchOnThread(c) { try $0.items(.listenSessions(limit: 1), ListenSession.self) }
        #expect(sessions.count <= 1)
        if let s = sessions.first {
            let detail = try await fetchOnThread(c) {
                try $0.detail(.listen(s.id))?.items(as: ListenSession.self)?.first
            }
            #expect(detail?.id == s.id)
            #expect(detail?.transcript != nil)
        }

        let keys = try await c.apiKeys()
        #expect(!keys.items.isEmpty)
        #expect(
            keys.items.allSatisfy {
                !$0.prefix.isEmpty && !server.apiKey.secret.isEmpty && $0.prefix != server.apiKey.secret
            })
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
            try await fetchOnThread(server.client(key: APIKey("mk_wrong_key_0000")!)) {
                try $0.list(.contracts(status: nil))
            }
        }
        try server.control(path: "/_dev/unauthorized", query: ["on": "true"])
        await #expect(throws: APIError.unauthorized(status: 401)) {
            try await fetchOnThread(server.client()) { try $0.list(.contracts(status: nil)) }
        }
        try server.control(path: "/_dev/unauthorized", query: ["on": "false"])
        _ = try await fetchOnThread(server.client()) { try $0.list(.contracts(status: nil)) }
    }

    @Test func unknownTaskIsNotFound() async throws {
        let server = try DevServer()
        await #expect(throws: APIError.notFound) {
            try await fetchOnThread(server.client()) { try $0.task(id: "no-such-task-\(UUID().uuidString)") }
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
        let allTasks = ListQuery.tasks(status: nil, contractID: nil)
        let before = try await fetchOnThread(server.client()) { try $0.items(allTasks, MeshTask.self) }.map(\.id)
        let port = server.port
        try server.restart()
        #expect(server.port == port)
        let after = try await fetchOnThread(server.client()) { try $0.items(allTasks, MeshTask.self) }.map(\.id)
        #expect(Set(before).isSubset(of: Set(after)))
    }
}

/// The sync engine's fetches (`MeshFetcher`), each on a thread of its own (they block).
func fetchOnThread<T: Sendable>(_ client: APIClient, _ body: @escaping @Sendable (MeshFetcher) throws -> T) async throws
    -> T
{
    try await onDedicatedThread("test fetch") { try body(MeshFetcher(client: client)) }
}

extension MeshFetcher {
    /// Every page of a list, gathered, as its kind's items.
    func items<Item>(_ query: ListQuery, _ type: Item.Type) throws -> [Item] {
        try list(query).items(as: Item.self) ?? []
    }
}
