import Foundation

/// Where theme files are looked for, first match wins:
/// 1. the user's directory `$XDG_CONFIG_HOME/makima-tui/themes` (or `~/.config/makima-tui/themes`),
/// 2. `Themes/` of the source package the executable was built in (found by walking up from the
///    executable to a directory holding both `Package.swift` and `Themes/`),
/// 3. the installed `<prefix>/share/makima-tui/Themes` (prefix given, or the parent of the
///    executable's `bin/` directory).
/// Every input is a parameter so tests can point it at temporary directories.
public enum ThemeSearchPath {
    public static let userSubdirectory = "makima-tui/themes"
    public static let installedSubdirectory = "share/makima-tui/Themes"

    public static func directories(
        xdgConfigHome: String?,
        home: String?,
        executablePath: String?,
        prefix: String? = nil
    ) -> [String] {
        var result: [String] = []
        if let xdg = xdgConfigHome, xdg.hasPrefix("/") {
            result.append(join(xdg, userSubdirectory))
        } else if let home, !home.isEmpty {
            result.append(join(home, ".config/" + userSubdirectory))
        }
        if let executablePath, let package = packageThemes(above: executablePath) {
            result.append(package)
        }
        if let prefix, !prefix.isEmpty {
            result.append(join(prefix, installedSubdirectory))
        }
        if let executablePath {
            let binDirectory = parent(of: executablePath)
            if (binDirectory as NSString).lastPathComponent == "bin" {
                result.append(join(parent(of: binDirectory), installedSubdirectory))
            }
        }
        var seen = Set<String>()
        return result.filter { seen.insert($0).inserted }
    }

    /// The directories for this process: its environment and its executable (`/proc/self/exe`).
    public static func forCurrentProcess(prefix: String? = nil) -> [String] {
        let environment = ProcessInfo.processInfo.environment
        return directories(
            xdgConfigHome: environment["XDG_CONFIG_HOME"],
            home: environment["HOME"],
            executablePath: currentExecutablePath(),
            prefix: prefix
        )
    }

    public static func currentExecutablePath() -> String? {
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        return CommandLine.arguments.first.map { ($0 as NSString).standardizingPath }
    }

    /// Walks up from the executable to the first directory with `Package.swift` and `Themes/`.
    static func packageThemes(above executablePath: String) -> String? {
        var directory = parent(of: (executablePath as NSString).standardizingPath)
        while directory != "/" && !directory.isEmpty {
            let themes = join(directory, "Themes")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: join(directory, "Package.swift")),
                FileManager.default.fileExists(atPath: themes, isDirectory: &isDirectory),
                isDirectory.boolValue
            {
                return themes
            }
            directory = parent(of: directory)
        }
        return nil
    }

    private static func parent(of path: String) -> String {
        (path as NSString).deletingLastPathComponent
    }

    private static func join(_ directory: String, _ component: String) -> String {
        (directory as NSString).appendingPathComponent(component)
    }
}
