import Foundation
import Testing
@testable import MakimaKit

@Suite struct CredentialStoreTests {
    let key = APIKey("mk_credential_test_7a7a")!

    func mode(_ path: String) throws -> UInt32 {
        var st = stat()
        guard stat(path, &st) == 0 else { throw POSIXError(.ENOENT) }
        return UInt32(st.st_mode & 0o777)
    }

    @Test func keyFileIs0600InA0700Directory() throws {
        let tmp = TempDirectory()
        let location = ConfigLocation(directory: tmp.sub("cfg"))
        let store = CredentialStore(location: location)
        let id = UUID()
        try store.store(key, for: id)
        #expect(try mode(store.path(for: id)) == 0o600)
        #expect(try mode(location.credentialsDirectory) == 0o700)
        #expect(try mode(location.directory) == 0o700)
        #expect(try store.key(for: id) == key)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: location.credentialsDirectory)
        #expect(leftovers == [id.uuidString.lowercased() + ".key"], "no temporary files left behind")
    }

    @Test func replacingAKeyKeepsTheModeAndTheFileWhole() throws {
        let tmp = TempDirectory()
        let store = CredentialStore(location: ConfigLocation(directory: tmp.path))
        let id = UUID()
        try store.store(key, for: id)
        let newer = APIKey("mk_credential_test_newer_0001")!
        try store.store(newer, for: id)
        #expect(try store.key(for: id) == newer)
        #expect(try mode(store.path(for: id)) == 0o600)
    }

    @Test func aWideOpenCredentialsDirectoryIsTightened() throws {
        let tmp = TempDirectory()
        let location = ConfigLocation(directory: tmp.sub("cfg"))
        try FileManager.default.createDirectory(atPath: location.credentialsDirectory, withIntermediateDirectories: true)
        chmod(location.directory, 0o755)
        chmod(location.credentialsDirectory, 0o777)
        try CredentialStore(location: location).store(key, for: UUID())
        #expect(try mode(location.credentialsDirectory) == 0o700)
        #expect(try mode(location.directory) == 0o700)
    }

    @Test func aKeyFileOthersCanReadIsRefusedWithAFix() throws {
        let tmp = TempDirectory()
        let store = CredentialStore(location: ConfigLocation(directory: tmp.path))
        let id = UUID()
        try store.store(key, for: id)
        chmod(store.path(for: id), 0o644)
        #expect(throws: ConfigError.insecurePermissions(path: store.path(for: id), mode: 0o644)) { try store.key(for: id) }
        #expect(ConfigError.insecurePermissions(path: "/p", mode: 0o644).description.contains("chmod 600"))
    }

    @Test func missingKeyIsNilAndRemovingTwiceIsFine() throws {
        let tmp = TempDirectory()
        let store = CredentialStore(location: ConfigLocation(directory: tmp.path))
        let id = UUID()
        #expect(try store.key(for: id) == nil)
        try store.store(key, for: id)
        try store.remove(for: id)
        try store.remove(for: id)
        #expect(try store.key(for: id) == nil)
    }

    @Test func aCorruptKeyFileIsReportedWithoutItsContents() throws {
        let tmp = TempDirectory()
        let store = CredentialStore(location: ConfigLocation(directory: tmp.path))
        let id = UUID()
        try store.store(key, for: id)
        let secretish = "zz_not_a_key_but_secret_SENTINEL"
        try secretish.write(toFile: store.path(for: id), atomically: false, encoding: .utf8)
        chmod(store.path(for: id), 0o600)
        do {
            _ = try store.key(for: id)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("not valid"))
            let leaked = error.description.contains("SENTINEL")
            #expect(!leaked)
        }
    }
}

@Suite struct ConfigStoreTests {
    @Test func roundTripsProfilesActiveIDAndUnknownSettings() throws {
        let tmp = TempDirectory()
        let store = ConfigStore(location: ConfigLocation(directory: tmp.sub("c")))
        #expect(try store.load() == AppConfig())
        let p1 = try ServerProfile(label: "prod", server: "makima.jp")
        let p2 = try ServerProfile(server: "http://127.0.0.1:8787", lastConnected: Date(timeIntervalSince1970: 1_800_000_000.25))
        var config = AppConfig(activeProfileID: p2.id, profiles: [p1, p2], settings: ["future": .object(["x": .array([.number(1), .null])])])
        config.theme = "makima"
        try store.save(config)
        let back = try store.load()
        #expect(back == config)
        #expect(back.activeProfile == p2)
        #expect(back.theme == "makima")
        let text = try String(contentsOfFile: store.location.configFile, encoding: .utf8)
        #expect(text.contains("\"base_url\" : \"https://makima.jp\""))
        #expect(text.contains("active_profile_id"))
    }

