import Foundation

/// OSC 52 (`ESC ] 52 ; c ; base64 BEL`): asks the terminal to put text on the system clipboard.
/// Written by hand: one short escape sequence that no packaged library emits and terminfo does
/// not describe. tmux forwards it to the outer terminal with its default `set-clipboard external`.
enum ClipboardCopy {
    /// Longer text is not copied (terminals cap OSC 52 payloads; an address is far shorter).
    static let maxBytes = 4096

    static func osc52(_ text: String) -> [UInt8] {
        let data = Data(text.utf8.prefix(maxBytes))
        return [0x1B] + Array("]52;c;\(data.base64EncodedString())".utf8) + [0x07]
    }
}
