import Testing

@testable import MakimaTUI

@Suite struct ColorMapperTests {
    @Test func directGivesTheExactRGBOfEveryRole() {
        let palette = ColorMapper.palette(for: .makima, capability: .direct)
        let expected: [ColorRole: Int] = [
            .background: 0x0C1729, .panel: 0x0F1C2F, .backgroundDeep: 0x0B1220, .foreground: 0xF0F5FF,
            .accent: 0x9BC3FF, .body: 0xDBE7FF, .bodySoft: 0xE4EDFF, .foregroundMuted: 0x6987B4,
            .border: 0x3F6FB3, .borderMuted: 0x314A73, .warn: 0xF59E0B, .ok: 0x4ADE80, .danger: 0xF87171,
        ]
        #expect(expected.count == ColorRole.themed.count)
        for role in ColorRole.themed {
            #expect(palette.colorNumber(role) == expected[role], "\(role)")
            #expect(palette.extraAttributes(role).isEmpty)
        }
        #expect(palette.redefinitions.isEmpty)
    }

    @Test func directNeverProducesANumberTerminfoReadsAsAnIndex() {
        // xterm-direct256 reads numbers below 256 as palette indices.
        #expect(ColorMapper.directColorNumber(RGB(hex: 0x000000)) == 0x000100)
        #expect(ColorMapper.directColorNumber(RGB(hex: 0x0000FF)) == 0x0001FF)
        #expect(ColorMapper.directColorNumber(RGB(hex: 0x000100)) == 0x000100)
        for theme in Theme.builtIn {
            let palette = ColorMapper.palette(for: theme, capability: .direct)
            for role in ColorRole.allCases { #expect(palette.colorNumber(role)! >= 256) }
        }
    }

    // Pinned: the tmux end-to-end test asserts the same SGR indices. CIEDE2000 puts the navy
    // background on the grey ramp (233 = #121212, ΔE 10.8) rather than black (16, ΔE 11.5),
    // and the accent on #87afff (111, ΔE 5.2) rather than #afd7ff (153, ΔE 5.6).
    @Test func palette256PinsTheMakimaIndices() {
        let palette = ColorMapper.palette(for: .makima, capability: .palette256)
        #expect(palette.colorNumber(.accent) == 111)
        #expect(palette.colorNumber(.background) == 233)
        let expected: [ColorRole: Int] = [
            .background: 233, .panel: 234, .backgroundDeep: 233, .foreground: 255, .accent: 111,
            .body: 189, .bodySoft: 255, .foregroundMuted: 67, .border: 25, .borderMuted: 25,
            .warn: 214, .ok: 78, .danger: 203,
        ]
        for role in ColorRole.themed { #expect(palette.colorNumber(role) == expected[role], "\(role)") }
    }

    @Test(arguments: Theme.builtIn)
    func palette256StaysInTheStandardRange(_ theme: Theme) {
        let palette = ColorMapper.palette(for: theme, capability: .palette256)
        for role in ColorRole.allCases {
            let index = palette.colorNumber(role)
            #expect(
                index.map { (16...255).contains($0) } == true, "\(theme.name) \(role): \(String(describing: index))")
        }
    }

    /// Roles whose difference carries meaning must not share an index after quantising.
    @Test(arguments: Theme.builtIn)
    func palette256KeepsMeaningfulRolesApart(_ theme: Theme) {
        let palette = ColorMapper.palette(for: theme, capability: .palette256)
        let pairs: [(ColorRole, ColorRole)] = [
            (.accent, .foregroundMuted), (.body, .foregroundMuted), (.accent, .body),
            (.warn, .danger), (.ok, .warn), (.ok, .danger), (.background, .foreground),
        ]
        for (a, b) in pairs {
            #expect(palette.colorNumber(a) != palette.colorNumber(b), "\(theme.name): \(a) and \(b)")
        }
    }

    @Test func nearestIndexFindsExactPaletteColoursAndNeverTheTerminalDefinedSixteen() {
        for index in [16, 61, 111, 153, 196, 231, 232, 244, 255] {
            #expect(Xterm256.nearestIndex(to: Xterm256.rgb(index)!) == index)
        }
        #expect(Xterm256.nearestIndex(to: RGB(hex: 0x000000)) == 16)
        #expect(Xterm256.nearestIndex(to: RGB(hex: 0xFFFFFF)) == 231)
        #expect(Xterm256.rgb(15) == nil)
        #expect(Xterm256.rgb(153) == RGB(hex: 0xAFD7FF))
        #expect(Xterm256.rgb(233) == RGB(hex: 0x121212))
        #expect(Xterm256.nearestIndices(to: RGB(hex: 0x9BC3FF), count: 2) == [111, 153])
    }

    @Test func palette16UsesTheDocumentedDarkTable() {
        let palette = ColorMapper.palette(for: .makima, capability: .palette16)
        let expected: [ColorRole: (Int, TextAttributes)] = [
            .background: (0, []), .panel: (0, []), .backgroundDeep: (0, []), .foreground: (15, []),
            .accent: (12, []), .body: (7, []), .bodySoft: (7, []), .foregroundMuted: (8, []),
            .border: (4, []), .borderMuted: (4, .dim), .warn: (11, []), .ok: (10, []), .danger: (9, []),
        ]
        for role in ColorRole.themed {
            #expect(palette.colorNumber(role) == expected[role]!.0, "\(role)")
            #expect(palette.extraAttributes(role) == expected[role]!.1, "\(role)")
        }
    }

    @Test func palette16UsesTheLightTableForLightThemes() {
        let palette = ColorMapper.palette(for: .light, capability: .palette16)
        #expect(palette.colorNumber(.background) == 15)
        #expect(palette.colorNumber(.panel) == 7)
        #expect(palette.colorNumber(.body) == 0)
        #expect(palette.colorNumber(.accent) == 4)
        #expect(palette.colorNumber(.danger) == 1)
    }

    @Test func eightColourTerminalsTurnBrightIntoBold() {
        let palette = ColorMapper.palette(for: .makima, capability: .palette16, hasBrightColors: false)
        for role in ColorRole.allCases { #expect(palette.colorNumber(role)! < 8, "\(role)") }
        #expect(palette.colorNumber(.danger) == 1 && palette.extraAttributes(.danger) == .bold)
        #expect(palette.colorNumber(.foreground) == 7 && palette.extraAttributes(.foreground) == .bold)
        // Bright black would be black + bold: invisible where bold is not bright.
        #expect(palette.colorNumber(.foregroundMuted) == 7 && palette.extraAttributes(.foregroundMuted) == .dim)
        #expect(palette.colorNumber(.background) == 0 && palette.extraAttributes(.background).isEmpty)
        let light = ColorMapper.palette(for: .light, capability: .palette16, hasBrightColors: false)
        #expect(light.colorNumber(.background) == 7 && light.extraAttributes(.background).isEmpty)
    }

    @Test func noneHasNoColoursOnlyAttributes() {
        let palette = ColorMapper.palette(for: .makima, capability: .none)
        for role in ColorRole.allCases { #expect(palette.colorNumber(role) == nil) }
        #expect(palette.extraAttributes(.foregroundMuted) == .dim)
        #expect(palette.extraAttributes(.danger) == .bold)
        #expect(palette.extraAttributes(.body).isEmpty)
        let resolved = palette.resolve(CellStyle(fg: .foregroundMuted, bg: .panel, attributes: .underline))
        #expect(resolved == ResolvedCellStyle(fg: nil, bg: nil, attributes: [.underline, .dim]))
    }

    @Test func resolveCombinesStyleAndRoleAttributes() {
        let palette = ColorMapper.palette(for: .makima, capability: .palette16)
        let resolved = palette.resolve(CellStyle(fg: .borderMuted, bg: .panel, attributes: .bold))
        #expect(resolved == ResolvedCellStyle(fg: 4, bg: 0, attributes: [.bold, .dim]))
        #expect(palette.resolve(CellStyle(fg: .accent)).bg == nil)
    }

    @Test func redefinitionGivesEveryDistinctColourItsOwnIndex() {
        let detection = ColorDetection(capability: .palette256, hasBrightColors: true, canRedefineColors: true)
        let palette = ColorMapper.palette(for: .makima, detection: detection, redefineColors: true)
        let plan = palette.redefinitions
        let distinctColours = Set(ColorRole.allCases.map { Theme.makima[$0] })
        #expect(plan.count == distinctColours.count)
        #expect(Set(plan.map(\.index)).count == plan.count)
        for entry in plan { #expect((16...255).contains(entry.index)) }
        for role in ColorRole.allCases {
            let entry = plan.first { $0.index == palette.colorNumber(role) }
            #expect(entry?.rgb == Theme.makima[role], "\(role)")
        }
        // Where two colours share a nearest index, the first role keeps it and the other moves on.
        #expect(palette.colorNumber(.border) == 25)
        #expect(palette.colorNumber(.borderMuted) != 25)
        #expect(palette.colorNumber(.accent) == 111)
    }

    @Test func redefinitionIsOnlyUsedWhenTheTerminalAllowsIt() {
        let detection = ColorDetection(capability: .palette256, hasBrightColors: true, canRedefineColors: false)
        let palette = ColorMapper.palette(for: .makima, detection: detection, redefineColors: true)
        #expect(palette.redefinitions.isEmpty)
        #expect(palette.colorNumber(.background) == 233)
    }

    @Test func cursesComponentsRoundUpSoNcursesGetsTheColourBack() {
        #expect(PaletteRedefinition.cursesComponent(0) == 0)
        #expect(PaletteRedefinition.cursesComponent(255) == 1000)
        #expect(PaletteRedefinition.cursesComponent(12) == 48)
        // ncurses turns 0...1000 back into 0...255 by v * 255 / 1000, truncating.
        for value in 0...255 {
            let back = Int(PaletteRedefinition.cursesComponent(UInt8(value))) * 255 / 1000
            #expect(back == value)
        }
        let entry = PaletteRedefinition(index: 233, rgb: RGB(hex: 0x0C1729))
        #expect([entry.red, entry.green, entry.blue] == [48, 91, 161])
    }
}
