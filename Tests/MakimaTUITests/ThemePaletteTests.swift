import Testing

@testable import MakimaTUI

@Suite struct ThemePaletteTests {
    @Test func makimaHasTheDesignPaletteValues() {
        let t = Theme.makima
        #expect(t.name == "makima")
        #expect(t[.background] == RGB(hex: 0x0C1729))
        #expect(t[.panel] == RGB(hex: 0x0F1C2F))
        #expect(t[.backgroundDeep] == RGB(hex: 0x0B1220))
        #expect(t[.foreground] == RGB(hex: 0xF0F5FF))
        #expect(t[.accent] == RGB(hex: 0x9BC3FF))
        #expect(t[.body] == RGB(hex: 0xDBE7FF))
        #expect(t[.bodySoft] == RGB(hex: 0xE4EDFF))
        #expect(t[.border] == RGB(hex: 0x3F6FB3))
        #expect(t[.warn] == RGB(hex: 0xF59E0B))
        #expect(t[.ok] == RGB(hex: 0x4ADE80))
        #expect(t[.danger] == RGB(hex: 0xF87171))
        #expect(t.declaredColor(.foregroundMuted) == ThemeColor(hex: 0x9BC3FF, alpha: 0.65))
        #expect(t.declaredColor(.borderMuted) == ThemeColor(RGB(r: 117, g: 170, b: 252), alpha: 0.35))
    }

    @Test func translucentRolesAreBlendedOverTheBackground() {
        // accent (155,195,255) @ .65 over (12,23,41) = (104.95, 134.8, 180.1)
        #expect(Theme.makima[.foregroundMuted] == RGB(hex: 0x6987B4))
        // (117,170,252) @ .35 over (12,23,41) = (48.75, 74.45, 114.85)
        #expect(Theme.makima[.borderMuted] == RGB(hex: 0x314A73))
    }

    @Test func blendingFollowsTheThemeBackgroundNotAFixedOne() {
        let onWhite = Theme(name: "w") { role in
            role == .background ? ThemeColor(hex: 0xFFFFFF) : Theme.makima.declaredColor(role)
        }
        // accent @ .65 over white: 155*.65+255*.35 = 190, 195*.65+255*.35 = 216, 255
        #expect(onWhite[.foregroundMuted] == RGB(r: 190, g: 216, b: 255))
        #expect(onWhite[.foregroundMuted] != Theme.makima[.foregroundMuted])
    }

    @Test func backgroundIsAlwaysOpaque() {
        let t = Theme(name: "x") { _ in ThemeColor(hex: 0x808080, alpha: 0.2) }
        #expect(t.declaredColor(.background).alpha == 1)
        #expect(t[.background] == RGB(hex: 0x808080))
    }

    @Test func builtInsAreNamedAndDistinct() {
        #expect(Theme.builtIn.map(\.name) == ["makima", "high-contrast", "light"])
        #expect(Theme.builtIn(named: "light") == Theme.light)
        #expect(Theme.builtIn(named: "nope") == nil)
        #expect(Set(Theme.builtIn).count == 3)
        #expect(!Theme.makima.isLight && !Theme.highContrast.isLight && Theme.light.isLight)
    }

    static let textRoles: [ColorRole] = [.foreground, .body, .bodySoft, .accent, .foregroundMuted, .warn, .ok, .danger]

    @Test(arguments: [(Theme.makima, 4.5), (Theme.light, 4.5), (Theme.highContrast, 7.0)])
    func textIsLegibleOnBackgroundAndPanel(_ theme: Theme, _ minimum: Double) {
        for role in Self.textRoles {
            for surface in [ColorRole.background, .panel] {
                let ratio = ColorScience.contrastRatio(theme[role], theme[surface])
                #expect(ratio >= minimum, "\(theme.name) \(role) on \(surface): \(ratio)")
            }
        }
    }
}
