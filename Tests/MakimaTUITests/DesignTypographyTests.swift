import Testing

@testable import MakimaTUI

@Suite struct DesignTypographyTests {
    @Test func chromeIsUppercasedBodyIsNot() {
        #expect(Typography.navLabel.apply(to: "nav//") == "NAV//")
        #expect(Typography.pill.with(role: .ok).apply(to: "ws//online") == "WS//ONLINE")
        #expect(Typography.brand.apply(to: "makima") == "MAKIMA")
        #expect(Typography.body.apply(to: "Makima is listening.") == "Makima is listening.")
        #expect(Typography.japanese.apply(to: "支配する") == "支配する")
        #expect(Typography.badgeSubtitle.apply(to: "control system") == "CONTROL SYSTEM")
    }

    @Test func stylesBecomeCellStyles() {
        #expect(Typography.titleChrome.cellStyle() == CellStyle(fg: .foreground, bg: nil, attributes: .bold))
        #expect(Typography.badge.cellStyle(background: .panel) == CellStyle(fg: .accent, bg: .panel, attributes: []))
        #expect(Typography.pill.with(role: .danger).cellStyle().fg == .danger)
        #expect(Typography.pill.with(role: .danger).cellStyle().attributes == .bold)
        #expect(Typography.glossHidden.attributes == .dim)
        #expect(Typography.glossRevealed.role == .accent)
        #expect(Typography.body.adding(.underline).attributes == .underline)
    }

    @Test func attributesAreDistinctFlags() {
        let all: [TextAttributes] = [.bold, .dim, .reverse, .underline, .italic]
        #expect(Set(all.map(\.rawValue)).count == all.count)
        #expect(all.allSatisfy { $0.rawValue.nonzeroBitCount == 1 })
        #expect(CellStyle.plain == CellStyle(fg: .body, bg: nil, attributes: []))
    }
}