    @Test func anUnreadableConfigIsReportedAndMovedAsideNotOverwritten() throws {
        let tmp = TempDirectory()
        let location = ConfigLocation(directory: tmp.path)
        let store = ConfigStore(location: location)
        let broken = "{\"profiles\": [{\"id\": 12}]}"
        try broken.write(toFile: location.configFile, atomically: false, encoding: .utf8)
        #expect { try store.load() } throws: { e in
            guard case .unreadable(let path, let reason) = e as? ConfigError else { return false }
            return path == location.configFile && reason.contains("profiles[0]")
        }
        try store.save(AppConfig())
        #expect(try store.load() == AppConfig())
        let aside = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.hasPrefix("config.json.unreadable-") }
        #expect(aside.count == 1)
        #expect(try String(contentsOfFile: tmp.sub(aside[0]), encoding: .utf8) == broken)
    }

    @Test func locationFollowsFlagThenEnvironmentThenXDGThenHome() {
        #expect(ConfigLocation.resolve(explicit: "/x/", environment: ["MAKIMA_CONFIG_DIR": "/y"]).directory == "/x")
        #expect(ConfigLocation.resolve(environment: ["MAKIMA_CONFIG_DIR": "/y", "XDG_CONFIG_HOME": "/z"]).directory == "/y")
        #expect(ConfigLocation.resolve(environment: ["XDG_CONFIG_HOME": "/z", "HOME": "/h"]).directory == "/z/makima-tui")
        #expect(ConfigLocation.resolve(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).directory == "/h/.config/makima-tui")
        #expect(ConfigLocation.resolve(environment: ["HOME": "/h"]).directory == "/h/.config/makima-tui")
        #expect(ConfigLocation.resolve(explicit: "~/m", environment: ["HOME": "/h"]).directory == "/h/m")
    }
}

@Suite struct SessionResolverTests {
    let tmp = TempDirectory()
    var location: ConfigLocation { ConfigLocation(directory: tmp.path) }
    let stored = APIKey("mk_stored_key_0000")!
    let fromEnv = APIKey("mk_env_key_1111")!

    func configured() throws -> (AppConfig, ServerProfile) {
        let p = try ServerProfile(server: "https://makima.jp")
        try CredentialStore(location: location).store(stored, for: p.credentialID)
        return (AppConfig(activeProfileID: p.id, profiles: [p]), p)
    }

    @Test func usesTheActiveProfileAndItsStoredKey() throws {
        let (config, p) = try configured()
        let s = try SessionResolver.resolve(config: config, credentials: CredentialStore(location: location), environment: EnvironmentOverrides())
        #expect(s.profile == p)
        #expect(s.key == stored)
        #expect(s.keySource == .stored)
    }

    @Test func environmentKeyOverridesTheStoredOne() throws {
        let (config, p) = try configured()
        let s = try SessionResolver.resolve(config: config, credentials: CredentialStore(location: location),
                                            environment: EnvironmentOverrides(environment: ["MAKIMA_API_KEY": fromEnv.secret]))
        #expect(s.profile == p)
        #expect(s.key == fromEnv)
        #expect(s.keySource == .environment)
    }

    @Test func aStoredKeyIsNeverSentToAnotherServer() throws {
        let (config, _) = try configured()
        let s = try SessionResolver.resolve(config: config, credentials: CredentialStore(location: location),
                                            environment: EnvironmentOverrides(environment: ["MAKIMA_SERVER_URL": "https://elsewhere.example"]))
        #expect(s.profile?.baseURL.absoluteString == "https://elsewhere.example")
        #expect(s.key == nil)
        #expect(!s.profileIsStored)
    }

    @Test func anOverrideMatchingTheStoredURLUsesItsKey() throws {
        let (config, p) = try configured()
        let s = try SessionResolver.resolve(config: config, credentials: CredentialStore(location: location),
                                            environment: EnvironmentOverrides(), serverOverride: " HTTPS://MAKIMA.JP/ ")
        #expect(s.profile == p)
        #expect(s.key == stored)
    }

    @Test func badOverridesAreClearErrors() throws {
        let (config, _) = try configured()
        let creds = CredentialStore(location: location)
        #expect(throws: ConfigError.invalidEnvironmentKey(reason: "key must start with mk_")) {
            try SessionResolver.resolve(config: config, credentials: creds, environment: EnvironmentOverrides(apiKey: "sk_nope_123456"))
        }
        #expect(throws: ServerURLError.insecureHTTPRefused(host: "remote.example")) {
            try SessionResolver.resolve(config: config, credentials: creds, environment: EnvironmentOverrides(serverURL: "http://remote.example"))
        }
        let allowed = try SessionResolver.resolve(config: config, credentials: creds, environment: EnvironmentOverrides(serverURL: "http://remote.example"),
                                                  allowInsecureHTTP: true)
        #expect(allowed.profile?.baseURL.absoluteString == "http://remote.example")
    }

    @Test func nothingConfiguredResolvesToNothing() throws {
        let s = try SessionResolver.resolve(config: AppConfig(), credentials: CredentialStore(location: location), environment: EnvironmentOverrides())
        #expect(s.profile == nil)
        #expect(s.key == nil)
    }
}
