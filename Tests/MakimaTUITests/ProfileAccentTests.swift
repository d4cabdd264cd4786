import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// A profile's own accent: checked as config.json is read, resolved over the theme (only the
/// accent changes), and named on Home while that profile is shown.
@MainActor @Suite("Profile accent: config, palette, the dashboard")
struct ProfileAccentTests {
    static func profile(accent: String?) -> Data {
        var object: [String: String] = [
            "id": UUID().uuidString, "label": "prod", "base_url": "https://prod.example",
            "credential_id": UUID().uuidString,
        ]
        object["accent"] = accent
        return (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
    }

    static func decode(_ json: Data) throws -> ServerProfile {
        try JSONDecoder().decode(ServerProfile.self, from: json)
    }

    @Test("#rrggbb and a theme's name are taken and kept; anything else is refused with the reason")
    func configChecks() throws {
        #expect(try Self.decode(Self.profile(accent: "#ff5f5f")).accent == "#ff5f5f")
        #expect(try Self.decode(Self.profile(accent: "high-contrast")).accent == "high-contrast")
        #expect(try Self.decode(Self.profile(accent: nil)).accent == nil)
        let kept = try Self.decode(Self.profile(accent: "#FF5F5F"))
        #expect(try JSONDecoder().decode(ServerProfile.self, from: JSONEncoder().encode(kept)).accent == "#FF5F5F")
        for bad in [
            "#ff5f5", "#ff5f5fz", "red;rm -rf", "../light", "", "\u{1B}]2;x", String(repeating: "a", count: 41),
        ] {
            #expect(throws: DecodingError.self, "\(bad.debugDescription)") {
                try Self.decode(Self.profile(accent: bad))
            }
        }
        #expect(ProfileAccent.problem("#12345") == "an accent colour is #rrggbb (six hex digits)")
    }

    @Test("the accent replaces the theme's accent and nothing else; a theme's name lends its accent")
    func palette() throws {
        let red = RGB(hex: 0xFF5F5F)
        let themed = Theme.makima.withAccent(red)
        #expect(themed.color(.accent) == red)
        for role in ColorRole.allCases where role != .accent {
            #expect(themed.color(role) == Theme.makima.color(role), "\(role)")
        }
        let direct = ColorDetection(capability: .direct, hasBrightColors: true, canRedefineColors: false)
        let p = LivePalette.palette(.makima, accent: red, detection: direct, redefine: false)
        #expect(p.colorNumber(.accent) == ColorMapper.directColorNumber(red))
        #expect(p.colorNumber(.border) == ColorMapper.directColorNumber(Theme.makima.color(.border)))
        let loader = ThemeLoader(searchDirectories: [])
        #expect(try AccentColor.resolve("#ff5f5f", loader: loader) == red)
        let light = try #require(Theme.builtIn(named: "light"))
        #expect(try AccentColor.resolve("light", loader: loader) == light.color(.accent))
        #expect(throws: ThemeLoadError.self) { try AccentColor.resolve("no-such-theme", loader: loader) }
    }

    @Test("Home's SYSTEM// names the shown profile's accent; signed out, the theme's own")
    func shownOnHome() throws {
        let h = try ControllerHarness { setup in
            guard case .configured(let client, let key, let source, let cacheKey) = setup.access else { return }
            var profile = client.profile
            profile.accent = "#ff5f5f"
            setup.access = .configured(
                client: APIClient(profile: profile, key: key), key: key, keySource: source, cacheKey: cacheKey)
        }
        defer { h.cleanUp() }
        #expect(h.shows("MAKIMA · ACCENT #FF5F5F"), "\(h.screen)")
        h.live.useNone(saying: "signed out")
        h.step()
        #expect(!h.shows("ACCENT"), "\(h.screen)")
    }
}
