import Foundation
import MakimaKit
import Synchronization
import TestSupport
import Testing

/// The background reads of the meshes not on screen against real dev servers, each taking
/// only its own key: the numbers are those `status` counts, a dead server is said unreachable
/// and backed off, a question raised on a background mesh is announced naming it once the
/// first read set the baseline, and a server that never answers holds only the background
/// reader's thread, never the mesh on screen. The clock is the test's: moving it and `poke()`
/// brings the next read, no test waits a minute.
@Suite(.timeLimit(.minutes(4))) struct BackgroundMeshesTests {
    /// Stored profiles (keys from `login --name`) for `servers`, as `MeshProfiles` lists them.
    func profiles(_ servers: [(String, DevServer)]) throws -> (CLITests.Session, [MeshProfile]) {
        let s = CLITests.Session()
        for (name, server) in servers {
            let login = try s.run(
                ["login", "--name", name, "--server", server.baseURL.absoluteString],
                stdin: server.apiKey.secret + "\n")
            #expect(login.status == 0, "stderr: \(login.stderr)")
        }
        return (s, try MeshProfiles.load(ConfigLocation(directory: s.configDir)))
    }

    typealias Outcome = Result<MeshReading, MeshReadFailure>

    /// A reader of `meshes` on `clock`, each mesh's outcomes in a stream of its own.
    func reader(_ s: CLITests.Session, _ meshes: [MeshProfile], clock: TestClock) -> (
        BackgroundMeshReader, [String: AsyncStream<Outcome>.Iterator]
    ) {
        var sinks: [String: AsyncStream<Outcome>.Continuation] = [:]
        var its: [String: AsyncStream<Outcome>.Iterator] = [:]
        for m in meshes {
            let (stream, sink) = AsyncStream.makeStream(of: Outcome.self)
            sinks[m.name] = sink
            its[m.name] = stream.makeAsyncIterator()
        }
        let deliver = sinks
        let reader = BackgroundMeshReader(
            credentials: CredentialStore(location: ConfigLocation(directory: s.configDir)), clock: { clock.read },
            deliver: { deliver[$0.name]?.yield($0.outcome) })
        reader.setTargets(meshes)
        return (reader, its)
    }

    /// A minute on: the next turn.
    func turn(_ reader: BackgroundMeshReader, _ clock: TestClock) {
        clock.advance(60)
        reader.poke()
    }

    @Test func aBackgroundMeshIsCountedBackedOffAndAnnouncedUnderItsName() async throws {
        let staging = try DevServer(seed: 21, demoKey: "mk_mesh_staging_00000001")
        let dead = try DevServer(demoKey: "mk_mesh_dead_0000000002")
        let (s, meshes) = try profiles([("staging", staging), ("dead", dead)])
        dead.stop()
        #expect(meshes.map(\.name) == ["staging", "dead"] && meshes.allSatisfy(\.keyStored))
        let clock = TestClock()
        var (reader, its) = reader(s, meshes, clock: clock)
        defer { reader.stop() }
        reader.start()
        var alerts = MeshAlerts()
        var glance = MeshGlance()

        // One figure a turn (staging answers with its own key: the dev server takes no
        // other); dead is unreachable from its first read on.
        for i in 0..<MeshFigure.allCases.count {
            if i > 0 { turn(reader, clock) }
            let reading = try #require(try await its["staging"]?.next()?.get())
            #expect(reading.figure == MeshFigure.allCases[i])
            await MainActor.run { glance.file(reading) }
            #expect(alerts.observe("staging", glance).isEmpty, "a figure's first read is its baseline")
        }
        if case .success = try #require(await its["dead"]?.next()) { Issue.record("a stopped server answered") }
        // The numbers `status` counts.
        let client = try MeshProfiles.client(
            for: meshes[0].profile, credentials: CredentialStore(location: ConfigLocation(directory: s.configDir)))
        let summary = try await MeshSummary.fetch(using: client)
        let running = try #require(glance.running)
        #expect(glance.atLeast.contains(.running) ? running <= summary.runningTasks : running == summary.runningTasks)
        #expect(glance.questions == summary.pendingQuestions)

        // A question raised and a task failed on staging: the turns reading them announce
        // them, naming the mesh; the same again says nothing.
        _ = try staging.controlJSON(path: "/_dev/question", query: ["text": "roll back?"])
        _ = try staging.controlJSON(path: "/_dev/task", query: ["title": "nightly build", "status": "failed"])
        var said: [String] = []
        for round in 0..<2 {
            for _ in MeshFigure.allCases {
                turn(reader, clock)
                let reading = try #require(try await its["staging"]?.next()?.get())
                await MainActor.run { glance.file(reading) }
                said += alerts.observe("staging", glance)
            }
            if round == 0 {
                #expect(said.contains("staging: 1 new question"), "\(said)")
                #expect(said.contains("staging: task failed: nightly build"), "\(said)")
                said = []
            }
        }
        #expect(said.isEmpty, "\(said)")
    }

    @Test func eachTurnIsOneLightRequest() async throws {
        let server = try DevServer(seed: 24, demoKey: "mk_mesh_count_000000001")
        let (s, meshes) = try profiles([("counted", server)])
        _ = try server.controlJSON(path: "/_dev/requests/reset")
        let clock = TestClock()
        var (reader, its) = reader(s, meshes, clock: clock)
        defer { reader.stop() }
        reader.start()
        var asked: [String] = []
        for turnCount in 1...4 {
            if turnCount > 1 { turn(reader, clock) }
            _ = try #require(try await its["counted"]?.next()?.get())
            let log = try server.controlJSON(method: .get, path: "/_dev/requests")
            #expect(log["total"] as? Int == turnCount, "\(log)")
            asked = log["recent"] as? [String] ?? []
        }
        #expect(asked.count == 4)
        let paths = asked.map { $0.split(separator: "?").first.map(String.init) ?? $0 }
        #expect(
            paths == [
                "GET /api/v1/mesh/tasks", "GET /api/v1/directives", "GET /api/v1/mesh/tasks", "GET /api/v1/mesh/tasks",
            ],
            "\(asked)")
        #expect(asked[0].contains("status=running") && asked[0].contains("limit=\(MeshReading.page)"), "\(asked)")
        #expect(asked[1].contains("pending=true"), "\(asked)")
        #expect(asked[2].contains("status=failed") && asked[2].contains("limit=\(MeshReading.page)"), "\(asked)")
    }

    /// "Failed in the last hour" is the server's last hour, whatever its clock says: each
    /// failed task's time is read on ours through the answer's `Date` header.
    @Test(arguments: [-3_600.0, 2 * 86_400.0])
    func failedInTheLastHourWhateverTheServersClock(offset: TimeInterval) async throws {
        let server = try DevServer(
            seed: 25, demoKey: "mk_mesh_clock_000000001", extra: ["--clock-offset", String(offset)])
        let (s, meshes) = try profiles([("skewed", server)])
        let made = try server.controlJSON(path: "/_dev/task", query: ["title": "just failed", "status": "failed"])
        let id = try #require(made["id"] as? String)
        // What the server itself counts in its last hour, on its own clock.
        let serverNow = try #require(try server.controlJSON(method: .get, path: "/_dev/clock")["epoch_s"] as? Double)
        let failedPage = try server.client().getBlocking(
            ListEnvelope<MeshTask>.self, .tasks(status: .failed, contractID: nil, limit: MeshReading.page))
        let expected = Set(
            failedPage.items.filter { t in
                (t.completedAt ?? t.updatedAt).map { $0.timeIntervalSince1970 > serverNow - 3600 } ?? false
            }.map(\.id))
        #expect(expected.contains(id))

        let clock = TestClock()
        let client = try MeshProfiles.client(
            for: meshes[0].profile, credentials: CredentialStore(location: ConfigLocation(directory: s.configDir)))
        let reading = try MeshReading.read(.failures, using: client, now: { clock.read })
        #expect(Set(reading.failures.map(\.id)) == expected, "offset \(offset)")
    }

    /// A background mesh answering every request with a redirect to another host, a body that
    /// never ends, or one that is not JSON: its read fails with a clear message (the card says
    /// it), nothing reaches the host the redirect names, and the shown mesh reads as ever.
    @Test(arguments: ["redirect", "huge", "malformed"])
    func aHostileBackgroundMeshFailsAloneAndClearly(mode: String) async throws {
        let shown = try DevServer(seed: 25, demoKey: "mk_mesh_shown_000000003")
        let bad = try DevServer(seed: 26, demoKey: "mk_mesh_bad_00000000004")
        let elsewhere = try DevServer(demoKey: "mk_mesh_else_0000000005")
        let (s, meshes) = try profiles([("shown", shown), ("bad", bad)])
        _ = try bad.controlJSON(
            path: "/_dev/hostile/rest", query: ["mode": mode, "to": "http://localhost:\(elsewhere.baseURL.port ?? 0)"])
        _ = try elsewhere.controlJSON(path: "/_dev/requests/reset")
        var (reader, its) = reader(s, meshes.filter { $0.name == "bad" }, clock: TestClock())
        defer { reader.stop() }
        reader.start()
        guard case .failure(let failure) = try #require(await its["bad"]?.next()) else {
            Issue.record("a hostile mesh's read succeeded")
            return
        }
        let said = ["redirect": "not followed", "huge": "larger than", "malformed": "unexpected answer"][mode] ?? "?"
        #expect(failure.message.contains(said), "\(failure.message)")
        #expect(!failure.message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        let client = try MeshProfiles.client(
            for: meshes[0].profile, credentials: CredentialStore(location: ConfigLocation(directory: s.configDir)))
        let summary = try await MeshSummary.fetch(using: client)
        #expect(summary.daemonsOnline + summary.daemonsOffline > 0)
        #expect(try elsewhere.controlJSON(method: .get, path: "/_dev/requests")["total"] as? Int == 0)
    }

    @Test func aServerThatNeverAnswersHoldsOnlyTheBackgroundReader() async throws {
        let shown = try DevServer(seed: 22, demoKey: "mk_mesh_shown_000000001")
        let slow = try DevServer(seed: 23, demoKey: "mk_mesh_slow_0000000002")
        let (s, meshes) = try profiles([("shown", shown), ("slow", slow)])
        defer { slow.stop() }
        // An hour: the held read cannot end while the test runs, however slow the machine.
        _ = try slow.controlJSON(path: "/_dev/latency", query: ["ms": "3600000"])
        let credentials = CredentialStore(location: ConfigLocation(directory: s.configDir))
        let (began, started) = AsyncStream.makeStream(of: String.self)
        let delivered = Mutex(0)
        // Timeouts longer than the server's delay: the read is held for as long as the test runs
        // (it ends when the server is stopped, after the test's checks).
        let patient = HTTPTransport(configuration: HTTPConfiguration(totalTimeout: .seconds(7200)))
        let reader = BackgroundMeshReader(
            read: { mesh, _ in
                started.yield(mesh.name)
                let client = try MeshProfiles.client(for: mesh.profile, credentials: credentials, transport: patient)
                return try MeshReading.read(.running, using: client, now: { Date() })
            }, deliver: { _ in delivered.withLock { $0 += 1 } })
        defer { reader.stop() }
        reader.setTargets(meshes.filter { $0.name == "slow" })
        reader.start()
        var it = began.makeAsyncIterator()
        #expect(await it.next() == "slow")
        // The background read is held; the shown mesh is read as fast as ever meanwhile.
        let client = try MeshProfiles.client(for: meshes[0].profile, credentials: credentials)
        let summary = try await MeshSummary.fetch(using: client)
        #expect(summary.daemonsOnline + summary.daemonsOffline > 0)
        #expect(delivered.withLock { $0 } == 0)
    }
}
