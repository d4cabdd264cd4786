import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// The sign-in pane's typing rules, without the controller.
@Suite("Sign-in pane: typing, masking, stepping back")
struct OnboardingModelTests {
    @Test("the prefilled server is replaced by the first character, or cleared by Backspace")
    func prefill() {
        var m = OnboardingModel(server: "https://makima.jp")
        m.insert("h")
        #expect(m.server == "h")
        var n = OnboardingModel(server: "https://makima.jp")
        n.deleteBackward()
        #expect(n.server.isEmpty)
        n.deleteBackward()
        #expect(n.server.isEmpty)
    }

    @Test("control characters and escapes never enter a field; the key takes no spaces")
    func controlCharacters() {
        var m = OnboardingModel(server: "x", checkedServer: "http://127.0.0.1:1")
        for c in "mk_\u{1B}[31m ab\tc\u{7F}d" { m.insert(c) }
        #expect(m.key == "mk_[31mabcd")
        var s = OnboardingModel(server: "")
        for c in "a\u{1B}b\u{07}c" { s.insert(c) }
        #expect(s.server == "abc")
    }

    @Test("the key is shown masked with its last four once long enough; the prefix is checked as typed")
    func masking() {
        var m = OnboardingModel(server: "x", checkedServer: "http://127.0.0.1:1")
        for c in "mk_abcdefghijkl1234" { m.insert(c) }
        #expect(m.maskedKey == "mk_••••••••1234")
        #expect(m.problem == nil)
        var w = OnboardingModel(server: "x", checkedServer: "http://127.0.0.1:1")
        w.insert("z")
        #expect(w.problem == "key must start with mk_")
    }

    @Test("fields stop growing at their bound")
    func bounds() {
        var m = OnboardingModel(server: "x", checkedServer: "http://127.0.0.1:1")
        for _ in 0..<2000 { m.insert("a") }
        #expect(m.key.count == OnboardingModel.maxKeyLength)
        var s = OnboardingModel(server: "")
        for _ in 0..<5000 { s.insert("a") }
        #expect(s.server.count == OnboardingModel.maxServerLength)
    }

    @Test("Esc on step 2 goes back to step 1 unless the server is fixed; nothing is typed while a check runs")
    func stepBack() {
        var m = OnboardingModel(server: "https://makima.jp")
        m.step = .key
        m.key = "mk_x"
        let back = m.stepBack()
        #expect(back)
        #expect(m.step == .server && m.key.isEmpty)
        var fixed = OnboardingModel(server: "x", reentry: true, checkedServer: "http://127.0.0.1:1")
        let fixedBack = fixed.stepBack()
        #expect(!fixedBack)
        fixed.busy = "checking"
        fixed.insert("m")
        #expect(fixed.key.isEmpty)
    }

    @Test("where to get a key: <server>/settings of the checked server")
    func settingsURL() {
        let m = OnboardingModel(server: "x", checkedServer: "https://makima.example/")
        #expect(m.keySettingsURL == "https://makima.example/settings")
    }
}
