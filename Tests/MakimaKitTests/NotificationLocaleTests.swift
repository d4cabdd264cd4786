import Foundation
import Testing

@testable import MakimaKit

/// Under a locale that is not UTF-8 the notification's bytes are ASCII like everything else the
/// client writes: on an 8-bit terminal `Ĝ` (C4 9C) would end the OSC and `ě` (C4 9B) start a CSI.
@Suite struct NotificationLocaleTests {
    static let hostile = MeshNotification(
        id: EventIdentity(taskID: "t", seq: 1), kind: .taskFailed, title: "Task failed", body: "Ĝě2J deploy — café ●",
        link: .task("t1"), at: Date())

    @Test(arguments: [false, true])
    func notificationBytesAreASCIIUnderANonUTF8Locale(insideTmux: Bool) {
        let route = NotificationRoute(terminal: true, insideTmux: insideTmux, tmux: nil, notifySend: nil)
        let eightBit = DesktopNotifier(
            route: route, preferences: NotificationPreferences(), environment: [:], utf8Terminal: { false })
        let bytes = eightBit.notify([Self.hostile], now: 100).terminalBytes
        #expect(!bytes.isEmpty)
        #expect(bytes.allSatisfy { $0 < 0x80 }, "\(bytes.filter { $0 >= 0x80 })")
        #expect(String(decoding: bytes, as: UTF8.self).contains("??2J deploy - caf? *"))

        let utf8 = DesktopNotifier(
            route: route, preferences: NotificationPreferences(), environment: [:], utf8Terminal: { true })
        let full = String(decoding: utf8.notify([Self.hostile], now: 100).terminalBytes, as: UTF8.self)
        #expect(full.contains("Ĝě2J deploy — café ●"))
    }

    @Test func everyNonASCIIScalarBecomesASCII() {
        var text = ""
        for v in stride(from: 0x80, to: 0x3000, by: 7) {
            if let s = Unicode.Scalar(v) { text.unicodeScalars.append(s) }
        }
        let m = DesktopMessage(title: "t", body: text)
        for tmux in [false, true] {
            #expect(TerminalNotification.bytes(for: m, insideTmux: tmux, asciiOnly: true).allSatisfy { $0 < 0x80 })
        }
    }
}
