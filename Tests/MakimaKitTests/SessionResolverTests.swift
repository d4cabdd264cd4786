import Foundation
import TestSupport
import Testing

@testable import MakimaKit

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
        let s = try SessionResolver.resolve(
            config: config, credentials: CredentialStore(location: location), environment: EnvironmentOverrides())
        #expect(s.profile == p)
        #expect(s.key == stored)
        #expect(s.keySource == .stored)
    }

    @Test func environmentKeyOverridesTheStoredOne() throws {
        let (config, p) = try configured()
        let s = try SessionResolver.resolve(
            config: config, credentials: CredentialStore(location: location),
            environment: EnvironmentOverrides(environment: ["MAKIMA_API_KEY": fromEnv.secret]))
        #expect(s.profile == p)
        #expect(s.key == fromEnv)
        #expect(s.keySource == .environment)
    }

    @Test func aStoredKeyIsNeverSentToAnotherServer() throws {
        let (config, _) = try configured()
        let s = try SessionResolver.resolve(
            config: config, credentials: CredentialStore(location: location),
            environment: EnvironmentOverrides(environment: ["MAKIMA_SERVER_URL": "https://elsewhere.example"]))
        #expect(s.profile?.baseURL.absoluteString == "https://elsewhere.example")
        #expect(s.key == nil)
        #expect(!s.profileIsStored)
    }

    @Test func anOverrideMatchingTheStoredURLUsesItsKey() throws {
        let (config, p) = try configured()
        let s = try SessionResolver.resolve(
            config: config, credentials: CredentialStore(location: location),
            environment: EnvironmentOverrides(), serverOverride: " HTTPS://MAKIMA.JP/ ")
        #expect(s.profile == p)
        #expect(s.key == stored)
    }

    @Test func badOverridesAreClearErrors() throws {
        let (config, _) = try configured()
        let creds = CredentialStore(location: location)
        #expect(throws: ConfigError.invalidEnvironmentKey(reason: "key must start with mk_")) {
            try SessionResolver.resolve(
                config: config, credentials: creds, environment: EnvironmentOverrides(apiKey: "sk_nope_123456"))
        }
        #expect(throws: ServerURLError.insecureHTTPRefused(host: "remote.example")) {
            try SessionResolver.resolve(
                config: config, credentials: creds,
                environment: EnvironmentOverrides(serverURL: "http://remote.example"))
        }
        let allowed = try SessionResolver.resolve(
            config: config, credentials: creds, environment: EnvironmentOverrides(serverURL: "http://remote.example"),
            allowInsecureHTTP: true)
        #expect(allowed.profile?.baseURL.absoluteString == "http://remote.example")
    }

    @Test func nothingConfiguredResolvesToNothing() throws {
        let s = try SessionResolver.resolve(
            config: AppConfig(), credentials: CredentialStore(location: location), environment: EnvironmentOverrides())
        #expect(s.profile == nil)
        #expect(s.key == nil)
    }
}
