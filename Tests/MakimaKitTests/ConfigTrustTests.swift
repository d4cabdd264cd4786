import Foundation
import TestSupport
import Testing

@testable import MakimaKit

#if canImport(Glibc)
    import Glibc
#endif

/// config.json names the server the stored key is sent to: a configuration others can write
/// is tightened before it is read when it is ours, and refused otherwise, with the command
/// that fixes it; a profile name that breaks the rules is refused as the file is read.
@Suite struct ConfigTrustTests {
    private func mode(_ path: String) -> mode_t {
        var st = stat()
        stat(path, &st)
        return st.st_mode & 0o7777
    }

    private func written(_ tmp: TempDirectory, label: String = "prod") throws -> ConfigStore {
        let store = ConfigStore(location: ConfigLocation(directory: tmp.sub("c")))
        try store.save(AppConfig(profiles: [try ServerProfile(label: label, server: "makima.jp")]))
        return store
    }

    @Test("a world-writable directory and config.json of ours are tightened to 0700 and 0600 before the read")
    func oursIsTightened() throws {
        let tmp = TempDirectory()
        let store = try written(tmp)
        chmod(store.location.directory, 0o777)
        chmod(store.location.configFile, 0o666)
        let config = try store.load()
        #expect(config.profiles.map(\.label) == ["prod"])
        #expect(mode(store.location.directory) == 0o700)
        #expect(mode(store.location.configFile) == 0o600)
    }

    @Test("a parent directory others can write (not sticky) is refused, naming it and the chmod that fixes it")
    func writableParentIsRefused() throws {
        let tmp = TempDirectory()
        let store = try written(tmp)
        chmod(tmp.path, 0o777)
        defer { chmod(tmp.path, 0o700) }
        #expect(throws: ConfigError.writableByOthers(path: tmp.path, mode: 0o777, fix: "chmod go-w '\(tmp.path)'")) {
            try store.load()
        }
        let message = ConfigError.writableByOthers(path: tmp.path, mode: 0o777, fix: "chmod go-w '\(tmp.path)'")
            .description
        #expect(message.contains(tmp.path) && message.contains("run: chmod go-w"))
        // Sticky, like /tmp: others may add entries but not replace ours.
        chmod(tmp.path, 0o1777)
        #expect(try store.load().profiles.count == 1)
    }

    @Test("another user's config.json is refused", .enabled(if: getuid() == 0, "needs root to give a file away"))
    func anotherUsersFileIsRefused() throws {
        let tmp = TempDirectory()
        let store = try written(tmp)
        chown(store.location.configFile, 4_242, 4_242)
        #expect(throws: ConfigError.self) { try store.load() }
        #expect(
            throws: ConfigError.unreadable(
                path: store.location.configFile,
                reason: "owned by another user (uid 4242), who could name the server the key goes to")
        ) { try store.load() }
    }

    @Test("a label that breaks the name rules is refused as the file is read, the profile named")
    func hostileLabelIsRefused() throws {
        let tmp = TempDirectory()
        let store = try written(tmp)
        let text = try String(contentsOfFile: store.location.configFile, encoding: .utf8)
        for label in ["$(id>pwned)", "two words", "a'b", String(repeating: "x", count: 41)] {
            try text.replacingOccurrences(of: "\"prod\"", with: "\"\(label.replacingOccurrences(of: "'", with: "'"))\"")
                .write(toFile: store.location.configFile, atomically: false, encoding: .utf8)
            do {
                _ = try store.load()
                Issue.record("\(label) was accepted")
            } catch {
                #expect(error.description.contains("named \(label.debugDescription)"), "\(error)")
                #expect(error.description.contains("https://makima.jp"))
            }
        }
        // A default label (the server's host) is the profile's name whatever it holds.
        try text.replacingOccurrences(of: "\"prod\"", with: "\"makima.jp\"")
            .write(toFile: store.location.configFile, atomically: false, encoding: .utf8)
        #expect(try store.load().profiles.map(\.label) == ["makima.jp"])
    }
}

/// Links where the configuration and the key are read: a linked file is refused with a message
/// that says so (it was "Too many levels of symbolic links"); a linked directory is judged
/// where its target lives.
@Suite struct ConfigLinkTests {
    @Test("a config.json that is a symbolic link is refused with a message naming the link")
    func linkedConfigFileIsRefused() throws {
        let tmp = TempDirectory()
        let store = ConfigStore(location: ConfigLocation(directory: tmp.sub("c")))
        try store.save(AppConfig(profiles: [try ServerProfile(label: "prod", server: "makima.jp")]))
        let real = tmp.path + "/real.json"
        #expect(rename(store.location.configFile, real) == 0)
        #expect(symlink(real, store.location.configFile) == 0)
        #expect(throws: ConfigError.unreadable(path: store.location.configFile, reason: SecureFile.linkRefused)) {
            try store.load()
        }
        #expect(ConfigError.unreadable(path: "p", reason: SecureFile.linkRefused).description.contains("symbolic link"))
    }

    @Test("a config directory linked into a directory others can write is refused, naming where the target lives")
    func linkedDirectoryIsJudgedWhereItsTargetLives() throws {
        let tmp = TempDirectory()
        let shared = tmp.sub("shared")
        let target = ConfigStore(location: ConfigLocation(directory: shared + "/makima-tui"))
        try target.save(AppConfig(profiles: [try ServerProfile(label: "prod", server: "makima.jp")]))
        let home = tmp.sub("home")
        #expect(mkdir(home, 0o700) == 0)
        let linked = home + "/makima-tui"
        #expect(symlink(shared + "/makima-tui", linked) == 0)
        let store = ConfigStore(location: ConfigLocation(directory: linked))
        #expect(try store.load().profiles.map(\.label) == ["prod"])
        chmod(shared, 0o777)
        defer { chmod(shared, 0o700) }
        #expect(throws: ConfigError.writableByOthers(path: shared, mode: 0o777, fix: "chmod go-w '\(shared)'")) {
            try store.load()
        }
    }
}
