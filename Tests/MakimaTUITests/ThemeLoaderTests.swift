import Foundation
import Testing

@testable import MakimaTUI

/// Each test works in its own temporary directory tree, removed at the end.
final class ThemeTestDirectory {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "makima-theme-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> String {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent,
            withIntermediateDirectories: true)
        try text.write(toFile: full, atomically: true, encoding: .utf8)
        return full
    }

    func makeDirectory(_ relativePath: String) throws -> String {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }
}

@Suite struct ThemeLoaderTests {
    static func themeText(name: String, accent: String) -> String {
        ThemeFile.format(.makima)
            .replacingOccurrences(of: "name = makima", with: "name = \(name)")
            .replacingOccurrences(of: "accent          = #9bc3ff", with: "accent = \(accent)")
    }

    @Test func selectionPrecedenceIsFlagThenEnvironmentThenConfig() {
        #expect(ThemeSelection.request(flag: "a", environment: "b", config: "c") == "a")
        #expect(ThemeSelection.request(flag: nil, environment: "b", config: "c") == "b")
        #expect(ThemeSelection.request(flag: " ", environment: "", config: "c") == "c")
        #expect(ThemeSelection.request(flag: nil, environment: nil, config: nil) == "makima")
    }

    @Test func searchDirectoriesInOrder() throws {
        let tmp = try ThemeTestDirectory()
        _ = try tmp.write("src/pkg/Package.swift", "// package")
        _ = try tmp.makeDirectory("src/pkg/Themes")
        let exe = try tmp.write("src/pkg/.build/x86_64-unknown-linux-gnu/debug/makima-tui", "")
        let dirs = ThemeSearchPath.directories(
            xdgConfigHome: "/xdg", home: "/home/u", executablePath: exe, prefix: "/opt/mk")
        #expect(dirs == ["/xdg/makima-tui/themes", tmp.path + "/src/pkg/Themes", "/opt/mk/share/makima-tui/Themes"])

        let noXDG = ThemeSearchPath.directories(
            xdgConfigHome: "relative", home: "/home/u", executablePath: "/usr/bin/makima-tui")
        #expect(noXDG == ["/home/u/.config/makima-tui/themes", "/usr/share/makima-tui/Themes"])
    }

    /// The test binary lives under this package's `.build`, so walking up from it must find
    /// the repository's `Themes/`, and the default theme must load from there.
    @Test func currentProcessFindsThisPackagesThemes() throws {
        let dirs = ThemeSearchPath.forCurrentProcess()
        let expected = (repositoryThemesDirectory as NSString).standardizingPath
        #expect(dirs.map { ($0 as NSString).standardizingPath }.contains(expected), "\(dirs)")
        let loaded = try ThemeLoader(searchDirectories: [expected]).load("light")
        #expect(loaded.source == .file(expected + "/light.theme"))
        #expect(loaded.theme == Theme.light)
    }

    @Test func packageWithoutThemesIsNotASearchDirectory() throws {
        let tmp = try ThemeTestDirectory()
        _ = try tmp.write("pkg/Package.swift", "")
        let exe = try tmp.write("pkg/.build/debug/makima-tui", "")
        #expect(ThemeSearchPath.packageThemes(above: exe) == nil)
    }

    @Test func nameIsFoundInTheFirstDirectoryThatHasIt() throws {
        let tmp = try ThemeTestDirectory()
        let user = try tmp.makeDirectory("user")
        let shipped = try tmp.makeDirectory("shipped")
        try tmp.write("shipped/ocean.theme", Self.themeText(name: "ocean", accent: "#112233"))
        let loader = ThemeLoader(searchDirectories: [user, shipped])
        let first = try loader.load("ocean")
        #expect(first.theme[.accent] == RGB(hex: 0x112233))
        #expect(first.source == .file(shipped + "/ocean.theme"))

        try tmp.write("user/ocean.theme", Self.themeText(name: "my-ocean", accent: "#445566"))
        let overridden = try loader.load("ocean")
        #expect(overridden.theme.name == "my-ocean")
        #expect(overridden.theme[.accent] == RGB(hex: 0x445566))
    }

