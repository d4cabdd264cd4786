import Foundation
import TestSupport
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
        try FileManager.default.createDirectory(
            atPath: location.credentialsDirectory, withIntermediateDirectories: true)
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
        #expect(throws: ConfigError.insecurePermissions(path: store.path(for: id), mode: 0o644)) {
            try store.key(for: id)
        }
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
