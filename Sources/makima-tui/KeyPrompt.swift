import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads an API key: a line from stdin when it is not a terminal (pipes, scripts), else by
/// prompting on the terminal with echo off. Returns nil when the user aborts (Ctrl-C, Ctrl-D)
/// or the input has ended.
enum KeyPrompt {
    static func read(prompt: String) -> String? {
        if isatty(STDIN_FILENO) == 0 { return readLine() }
        return readHidden(prompt: prompt)
    }

    /// One line from a pipe (so a script can offer a key per try), at most 8 KiB; nil at end
    /// of input. Read a byte at a time: nothing past the line is taken from the descriptor.
    private static func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 8192 {
            let n = Glibc.read(STDIN_FILENO, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if bytes.isEmpty { return nil }
                break
            }
            if byte == 0x0A { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Non-canonical, no echo, no signals (Ctrl-C is read as a byte and aborts, so the terminal
    /// settings are always restored). Echo goes off before the prompt appears, and input typed
    /// or pasted early is kept (TCSANOW, not TCSAFLUSH).
    private static func readHidden(prompt: String) -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1  // return after each byte
            cc[Int(VTIME)] = 0  // no timer
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        defer {
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        FileHandle.standardError.write(Data(prompt.utf8))
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = Glibc.read(STDIN_FILENO, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            switch byte {
            case 0x0A, 0x0D: return String(decoding: bytes, as: UTF8.self)
            case 0x03, 0x04: return nil  // Ctrl-C, Ctrl-D
            case 0x7F, 0x08: if !bytes.isEmpty { bytes.removeLast() }
            case 0x15: bytes.removeAll()  // Ctrl-U
            default: if byte >= 0x20 && bytes.count < 4096 { bytes.append(byte) }
            }
        }
    }
}