    @Test func pathRequestReadsThatFile() throws {
        let tmp = try ThemeTestDirectory()
        let path = try tmp.write("elsewhere/custom.theme", Self.themeText(name: "custom", accent: "#abcdef"))
        let loaded = try ThemeLoader(searchDirectories: []).load(path)
        #expect(loaded.theme[.accent] == RGB(hex: 0xABCDEF))
        #expect(loaded.source == .file(path))
    }

    @Test func builtInsWorkWithoutAnyThemesDirectory() throws {
        let loader = ThemeLoader(searchDirectories: ["/nonexistent/makima-themes"])
        for theme in Theme.builtIn {
            let loaded = try loader.load(theme.name)
            #expect(loaded.theme == theme)
            #expect(loaded.source == .builtIn)
        }
    }

    @Test func unknownNameIsAnErrorAndFallsBackToMakima() {
        let loader = ThemeLoader(searchDirectories: ["/nonexistent"])
        #expect(throws: ThemeLoadError.notFound(name: "neon", searched: ["/nonexistent"])) { try loader.load("neon") }
        let outcome = loader.loadOrFallback("neon")
        #expect(outcome.theme == .makima)
        #expect(outcome.source == .builtIn)
        #expect(outcome.problem?.description.contains("\"neon\" not found") == true)
    }

    @Test func namesCannotEscapeTheSearchDirectories() {
        let loader = ThemeLoader(searchDirectories: [])
        #expect(throws: ThemeLoadError.badName("..")) { try loader.load("..") }
        #expect(throws: ThemeLoadError.badName("a b")) { try loader.load("a b") }
    }

    @Test func badFileFallsBackAndReportsKeyAndLine() throws {
        let tmp = try ThemeTestDirectory()
        let dir = try tmp.makeDirectory("themes")
        let bad = Self.themeText(name: "broken", accent: "#zzzzzz")
        let path = try tmp.write("themes/broken.theme", bad)
        let line =
            bad.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.hasPrefix("accent") }! + 1
        let outcome = ThemeLoader(searchDirectories: [dir]).loadOrFallback("broken")
        #expect(outcome.theme == .makima)
        guard case .invalid(let error) = outcome.problem else {
            Issue.record("expected a parse error, got \(String(describing: outcome.problem))")
            return
        }
        #expect(error.key == "accent")
        #expect(error.line == line)
        #expect(error.path == path)
        #expect(outcome.problem?.description == "\(path):\(line): accent: bad hex colour `#zzzzzz`; expected `#rrggbb`")
    }

    @Test func fallbackPrefersTheUsersMakimaFile() throws {
        let tmp = try ThemeTestDirectory()
        let dir = try tmp.makeDirectory("themes")
        try tmp.write("themes/makima.theme", Self.themeText(name: "makima", accent: "#010203"))
        let outcome = ThemeLoader(searchDirectories: [dir]).loadOrFallback("missing")
        #expect(outcome.theme[.accent] == RGB(hex: 0x010203))
        #expect(outcome.problem != nil)
    }

    @Test func unreadableFilesAreReported() throws {
        let tmp = try ThemeTestDirectory()
        let binary = tmp.path + "/bin.theme"
        try Data([0x6E, 0x61, 0x6D, 0x65, 0xFF, 0xFE]).write(to: URL(fileURLWithPath: binary))
        #expect(throws: ThemeLoadError.unreadable(path: binary, reason: "is not UTF-8 text")) {
            try ThemeLoader.loadFile(atPath: binary)
        }
        let huge = try tmp.write("huge.theme", String(repeating: "; padding\n", count: 10_000))
        #expect(throws: ThemeLoadError.unreadable(path: huge, reason: "is 100000 bytes; a theme file is at most 65536"))
        {
            try ThemeLoader.loadFile(atPath: huge)
        }
        let directory = try tmp.makeDirectory("dir.theme")
        #expect(throws: ThemeLoadError.unreadable(path: directory, reason: "is a directory")) {
            try ThemeLoader.loadFile(atPath: directory)
        }
    }
}
