import Foundation

/// Why a theme could not be loaded. The caller shows `description` and keeps going with the
/// default theme (`ThemeLoader.loadOrFallback`).
public enum ThemeLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    case notFound(name: String, searched: [String])
    case badName(String)
    case unreadable(path: String, reason: String)
    case invalid(ThemeError)

    public var description: String {
        switch self {
        case .notFound(let name, let searched):
            let places = searched.isEmpty ? "no theme directories" : searched.joined(separator: ", ")
            return "theme \"\(name)\" not found (looked in \(places); built in: "
                + Theme.builtIn.map(\.name).joined(separator: ", ") + ")"
        case .badName(let name):
            return "theme name \"\(name)\" may hold only letters, digits, `-`, `_` and `.`"
        case .unreadable(let path, let reason):
            return "\(path): \(reason)"
        case .invalid(let error):
            return error.description
        }
    }
}

public enum ThemeSource: Sendable, Hashable {
    case file(String)
    case builtIn
}

public struct LoadedTheme: Sendable, Hashable {
    public var theme: Theme
    public var source: ThemeSource
}

/// What the app ends up with: always a theme, plus the problem that made it fall back, if any.
public struct ThemeLoadOutcome: Sendable {
    public var theme: Theme
    public var source: ThemeSource
    public var problem: ThemeLoadError?
}

/// Which theme the user asked for. Precedence, strongest first: `--theme`, `MAKIMA_THEME`, the
/// config file, then the default. The environment beats the config file because it is the more
/// local, per-session choice.
public enum ThemeSelection {
    public static let defaultName = "makima"
    public static let environmentVariable = "MAKIMA_THEME"

    public static func request(flag: String?, environment: String?, config: String?) -> String {
        for candidate in [flag, environment, config] {
            if let value = candidate?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
        }
        return defaultName
    }
}

/// Finds and parses themes. A request is a path when it contains `/` or ends in `.theme`,
/// otherwise a name looked up as `<name>.theme` in `searchDirectories`, then among the
/// built-in themes.
public struct ThemeLoader: Sendable {
    public var searchDirectories: [String]

    public init(searchDirectories: [String]) {
        self.searchDirectories = searchDirectories
    }

    public static func isPath(_ request: String) -> Bool {
        request.contains("/") || request.hasSuffix(".theme")
    }

    public func load(_ request: String) throws(ThemeLoadError) -> LoadedTheme {
        if Self.isPath(request) {
            return LoadedTheme(theme: try Self.loadFile(atPath: request), source: .file(request))
        }
        guard !request.isEmpty, !request.hasPrefix("."),
            request.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else {
            throw .badName(request)
        }
        for directory in searchDirectories {
            let path = (directory as NSString).appendingPathComponent(request + ".theme")
            if FileManager.default.fileExists(atPath: path) {
                return LoadedTheme(theme: try Self.loadFile(atPath: path), source: .file(path))
            }
        }
        if let builtIn = Theme.builtIn(named: request) {
            return LoadedTheme(theme: builtIn, source: .builtIn)
        }
        throw .notFound(name: request, searched: searchDirectories)
    }

    /// Loads `request`; if that fails, the default theme (its file if it loads, else the
    /// built-in makima palette) and the problem to show the user.
    public func loadOrFallback(_ request: String) -> ThemeLoadOutcome {
        do {
            let loaded = try load(request)
            return ThemeLoadOutcome(theme: loaded.theme, source: loaded.source, problem: nil)
        } catch {
            let fallback = (try? load(ThemeSelection.defaultName)) ?? LoadedTheme(theme: .makima, source: .builtIn)
            return ThemeLoadOutcome(theme: fallback.theme, source: fallback.source, problem: error)
        }
    }

    public static func loadFile(atPath path: String) throws(ThemeLoadError) -> Theme {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw .unreadable(path: path, reason: "is a directory") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "cannot be read")
        }
        guard data.count <= ThemeFile.maximumBytes else {
            throw .unreadable(
                path: path, reason: "is \(data.count) bytes; a theme file is at most \(ThemeFile.maximumBytes)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: path, reason: "is not UTF-8 text")
        }
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        do {
            return try ThemeFile.parse(text, fallbackName: stem, path: path)
        } catch {
            throw .invalid(error)
        }
    }
}
