import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

/// Each stored profile's accent on its MESHES// line: a mark in the role of the profile's
/// place, which the palette resolves to that accent (the theme's accent for a profile without
/// one); a fixed number of places, whatever the profiles stored.
@MainActor @Suite("MESHES// profile marks")
struct MeshMarkTests {
    let now = MeshFixture.now
    let direct = ColorDetection(capability: .direct, hasBrightColors: true, canRedefineColors: false)
    static let red = RGB(hex: 0xFF5F5F)
    static let green = RGB(hex: 0x22C55E)

    func profile(_ name: String, accent: String?) -> MeshProfile {
        var p = try! ServerProfile(label: name, server: "https://\(name).example")
        p.accent = accent
        return MeshProfile(profile: p, keyStored: true)
    }

    func hub(_ profiles: [MeshProfile]) -> StoreHub {
        let hub = MeshFixture.hub()
        hub.meshes.profiles = profiles
        hub.meshes.show(profiles.first?.name)
        return hub
    }

    /// The style of the mark drawn on the line naming `name`, nil when it has none.
    func markStyle(_ b: CellBuffer, _ name: String, glyphs g: Glyphs = .unicode) -> CellStyle? {
        let swatch = g.swatch
        guard let y = b.lines.firstIndex(where: { $0.contains("\(g.bullet) \(name) ") }) else { return nil }
        let x = (0..<b.width).first { b[$0, y].text == swatch && b.line(y).contains("\(name) \(swatch)") }
        return x.map { b.style(atX: $0, y: y) }
    }

    func home(_ hub: StoreHub, glyphs: Glyphs = .unicode) -> CellBuffer {
        var pane = HomePane()
        pane.model.mesh = HomeMeshModel.from(hub, now: now)
        var b = CellBuffer(width: 160, height: 60)
        pane.render(into: &b, region: b.bounds, context: RenderContext(glyphs: glyphs))
        return b
    }

    @Test("two accents: two marks of two roles, which the palette gives the two colours")
    func twoAccents() throws {
        let profiles = [
            profile("prod", accent: "#ff5f5f"), profile("staging", accent: "#22c55e"), profile("eu", accent: nil),
        ]
        let b = home(hub(profiles))
        let prod = try #require(markStyle(b, "prod"), "\(b.lines.joined(separator: "\n"))")
        let staging = try #require(markStyle(b, "staging"))
        #expect(prod.fg == .mesh(.mark0) && staging.fg == .mesh(.mark1))
        #expect(markStyle(b, "eu") == nil, "a profile without an accent has no mark")
        #expect(b.lines.contains { $0.contains("● eu ") })

        let marks = LivePalette.marks(profiles.map(\.profile.accent), loader: ThemeLoader(searchDirectories: []))
        let palette = LivePalette.palette(.makima, accent: nil, marks: marks, detection: direct, redefine: false)
        #expect(palette.colorNumber(prod.fg) == ColorMapper.directColorNumber(Self.red))
        #expect(palette.colorNumber(staging.fg) == ColorMapper.directColorNumber(Self.green))
        // eu's place (no accent) and the places past the profiles: the theme's accent.
        let accent = ColorMapper.directColorNumber(Theme.makima.color(.accent))
        for mark in MeshMark.allCases.dropFirst(2) { #expect(palette.colorNumber(.mesh(mark)) == accent) }
        // The marks change nothing else, and the shown profile's accent leaves the others' marks.
        let shownRed = LivePalette.palette(.makima, accent: Self.red, marks: [:], detection: direct, redefine: false)
        #expect(shownRed.colorNumber(.mesh(.mark2)) == accent)
        for role in ColorRole.themed {
            #expect(
                palette.colorNumber(role) == ColorMapper.palette(for: .makima, capability: .direct).colorNumber(role))
        }
    }

    @Test("a theme's name lends its accent; ASCII draws the mark #")
    func themeNameAndASCII() throws {
        let profiles = [profile("prod", accent: "light"), profile("staging", accent: "#22c55e")]
        let marks = LivePalette.marks(profiles.map(\.profile.accent), loader: ThemeLoader(searchDirectories: []))
        #expect(marks[.mark0] == Theme.light.color(.accent) && marks[.mark1] == Self.green)
        let b = home(hub(profiles), glyphs: .ascii)
        #expect(markStyle(b, "staging", glyphs: .ascii)?.fg == .mesh(.mark1), "\(b.lines.joined(separator: "\n"))")
    }

