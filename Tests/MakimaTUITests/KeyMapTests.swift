import CNcursesShim
import Foundation
import Testing

@testable import MakimaTUI

@Suite("Key map, help overlay, docs/keys.md")
struct KeyMapTests {
    static let paneContexts: [[KeyContext]] = [HomePane().keyContexts, ListPane(id: .tasks).keyContexts]

    func app() -> AppState {
        AppState(masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .idle, clock: "12:00"))
    }

    @Test("every footer hint appears in the help overlay, with its keys and description")
    func footerHintsInHelp() {
        for contexts in Self.paneContexts {
            let keyMap = KeyMap.standard
            let help = HelpOverlay.lines(keyMap.helpSections(modes: [contexts + [.global], [.textInput]]), width: 200)
                .map(\.text)
            let hints = keyMap.footerHints(in: contexts + [.global]) + keyMap.footerHints(in: [.textInput])
            #expect(!hints.isEmpty)
            for h in hints {
                #expect(
                    help.contains { $0.hasPrefix(h.label + " ") && $0.contains(h.description) },
                    "\(h.label) \(h.description)")
            }
        }
    }

    @Test("the footer offers Tab complete on the command line only, not while a filter is typed")
    func tabCompleteOnlyWhereItCompletes() {
        var a = app()
        a.handle(.char("2"), now: 0)
        a.handle(.char("/"), now: 0)
        #expect(a.isTyping)
        #expect(!a.footerHints.contains { $0.action == .complete })
        #expect(!a.render(width: 200, height: 60).trimmedLine(59).contains("complete"))
        a.handle(.escape, now: 0)
        a.handle(.char(":"), now: 0)
        #expect(a.commandLine != nil)
        #expect(a.footerHints.contains { $0.action == .complete })
    }

    @Test("the rendered help overlay and footer come from the key map")
    func renderedHelp() {
        var a = app()
        a.handle(.char("2"), now: 0)
        let footer = a.render(width: 200, height: 60).trimmedLine(59)
        for h in a.footerHints { #expect(footer.contains("\(h.label) \(h.hint)")) }
        a.handle(.char("?"), now: 0)
        #expect(a.helpOpen)
        let screen = a.render(width: 200, height: 60).lines.joined(separator: "\n")
        #expect(screen.contains("HELP//"))
        for (_, bindings) in a.helpSections {
            for b in bindings { #expect(screen.contains(b.description), "\(b.description)") }
        }
        a.handle(.escape, now: 0)
        #expect(!a.helpOpen)
    }

    @Test("a small screen scrolls the help with j/k")
    func helpScrolls() {
        var a = app()
        a.handle(.char("2"), now: 0)
        a.handle(.char("?"), now: 0)
        let first = a.render(width: 80, height: 24).lines.joined(separator: "\n")
        #expect(first.contains("j/↓ more"))
        for _ in 0..<40 { a.handle(.char("j"), now: 0) }
        let last = a.render(width: 80, height: 24).lines.joined(separator: "\n")
        #expect(last.contains("delete the last character"))
        #expect(!last.contains("j/↓ more"))
    }

    @Test("a pane's own contexts win: g is first row in lists, glosses elsewhere")
    func precedence() {
        let keyMap = KeyMap.standard
        #expect(keyMap.action(for: .char("g"), in: [.list, .global]) == .top)
        #expect(keyMap.action(for: .char("g"), in: [.global]) == .gloss)
        #expect(keyMap.action(for: .char("5"), in: [.list, .global]) == .jumpByNumber)
        #expect(keyMap.action(for: .escape, in: [.textInput]) == .cancel)
        #expect(keyMap.action(for: .char("z"), in: [.list, .global]) == nil)
        #expect(!keyMap.footerHints(in: [.list, .global]).contains { $0.action == .gloss })
    }

    @Test("no key is bound twice in one context")
    func noDuplicates() {
        for c in KeyMap.standard.contexts {
            let keys = KeyMap.standard.bindings.filter { $0.context == c }.flatMap(\.keys)
            #expect(Set(keys).count == keys.count, "\(c.title)")
        }
    }

    @Test("docs/keys.md is the key map's markdown and lists every binding")
    func docsInStep() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/keys.md"), encoding: .utf8)
        #expect(
            doc == KeyMap.standard.markdown(), "regenerate with: swift run makima-tui --print-keymap > docs/keys.md")
        for b in KeyMap.standard.bindings { #expect(doc.contains("| `\(b.label)` | \(b.description) |")) }
        for command in CommandLineState.commands { #expect(doc.contains("`\(command)`")) }
    }

    @Test("wget_wch results decode to keys")
    func decoder() {
        #expect(KeyDecoder.decode(status: 0, code: 0x71) == .key(.char("q")))
        #expect(KeyDecoder.decode(status: 0, code: 0x1B) == .key(.escape))
        #expect(KeyDecoder.decode(status: 0, code: 0x0D) == .key(.enter))
        #expect(KeyDecoder.decode(status: 0, code: 0x03) == .key(.ctrl("c")))
        #expect(KeyDecoder.decode(status: 0, code: 0x7F) == .key(.backspace))
        #expect(KeyDecoder.decode(status: 0, code: 0x5951) == .key(.char("契")))
        #expect(KeyDecoder.decode(status: 0, code: 0x9B) == nil)
        #expect(KeyDecoder.decode(status: 0, code: 0x1C) == nil)
        #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_UP)) == .key(.up))
        #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_NPAGE)) == .key(.pageDown))
        #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_RESIZE)) == .resize)
        #expect(KeyDecoder.decode(status: KEY_CODE_YES, code: UInt32(KEY_F0 + 5)) == .key(.function(5)))
    }
}
