import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// Each controller declares the keys it answers; the key map composes the declarations, and
/// the footer, the help and docs/keys.md come from it (`KeyMapTests`).
@MainActor @Suite("Controllers declare their keys; the key map composes them")
struct ControllerKeysTests {
    static let declared: [(controller: String, keys: [KeyBinding])] = [
        ("navigation", NavigationController.keyBindings), ("refresh", RefreshController.keyBindings),
        ("sign-in", SignInController.keyBindings), ("notifications", NotificationController.keyBindings),
        ("task output", TaskOutputController.keyBindings),
    ]

    @Test("every key a controller declares is in the standard map once, in a section of the help")
    func declarationsComposed() {
        let map = KeyMap.standard
        for (controller, keys) in Self.declared {
            #expect(!keys.isEmpty, "\(controller)")
            for b in keys {
                #expect(map.bindings.filter { $0 == b }.count == 1, "\(controller): \(b.label)")
                #expect(KeyMap.contextOrder.contains(b.context), "\(controller): \(b.context.title)")
            }
        }
        #expect(map.contexts == KeyMap.contextOrder)
    }

    @Test("composing keeps each context's bindings in the order of the parts, contexts in the order given")
    func compositionOrder() {
        let a = KeyBinding([.char("a")], .request(.refresh), "a", context: .list)
        let b = KeyBinding([.char("b")], .help, "b", context: .global)
        let c = KeyBinding([.char("c")], .request(.reconnect), "c", context: .list)
        let d = KeyBinding([.char("d")], .open, "d", context: .home)
        let map = KeyMap(composing: [[a, b], [c, d]], contextOrder: [.global, .list])
        #expect(map.bindings == [b, a, c, d])
    }

    @Test("each global key a controller declares reaches that controller")
    func globalKeysReachTheirController() throws {
        let h = try ControllerHarness()
        defer { h.cleanUp() }
        for (controller, keys) in Self.declared {
            for b in keys where b.context == .global {
                let key = try #require(b.keys.first)
                h.advance(6)  // the last key's toast is over
                let retries = h.engine.retries
                h.engine.forgetRefreshes()
                h.type(key)
                switch b.action {
                case .request(.refresh): #expect(!h.engine.refreshed.isEmpty, "\(controller)")
                case .request(.reconnect): #expect(h.engine.retries == retries + 1, "\(controller)")
                case .request(.signIn(.enterKey)):
                    #expect(h.shows(SignInController.noSignIn), "\(controller): \(h.screen)")
                case .request(.openLatestNotification):
                    #expect(h.shows("no notifications yet"), "\(controller): \(h.screen)")
                case .grepPrompt:
                    #expect(h.loop.app.commandLine?.text == "grep ", "\(controller)")
                    h.type(.escape)
                default: Issue.record("\(controller) declares \(b.label), which this test does not check")
                }
            }
        }
    }
}