    @Test("nine profiles and more: eight places, the ninth has no mark and no role")
    func bounded() {
        let profiles = (0..<12).map { profile("m\($0)", accent: "#ff5f5f") }
        let lines = HomeMeshModel.from(hub(profiles), now: now).meshes
        #expect(lines.count == 12)
        #expect(lines.prefix(8).map(\.mark) == MeshMark.allCases)
        #expect(lines.dropFirst(8).allSatisfy { $0.mark == nil })
        let marks = LivePalette.marks(profiles.map(\.profile.accent), loader: ThemeLoader(searchDirectories: []))
        #expect(marks.count == 8)
        #expect(ColorRole.allCases.count == ColorRole.themed.count + 8)
    }

    @Test("16 colours: a mark is the nearest hue; without colour it is plain")
    func fewColours() {
        let theme = Theme.makima.withMeshMarks([.mark0: Self.red, .mark1: Self.green, .mark2: RGB(hex: 0x3B82F6)])
        let p16 = ColorMapper.palette(for: theme, capability: .palette16)
        #expect(p16.colorNumber(.mesh(.mark0)).map { $0 % 8 } == AnsiColor.red.rawValue)
        #expect(p16.colorNumber(.mesh(.mark1)).map { $0 % 8 } == AnsiColor.green.rawValue)
        #expect(p16.colorNumber(.mesh(.mark2)).map { $0 % 8 } == AnsiColor.blue.rawValue)
        let eight = ColorMapper.palette(for: theme, capability: .palette16, hasBrightColors: false)
        for mark in MeshMark.allCases { #expect(eight.colorNumber(.mesh(mark))! < 8) }
        let light = ColorMapper.palette(for: Theme.light.withMeshMarks([.mark0: Self.red]), capability: .palette16)
        #expect(light.colorNumber(.mesh(.mark0)) == AnsiColor.red.rawValue)
        let none = ColorMapper.palette(for: theme, capability: .none)
        #expect(none.colorNumber(.mesh(.mark0)) == nil && none.extraAttributes(.mesh(.mark0)).isEmpty)
    }

    @Test("theme files neither need nor take the marks; format writes the themed roles only")
    func themeFiles() throws {
        let text = ThemeFile.format(.makima)
        #expect(!text.contains("mesh"))
        let parsed = try ThemeFile.parse(text, fallbackName: "x")
        #expect(parsed == .makima)
        #expect(parsed.color(.mesh(.mark3)) == Theme.makima.color(.accent))
        #expect(throws: ThemeError.self) { try ThemeFile.parse(text + "mesh0 = #ff0000\n", fallbackName: "x") }
    }
}

/// The marks follow the stored profiles: read again (a switch, a sign-in, Settings' sign out),
/// an accent edited, a profile added or removed reaches the palette in the card's order.
@MainActor @Suite("MESHES// marks follow config.json")
struct MeshMarksFollowTests {
    @Test("edited, added and removed profiles: the accents handed on change with them")
    func follow() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("marks-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let location = ConfigLocation(directory: dir)
        func store(_ accents: [(String, String?)]) throws {
            let profiles = try accents.map { name, accent in
                var p = try ServerProfile(label: name, server: "https://\(name).example")
                p.accent = accent
                return p
            }
            try ConfigStore(location: location).save(AppConfig(profiles: profiles))
        }
        var handed: [[String?]] = []
        // The controller holds the server unowned: the test keeps it.
        let servers = FakeServers(.notConfigured(message: "none"))
        let meshes = MeshesController(
            store: MeshesStore(), profiles: location, server: servers,
            bus: UIBus(wakePipe: try WakePipe()), toast: { _ in }, marksChanged: { handed.append($0) })
        try store([("prod", "#ff5f5f"), ("staging", nil)])
        meshes.shownChanged()
        try store([("prod", "#ff5f5f"), ("staging", "#22c55e"), ("eu", "light")])
        meshes.shownChanged()
        try store([("staging", "#22c55e"), ("eu", "light")])
        meshes.shownChanged()
        #expect(handed == [["#ff5f5f", nil], ["#ff5f5f", "#22c55e", "light"], ["#22c55e", "light"]])
    }
}
