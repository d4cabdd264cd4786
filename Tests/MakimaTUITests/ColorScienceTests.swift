import Testing

@testable import MakimaTUI

@Suite struct ColorScienceTests {
    // Reference pairs from Sharma, Wu and Dalal, "The CIEDE2000 color-difference formula" (2005).
    @Test(arguments: [
        (LabColor(l: 50, a: 2.6772, b: -79.7751), LabColor(l: 50, a: 0, b: -82.7485), 2.0425),
        (LabColor(l: 50, a: 0, b: 0), LabColor(l: 50, a: -1, b: 2), 2.3669),
        (LabColor(l: 50, a: 2.5, b: 0), LabColor(l: 73, a: 25, b: -18), 27.1492),
        (LabColor(l: 60.2574, a: -34.0099, b: 36.2677), LabColor(l: 60.4626, a: -34.1751, b: 39.4387), 1.2644),
    ])
    func deltaE2000MatchesPublishedPairs(_ p: LabColor, _ q: LabColor, _ expected: Double) {
        #expect(abs(ColorScience.deltaE2000(p, q) - expected) < 0.0001)
        #expect(abs(ColorScience.deltaE2000(q, p) - expected) < 0.0001)
    }

    @Test func labOfKnownColours() {
        let white = LabColor(RGB(hex: 0xFFFFFF))
        #expect(abs(white.l - 100) < 0.01 && abs(white.a) < 0.01 && abs(white.b) < 0.01)
        let accent = LabColor(RGB(hex: 0x9BC3FF))
        #expect(abs(accent.l - 78.0024) < 0.001)
        #expect(abs(accent.b - -33.7284) < 0.001)
        #expect(ColorScience.deltaE2000(RGB(hex: 0x123456), RGB(hex: 0x123456)) == 0)
    }

    @Test func contrastRatioEndpoints() {
        #expect(abs(ColorScience.contrastRatio(RGB(hex: 0), RGB(hex: 0xFFFFFF)) - 21) < 0.001)
        #expect(ColorScience.contrastRatio(RGB(hex: 0x777777), RGB(hex: 0x777777)) == 1)
    }
}
