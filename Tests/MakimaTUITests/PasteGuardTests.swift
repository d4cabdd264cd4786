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
        h.step()
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
        #expect(h.shows("https://makima.examplekkkkkkkkkkjjj"), "\(h.screen)")
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
        let toasts = recordToasts(h)
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

    /// A paste whose text held the end marker, then CR: what a terminal sends for pasted
    /// `x<ESC>[201~<CR>`.
    static let pasteThenCR = "\u{1B}[200~x\u{1B}[201~\r"

    func signedOut(_ service: ScriptedSignIn) -> Int { service.script.withLock { $0.signedOut } }

    final class Toasts { var seen: [String] = [] }

    /// Every toast asked for from now on (a toast waits its turn on screen behind others).
    func recordToasts(_ h: ControllerHarness) -> Toasts {
        let toasts = Toasts()
        let handler = h.session.onRequest
        h.session.onRequest = { r in
            if case .toast(let text) = r { toasts.seen.append(text) }
            handler?(r)
        }
        return toasts
    }

    @Test("Settings › SIGN OUT: one real Enter plus a paste ending in CR, or two such pastes 0.4 s apart, keep the key")
    func pasteThenCRDoesNotSignOut() throws {
        let service = ScriptedSignIn()
        let h = try ControllerHarness(signIn: service)
        defer { h.cleanUp() }
        try SettingsActionTests().select(.signOut, in: h)
        h.advance(1)
        h.type(.enter)
        #expect(h.shows("press Enter again to sign out"), "\(h.screen)")
        h.advance(1)
        send(h, Self.pasteThenCR)
        #expect(signedOut(service) == 0, "\(h.screen)")
        h.advance(6)  // unarmed
        send(h, Self.pasteThenCR)
        h.advance(0.4)
        send(h, Self.pasteThenCR)
        #expect(signedOut(service) == 0, "\(h.screen)")
        #expect(!h.shows("press Enter again to sign out"), "the pastes did not arm it either: \(h.screen)")
        // A paste split over reads, its CR alone in a read right behind the end marker.
        h.advance(1)
        h.type(.enter)
        send(h, "\u{1B}[200~ab")
        send(h, "c\u{1B}[201~")
        send(h, "\r")
        #expect(signedOut(service) == 0, "\(h.screen)")
        // Enter typed alone, once the paste has settled, does sign out.
        h.advance(1)
        h.type(.enter)
        #expect(signedOut(service) == 1, "\(h.screen)")
    }

    @Test("Settings › ROTATE KEY: two pastes ending in CR do not rotate; a dropped OSC with a CR does not either")
    func pasteThenCRDoesNotRotate() throws {
        let service = ScriptedSignIn()
        let h = try ControllerHarness(signIn: service)
        defer { h.cleanUp() }
        try SettingsActionTests().select(.rotateKey, in: h)
        let toasts = recordToasts(h)
        h.advance(1)
        send(h, Self.pasteThenCR)
        h.advance(0.4)
        send(h, Self.pasteThenCR)
        h.advance(1)
        send(h, "\u{1B}]52;c;eA==\u{07}\r")
        #expect(!service.asked.contains("rotate"), "\(service.asked)")
        #expect(toasts.seen.filter { $0.hasPrefix("key rotation not done: press Enter on its own") }.count == 3)
    }

    @Test("Q inside or after a paste, in a burst, or :q in a burst does not quit; Q typed alone does")
    func pastedQDoesNotQuit() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        let toasts = recordToasts(h)
        for bytes in ["\u{1B}[200~abc\u{1B}[201~Q", "abQ", "\u{1B}[<0;1;1MQ", ":q\r", "\u{1B}]2;x\u{07}Q"] {
            h.advance(1)
            send(h, bytes)
            let quit = h.loop.app.quitRequested
            #expect(!quit, "\(bytes.debugDescription)")
            h.type(.escape)
        }
        #expect(toasts.seen.filter { $0.hasPrefix("quit not done: press Q on its own") }.count == 5, "\(toasts.seen)")
        // Right behind a paste, alone in its read: still part of it.
        h.advance(1)
        send(h, "\u{1B}[200~abc\u{1B}[201~")
        h.type(.char("Q"))
        let quitBehindPaste = h.loop.app.quitRequested
        #expect(!quitBehindPaste)
        h.advance(1)
        h.type(.char("Q"))
        let quit = h.loop.app.quitRequested
        #expect(quit)
    }

    @Test("an OSC 52 reply does not switch panes; an OSC 11 reply does not type into the command line")
    func terminalStringsAreNotKeys() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        let home = h.session.topPane.id
        send(h, "\u{1B}]52;c;MjM0NTY3\u{07}")
        #expect(h.session.topPane.id == home, "\(h.screen)")
        h.type(.char(":"))
        send(h, "\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{9D}11;rgb:1111/1111/1111\u{9C}\u{9B}2;3H")
        let line = h.loop.app.commandLine?.text
        #expect(line == "", "\(h.screen)")
    }

    @Test("a flood of keys into a field stops at the field's limit; keys after it still act")
    func keyFloodIntoAField() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        h.type(.char(":"))
        send(h, String(repeating: "a", count: 3 * TextEdit.fieldLimit))
        #expect(h.loop.app.commandLine?.text.utf8.count == TextEdit.fieldLimit)
        send(h, String(repeating: "é", count: TextEdit.fieldLimit))
        #expect(h.loop.app.commandLine?.text.utf8.count == TextEdit.fieldLimit)
        h.type(.escape)
        h.type(.char("2"), .char("/"))
        send(h, String(repeating: "b", count: 2 * TextEdit.fieldLimit))
        h.type(.escape)
        #expect(h.loop.app.commandLine == nil)
        h.type(.char("3"))
        #expect(h.shows("TASKS//"), "\(h.screen)")
    }
}
