import Testing

@testable import MakimaTUI

@Suite struct ColorSGRTests {
    static let base = CellStyle(fg: .body)

    static func style(after sequences: [String]) -> CellStyle {
        var state = SGRState(base: base)
        for sequence in sequences { state.apply(sequence) }
        return state.style
    }

    @Test(arguments: [
        ("30", ColorRole.foregroundMuted), ("31", .danger), ("32", .ok), ("33", .warn), ("34", .accent),
        ("35", .accent), ("36", .accent), ("37", .foreground),
        ("90", .foregroundMuted), ("91", .danger), ("92", .ok), ("93", .warn), ("94", .accent),
        ("95", .accent), ("96", .accent), ("97", .foreground),
        ("38;5;1", .danger), ("38;5;10", .ok), ("38;5;8", .foregroundMuted),
        ("38;5;196", .danger), ("38;5;160", .danger), ("38;5;46", .ok), ("38;5;28", .ok), ("38;5;226", .warn),
        ("38;5;208", .warn), ("38;5;94", .warn), ("38;5;21", .accent), ("38;5;33", .accent), ("38;5;51", .accent),
        ("38;5;201", .accent), ("38;5;111", .accent), ("38;5;231", .foreground), ("38;5;250", .foreground),
        ("38;5;244", .foregroundMuted), ("38;5;236", .foregroundMuted),
        ("38;2;255;0;0", .danger), ("38;2;255;0;128", .danger), ("38;2;245;158;11", .warn),
        ("38;2;155;195;255", .accent),
        ("38:2::248:113:113", .danger), ("38:2:74:222:128", .ok), ("38:5:214", .warn),
    ])
    func foregroundColoursMapToRoles(_ sequence: String, _ role: ColorRole) {
        #expect(Self.style(after: [sequence]) == CellStyle(fg: role, bg: nil, attributes: []))
    }

    @Test func themeColoursMapToTheirOwnRole() {
        for theme in [Theme.makima, .highContrast] {
            for role in [ColorRole.accent, .warn, .ok, .danger, .foreground] {
                #expect(SGRColorMapping.role(for: theme[role]) == role, "\(theme.name) \(role)")
            }
        }
        #expect(SGRColorMapping.role(for: Theme.makima[.foregroundMuted]) == .accent)  // a blue, so accent
    }

    @Test func everyXtermColourMapsToATextRole() {
        for index in 0...255 {
            let role = SGRColorMapping.role(forXterm256: index)
            #expect(role.map { SGRColorMapping.textRoles.contains($0) } == true, "\(index)")
        }
    }

    @Test func attributesSetAndClear() {
        #expect(Self.style(after: ["1;31"]) == CellStyle(fg: .danger, attributes: .bold))
        #expect(
            Self.style(after: ["1", "2", "3", "4", "7"]).attributes == [.bold, .dim, .italic, .underline, .reverse])
        #expect(Self.style(after: ["1;2;3;4;7", "22"]).attributes == [.italic, .underline, .reverse])
        #expect(Self.style(after: ["1;3;4;7", "23;24;27"]).attributes == .bold)
        #expect(Self.style(after: ["4:3"]).attributes == .underline)
        #expect(Self.style(after: ["4", "4:0"]).attributes == [])
        #expect(Self.style(after: ["21"]).attributes == .underline)
    }

    @Test func resetAndDefaultForeground() {
        #expect(Self.style(after: ["1;31", "0"]) == Self.base)
        #expect(Self.style(after: ["1;31", ""]) == Self.base)
        #expect(Self.style(after: ["1;31;0;32"]) == CellStyle(fg: .ok))
        #expect(Self.style(after: ["1;31", "39"]) == CellStyle(fg: .body, attributes: .bold))
        var state = SGRState(base: CellStyle(fg: .foregroundMuted, bg: .panel))
        state.apply("31;1")
        state.reset()
        #expect(state.style == CellStyle(fg: .foregroundMuted, bg: .panel))
    }

    @Test func backgroundsAreReadAndDropped() {
        #expect(Self.style(after: ["41"]) == Self.base)
        #expect(Self.style(after: ["104;49"]) == Self.base)
        // The extended background's parameters are consumed, not taken for attributes.
        #expect(Self.style(after: ["48;5;1;32"]) == CellStyle(fg: .ok))
        #expect(Self.style(after: ["48;2;1;2;3;1"]) == CellStyle(fg: .body, attributes: .bold))
        #expect(Self.style(after: ["48:2::1:2:3;4"]) == CellStyle(fg: .body, attributes: .underline))
    }

    @Test func malformedInputChangesNothingItCannotRead() {
        #expect(Self.style(after: ["38;5"]) == Self.base)
        #expect(Self.style(after: ["38;5;300;1"]) == CellStyle(fg: .body, attributes: .bold))  // no colour, rest read
        #expect(Self.style(after: ["38;2;300;0;0"]) == Self.base)
        #expect(Self.style(after: ["38;9;1;31"]) == Self.base)  // unknown kind: rest unreadable
        #expect(Self.style(after: ["x;1"]) == CellStyle(fg: .body, attributes: .bold))
        #expect(Self.style(after: ["99999999999999999999999;31"]) == CellStyle(fg: .danger))
        #expect(Self.style(after: ["5;6;8;9"]) == Self.base)  // blink, conceal, strike: ignored
        #expect(Self.style(after: ["38:2:1"]) == Self.base)
    }

    @Test func hugeSequencesStopAfterTheLimit() {
        let many = Array(repeating: "0", count: SGRState.maximumParameters) + ["1"]
        #expect(Self.style(after: [many.joined(separator: ";")]) == Self.base)
    }
}
