import Foundation
import Synchronization
import TestSupport
import Testing

@testable import MakimaKit

/// The client is killed with SIGKILL at random moments during a burst; each time the cache
/// must open cleanly, pass integrity_check, hold only gapless history, and answer the next
/// start without the network.
@Suite(.serialized) struct CrashRecoveryTests {
    @Test func sigkillDuringABurstNeverCorruptsTheCache() throws {
        let server = try DevServer(seed: 15, rate: 0)
        let home = TempDirectory()
        let env = [
            "MAKIMA_SERVER_URL": server.baseURL.absoluteString, "MAKIMA_API_KEY": server.apiKey.secret,
            "XDG_CACHE_HOME": home.sub("cache"), "XDG_CONFIG_HOME": home.sub("config"),
        ]
        let serverKey = try ServerProfile(server: server.baseURL.absoluteString).baseURL.absoluteString
        let cacheFile = CacheLocation.databaseFile(
            profileKey: CacheLocation.profileKey(serverURL: serverKey),
            environment: ["XDG_CACHE_HOME": home.sub("cache")])
        let seeded = try server.controlJSON(method: .get, path: "/_dev/seeded")
        let task = try server.controlJSON(path: "/_dev/task", query: ["status": "running"])["id"] as! String
        var previousSeq = 0
        for round in 1...10 {
            // The burst runs while the client starts, syncs and dies.
            var burstURL = URLComponents(
                url: server.baseURL.appendingPathComponent("_dev/burst"), resolvingAgainstBaseURL: false)!
            burstURL.queryItems = [
                URLQueryItem(name: "task_id", value: task), URLQueryItem(name: "count", value: "300"),
            ]
            let request = HTTPRequest(method: .post, url: burstURL.url!)
            let streaming = Atomic<Bool>(true)
            let burst = Thread {
                while streaming.load(ordering: .relaxed) {
                    _ = try? HTTPTransport().perform(request)
                    Thread.sleep(forTimeInterval: 0.02)
                }
            }
            burst.start()
            let watch = Process()
            watch.executableURL = URL(fileURLWithPath: CLIRunner.binary)
            watch.arguments = ["watch"]
            watch.environment = ["PATH": "/usr/bin:/bin", "HOME": home.path, "LANG": "C.UTF-8"].merging(env) { _, n in n
            }
            watch.standardOutput = FileHandle.nullDevice
            watch.standardError = FileHandle.nullDevice
            try SignalSafeSpawn.run(watch)
            Thread.sleep(forTimeInterval: Double.random(in: 0.8...2.0))
            kill(watch.processIdentifier, SIGKILL)
            streaming.store(false, ordering: .relaxed)
            watch.waitUntilExit()
            #expect(watch.terminationReason == .uncaughtSignal, "round \(round): killed, not exited")

            let opened = try CacheStore.open(file: cacheFile)
            #expect(opened.notice == nil, "round \(round): \(opened.notice ?? "")")
            #expect(opened.store.integrityCheck(), "round \(round)")
            let last = try opened.store.lastSeenSeqs()[task] ?? 0
            #expect(try opened.store.contiguousSeqs()[task] ?? 0 == last, "round \(round): history has a gap")
            #expect(last >= previousSeq, "round \(round): committed history went backwards")
            previousSeq = last
            opened.store.close()

            let cached = try CLIRunner.run(["status", "--cached", "--json"], environment: env, home: home.path)
            #expect(cached.status == 0, "round \(round): \(cached.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(cached.stdout.utf8)) as? [String: Any]
            #expect(json?["daemons_online"] as? Int == seeded["daemons_online"] as? Int)
            #expect(json?["daemons_offline"] as? Int == seeded["daemons_offline"] as? Int)
            #expect(json?["stale_since"] is String)
            while burst.isExecuting { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(previousSeq > 0, "the client committed some of the burst")
        // And with the server gone entirely, the cache still answers.
        server.stop()
        let offline = try CLIRunner.run(["status", "--cached", "--tmux"], environment: env, home: home.path)
        #expect(offline.status == 0)
        #expect(offline.stdout.hasPrefix("MK ●\(seeded["daemons_online"] as? Int ?? -1)/"))
    }
}
