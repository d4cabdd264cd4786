import Foundation

/// One API key per profile in `credentials/<credentialID>.key`: mode 0600 from creation, in a
/// 0700 directory. A key file that others could read is refused, not silently used.
public struct CredentialStore: Sendable {
    public let location: ConfigLocation

    public init(location: ConfigLocation) { self.location = location }

    public func path(for credentialID: UUID) -> String {
        location.credentialsDirectory + "/" + credentialID.uuidString.lowercased() + ".key"
    }

    public func key(for credentialID: UUID) throws(ConfigError) -> APIKey? {
        let p = path(for: credentialID)
        guard let data = try SecureFile.read(p, requirePrivate: true, limit: 4096) else { return nil }
        let raw = String(decoding: data, as: UTF8.self)
        if let reason = APIKey.validationError(raw) { throw .invalidStoredKey(path: p, reason: reason) }
        return APIKey(raw)
    }

    public func store(_ key: APIKey, for credentialID: UUID) throws(ConfigError) {
        try SecureFile.ensureDirectory(location.directory, mode: 0o700)
        try SecureFile.ensureDirectory(location.credentialsDirectory, mode: 0o700)
        try SecureFile.writeAtomically(Data((key.secret + "\n").utf8), to: path(for: credentialID), mode: 0o600)
    }

    public func remove(for credentialID: UUID) throws(ConfigError) {
        try SecureFile.remove(path(for: credentialID))
    }
}
