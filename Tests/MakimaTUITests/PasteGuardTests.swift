import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// A paste is text for the focused field, never commands: bracketed, it is one event; from a
/// terminal without bracketed paste it is a burst of keys, and a burst cannot confirm sign-out,
/// key rotation or the quit prompt.
@MainActor @Suite("Paste: text for the field, never destructive keys")
struct PasteGuardTests {
    static let serverPaste = "https://makima.example\u{1B}7kkkkkkkkkkjjj\r\r"
    static let keyPaste = "mk_looks_like_a_key\u{1B}7kkkkkkkkkkjj\r"

    func bracketed(_ text: String) -> String { "\u{1B}[200~" + text + "\u{1B}[201~" }

    func send(_ h: ControllerHarness, _ text: String) {
        h.terminal.send(Array(text.utf8))
        h.settle()
    }

    /// Settings › server open: the server step over Settings, its field being typed in.
    func serverStep(_ service: ScriptedSignIn) throws -> ControllerHarness {
        let h = try ControllerHarness(signIn: service)
        try SettingsActionTests().select(.editServer, in: h)
        h.type(.enter)
        #expect(h.shows("01 SERVER → 02 KEY"), "\(h.screen)")
        h.advance(1)
        return h
    }

    @Test("bracketed: pasting a URL with ESC 7 k… j… CR CR into Settings › server fills the field only")
    func bracketedServerPaste() throws {
        let service = ScriptedSignIn()
        let h = try serverStep(service)
        defer { h.cleanUp() }
        send(h, bracketed(Self.serverPaste))
        #expect(service.script.withLock { $0.signedOut } == 0)
        #expect(h.shows("https://makima.example7kkkkkkkkkkjjj"), "\(h.screen)")
        #expect(h.shows("01 SERVER → 02 KEY"), "still on the server step: \(h.screen)")
        #expect(!service.asked.contains { $0.hasPrefix("server") }, "the CRs did not submit: \(service.asked)")
        // While the field is edited a click on a breadcrumb does not leave it (Esc does).
        try MouseControllerTests().click(h, on: "SETTINGS ›")
        #expect(h.shows("01 SERVER → 02 KEY"), "\(h.screen)")
    }

    @Test("without bracketed paste: the same bytes as a burst of keys do not sign out nor delete the key")
    func burstServerPaste() throws {
        let service = ScriptedSignIn()
        let h = try serverStep(service)
        defer { h.cleanUp() }
        send(h, Self.serverPaste)
        #expect(service.script.withLock { $0.signedOut } == 0, "\(h.screen)")
        #expect(h.shows("sign out not done: press Enter on its own"), "\(h.screen)")
        // Typed on its own, Enter still arms sign-out (the guard refuses bursts, not keys).
        h.advance(1)
        h.type(.enter)
        #expect(h.shows("press Enter again to sign out"), "\(h.screen)")
    }

    @Test("pasting a key-looking text with ESC 7 k… j… CR over Settings does not rotate the key, either way")
    func keyPasteDoesNotRotate() throws {
        let service = ScriptedSignIn()
        let h = try ControllerHarness(signIn: service)
        defer { h.cleanUp() }
        final class Toasts { var seen: [String] = [] }
        let toasts = Toasts()
        let handler = h.session.onRequest
        h.session.onRequest = { r in
            if case .toast(let text) = r { toasts.seen.append(text) }
            handler?(r)
        }
        h.type(.char("7"))
        h.advance(1)
        send(h, bracketed(Self.keyPaste))
        #expect(toasts.seen.contains { $0.hasPrefix("paste ignored: no text field here") }, "\(toasts.seen)")
        h.advance(1)
        send(h, Self.keyPaste)
        #expect(!service.asked.contains("rotate"), "\(service.asked)")
        #expect(toasts.seen.contains { $0.hasPrefix("key rotation not done") }, "\(toasts.seen)")
    }

    @Test("a click on the selected sign-out row does not sign out either")
    func clickDoesNotConfirm() throws {
        let service = ScriptedSignIn()
        let h = try ControllerHarness(signIn: service)
        defer { h.cleanUp() }
        try SettingsActionTests().select(.signOut, in: h)
        let row = try #require(h.terminal.backend.find("› SIGN OUT"))
        for _ in 0..<3 {
            send(h, MouseControllerTests.click(row.x, row.y))
            h.advance(1)
        }
        #expect(service.script.withLock { $0.signedOut } == 0)
        #expect(!h.shows("press Enter again to sign out"), "\(h.screen)")
    }

    @Test("a paste into the command line and a list filter is text; q y in one burst does not quit")
    func pasteIntoFieldsAndQuitPrompt() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        NavigationControllerTests().seed(h)
        h.type(.char("2"), .char("/"))
        send(h, bracketed("Bill\r"))
        #expect(h.shows("/Bill"), "\(h.screen)")
        #expect(h.engine.details.isEmpty, "the CR of a paste is not Enter")
        h.type(.escape)
        h.type(.escape)
        h.advance(1)
        send(h, "qy")
        let quitByBurst = h.loop.app.quitRequested
        #expect(!quitByBurst, "\(h.screen)")
        h.advance(1)
        h.type(.char("q"))
        h.advance(1)
        h.type(.char("y"))
        let quitByKey = h.loop.app.quitRequested
        #expect(quitByKey)
    }
}
