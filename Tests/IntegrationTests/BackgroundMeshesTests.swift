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
    final class TestClock: Sendable {
        let now = Mutex(Date())
        func advance(_ s: TimeInterval) { now.withLock { $0 = $0.addingTimeInterval(s) } }
        var read: Date { now.withLock { $0 } }
    }

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

    @Test func aBackgroundMeshIsCountedBackedOffAndAnnouncedUnderItsName() async throws {
        let staging = try DevServer(seed: 21, demoKey: "mk_mesh_staging_00000001")
        let dead = try DevServer(demoKey: "mk_mesh_dead_0000000002")
        let (s, meshes) = try profiles([("staging", staging), ("dead", dead)])
        dead.stop()
        #expect(meshes.map(\.name) == ["staging", "dead"] && meshes.allSatisfy(\.keyStored))
        let clock = TestClock()
        typealias Outcome = Result<MeshReading, MeshReadFailure>
        let (stagingReads, stagingSink) = AsyncStream.makeStream(of: Outcome.self)
        let (deadReads, deadSink) = AsyncStream.makeStream(of: Outcome.self)
        let reader = BackgroundMeshReader(
            credentials: CredentialStore(location: ConfigLocation(directory: s.configDir)), clock: { clock.read },
            deliver: { ($0.name == "staging" ? stagingSink : deadSink).yield($0.outcome) })
        defer { reader.stop() }
        reader.setTargets(meshes)
        reader.start()
        var stagingIt = stagingReads.makeAsyncIterator()
        var deadIt = deadReads.makeAsyncIterator()
        var alerts = MeshAlerts()

        // First reads: staging answers with the numbers `status` counts (with its own key:
        // the dev server takes no other), dead is unreachable.
        let first = try #require(try await stagingIt.next()?.get())
        let glance = await MainActor.run { MeshGlance(first) }
        let client = try MeshProfiles.client(
            for: meshes[0].profile, credentials: CredentialStore(location: ConfigLocation(directory: s.configDir)))
        let summary = try await MeshSummary.fetch(using: client)
        #expect(glance.running == summary.runningTasks && glance.questions == summary.pendingQuestions)
        #expect(alerts.observe("staging", glance).isEmpty)
        if case .success = try #require(await deadIt.next()) { Issue.record("a stopped server answered") }

        // A question raised on staging: its next read (a minute on) announces it, naming it.
        _ = try staging.controlJSON(path: "/_dev/question", query: ["text": "roll back?"])
        _ = try staging.controlJSON(path: "/_dev/task", query: ["title": "nightly build", "status": "failed"])
        clock.advance(60)
        reader.poke()
        let secondReading = try #require(try await stagingIt.next()?.get())
        let second = await MainActor.run { MeshGlance(secondReading) }
        #expect(second.questions == glance.questions + 1)
        let said = alerts.observe("staging", second)
        #expect(said.contains("staging: 1 new question"), "\(said)")
        #expect(said.contains("staging: task failed: nightly build"), "\(said)")
        // The same again says nothing.
        clock.advance(60)
        reader.poke()
        let thirdReading = try #require(try await stagingIt.next()?.get())
        let third = await MainActor.run { MeshGlance(thirdReading) }
        #expect(alerts.observe("staging", third).isEmpty)
    }

    @Test func aServerThatNeverAnswersHoldsOnlyTheBackgroundReader() async throws {
        let shown = try DevServer(seed: 22, demoKey: "mk_mesh_shown_000000001")
        let slow = try DevServer(seed: 23, demoKey: "mk_mesh_slow_0000000002")
        let (s, meshes) = try profiles([("shown", shown), ("slow", slow)])
        defer { slow.stop() }
        _ = try slow.controlJSON(path: "/_dev/latency", query: ["ms": "120000"])
        let credentials = CredentialStore(location: ConfigLocation(directory: s.configDir))
        let (began, started) = AsyncStream.makeStream(of: String.self)
        let delivered = Mutex(0)
        // Timeouts longer than the server's delay: the read is held for as long as the test runs.
        let patient = HTTPTransport(configuration: HTTPConfiguration(totalTimeout: .seconds(600)))
        let reader = BackgroundMeshReader(
            read: { mesh in
                started.yield(mesh.name)
                let client = try MeshProfiles.client(for: mesh.profile, credentials: credentials, transport: patient)
                return try MeshReading.read(using: client, now: { Date() })
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
