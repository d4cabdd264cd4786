import Foundation

/// Reads and writes `config.json` (atomically, mode 0600, directory 0700).
public struct ConfigStore: Sendable {
    public let location: ConfigLocation

    public init(location: ConfigLocation) { self.location = location }

    /// The stored configuration; an empty one when the file does not exist yet. It names the
    /// server the stored key is sent to, so neither it nor its directory may be another
    /// user's to change (`SecureFile.trustDirectory`, `read(trusted:)`).
    public func load() throws(ConfigError) -> AppConfig {
        try SecureFile.trustDirectory(location.directory)
        guard let data = try SecureFile.read(location.configFile, requirePrivate: false, trusted: true) else {
            return AppConfig()
        }
        do {
            return try MakimaJSON.decoder().decode(AppConfig.self, from: data)
        } catch {
            let what = APIError.describe(error, decoding: AppConfig.self)
            let reason: String
            if case .decoding(let m) = what { reason = m } else { reason = what.description }
            throw .unreadable(path: location.configFile, reason: reason + " (fix or remove the file)")
        }
    }

    /// Writes the configuration. A file on disk that cannot be read is first moved aside to
    /// `config.json.unreadable-<time>` so saving never destroys what a person may want back.
    public func save(_ config: AppConfig) throws(ConfigError) {
        try SecureFile.ensureDirectory(location.directory, mode: 0o700)
        if (try? load()) == nil, FileManager.default.fileExists(atPath: location.configFile) {
            let aside = location.configFile + ".unreadable-\(Int(Date().timeIntervalSince1970))"
            if rename(location.configFile, aside) != 0 {
                throw .writeFailed(path: aside, reason: SecureFile.errnoText())
            }
        }
        let encoder = MakimaJSON.encoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let data: Data
        do { data = try encoder.encode(config) } catch {
            throw .writeFailed(path: location.configFile, reason: "\(error)")
        }
        try SecureFile.writeAtomically(data + Data("\n".utf8), to: location.configFile, mode: 0o600)
    }
}
