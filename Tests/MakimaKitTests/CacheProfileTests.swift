import Foundation
import Testing

@testable import MakimaKit

/// One database per server profile.
@Suite struct CacheProfileTests {
    let dir = CacheTempDir()

    @Test func theCacheLivesUnderMakimaCacheDirThenXDGThenHome() {
        let explicit = CacheLocation.databaseFile(
            profileKey: "prod", environment: ["MAKIMA_CACHE_DIR": "/m", "XDG_CACHE_HOME": "/x", "HOME": "/h"])
        #expect(explicit.path == "/m/makima-tui/prod/cache.sqlite")
        let xdg = CacheLocation.databaseFile(profileKey: "prod", environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"])
        #expect(xdg.path == "/x/makima-tui/prod/cache.sqlite")
        // The XDG spec ignores a relative XDG_CACHE_HOME.
        let home = CacheLocation.databaseFile(profileKey: "prod", environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"])
        #expect(home.path == "/h/.cache/makima-tui/prod/cache.sqlite")
    }

    @Test func aKeyThatIsNotAPlainNameIsHashedAndStaysInside() {
        let env = ["MAKIMA_CACHE_DIR": "/m"]
        for key in ["../../etc", "a/b", "", ".hidden", "x\u{1B}[2J", String(repeating: "k", count: 65)] {
            let file = CacheLocation.databaseFile(profileKey: key, environment: env)
            let name = file.deletingLastPathComponent().lastPathComponent
            #expect(file.deletingLastPathComponent().deletingLastPathComponent().path == "/m/makima-tui")
            #expect(name.hasPrefix("key-") && name.count == 44)
        }
        #expect(CacheLocation.directoryName(profileKey: "../a") != CacheLocation.directoryName(profileKey: "../b"))
        #expect(CacheLocation.directoryName(profileKey: "cred_01.prod-A") == "cred_01.prod-A")
    }

    @Test func aServerURLKeyIgnoresCaseOfHostAndATrailingSlash() {
        let a = CacheLocation.profileKey(serverURL: "HTTPS://Mesh.Example.com:8443/")
        let b = CacheLocation.profileKey(serverURL: "https://mesh.example.com:8443")
        let other = CacheLocation.profileKey(serverURL: "https://mesh.example.com:8444")
        #expect(a == b)
        #expect(a != other)
        #expect(CacheLocation.directoryName(profileKey: a) == a)
    }

    @Test func twoProfilesNeverSeeEachOthersData() throws {
        let env = dir.environment
        let prod = try CacheStore.open(profileKey: "prod", environment: env).store
        let staging = try CacheStore.open(
            profileKey: CacheLocation.profileKey(serverURL: "http://127.0.0.1:9000"), environment: env
        ).store
        #expect(prod.file != staging.file)
        #expect(prod.file.path.hasPrefix(dir.url.path))

        try prod.replace(CacheFixtures.daemons, in: .daemons, query: "", fetchedAt: CacheFixtures.t0)
        try prod.appendEvents(CacheFixtures.outputEvents(task: "t1", seqs: 1...5))
        try staging.replace(CacheFixtures.tasks, in: .taskSnapshots, query: "", fetchedAt: CacheFixtures.t0)

        #expect(try staging.load(Daemon.self, from: .daemons, query: "") == nil)
        #expect(try staging.lastSeenSeqs().isEmpty)
        #expect(try staging.events(taskID: "t1").isEmpty)
        #expect(try prod.load(MeshTask.self, from: .taskSnapshots, query: "") == nil)
        #expect(try prod.load(Daemon.self, from: .daemons, query: "")?.items == CacheFixtures.daemons)
        #expect(try Set(staging.collectionFetchTimes().keys) == ["tasks"])
    }

    @Test func theDatabaseIsReadableByItsOwnerOnly() throws {
        let store = try CacheStore.open(profileKey: "prod", environment: dir.environment).store
        try store.replace(CacheFixtures.daemons, in: .daemons, query: "", fetchedAt: CacheFixtures.t0)
        let fm = FileManager.default
        let fileMode = try fm.attributesOfItem(atPath: store.file.path)[.posixPermissions] as? NSNumber
        let dirMode =
            try fm.attributesOfItem(atPath: store.file.deletingLastPathComponent().path)[.posixPermissions] as? NSNumber
        #expect(fileMode?.intValue == 0o600)
        #expect(dirMode?.intValue == 0o700)
    }
}
