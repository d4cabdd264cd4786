import CNcursesShim

/// Turns `wget_wch` results into keys. Pure, so the table is unit-tested.
enum KeyDecoder {
    /// `status` is wget_wch's return (OK or KEY_CODE_YES), `code` the character or key code.
    static func decode(status: Int32, code: UInt32) -> TerminalInput? {
        if status == KEY_CODE_YES {
            switch Int32(code) {
            case KEY_UP: return .key(.up)
            case KEY_DOWN: return .key(.down)
            case KEY_LEFT: return .key(.left)
            case KEY_RIGHT: return .key(.right)
            case KEY_PPAGE: return .key(.pageUp)
            case KEY_NPAGE: return .key(.pageDown)
            case KEY_HOME: return .key(.home)
            case KEY_END: return .key(.end)
            case KEY_ENTER: return .key(.enter)
            case KEY_BACKSPACE: return .key(.backspace)
            case KEY_DC: return .key(.delete)
            case KEY_BTAB: return .key(.backTab)
            case KEY_RESIZE: return .resize
            case KEY_F0 + 1...KEY_F0 + 24: return .key(.function(Int(Int32(code) - KEY_F0)))
            default: return nil
            }
        }
        switch code {
        case 0x1B: return .key(.escape)
        case 0x0D, 0x0A: return .key(.enter)
        case 0x09: return .key(.tab)
        case 0x7F, 0x08: return .key(.backspace)
        case 0x01...0x1A: return .key(.ctrl(Character(Unicode.Scalar(code + 0x60)!)))
        case 0x00...0x1F, 0x80...0x9F: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .key(.char(Character(scalar)))
        }
    }
}
