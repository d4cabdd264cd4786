import MakimaTUI
import Testing

/// `:profile NAME` on the command line: Tab completes the stored profiles' names, Enter asks
/// for the switch, and a bare `profile` lists the names instead of failing.
@Suite struct ProfileCommandTests {
    func typed(_ text: String, names: [String] = ["staging", "prod", "prod-eu"]) -> CommandLineState {
        var line = CommandLineState(profileNames: names)
        for c in text { _ = line.apply(.insert(c)) }
        return line
    }

    @Test func tabCompletesTheCommandThenTheName() {
        var line = typed("pro")
        _ = line.apply(.complete)
        #expect(line.text == "profile ")
        for c in "st" { _ = line.apply(.insert(c)) }
        _ = line.apply(.complete)
        #expect(line.text == "profile staging")
    }

    @Test func severalNamesExtendToTheirCommonPrefixAndAreListed() {
        var line = typed("profile p")
        _ = line.apply(.complete)
        #expect(line.text == "profile prod")
        #expect(line.message == "prod prod-eu")
    }

    @Test func enterAsksForTheSwitch() {
        var line = typed("profile prod-eu")
        #expect(line.apply(.submit) == .profile("prod-eu"))
    }

    @Test func aBareProfileListsTheNames() {
        var line = typed("profile")
        #expect(line.apply(.submit) == .editing)
        #expect(line.text == "profile ")
        #expect(line.message == "profiles: staging prod prod-eu")
        var none = typed("profile ", names: [])
        _ = none.apply(.complete)
        #expect(none.message == "no profiles stored")
    }
}
