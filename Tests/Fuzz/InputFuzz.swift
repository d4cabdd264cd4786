@_spi(Fuzzing) import MakimaTUI

/// The terminal input path: `InputDecoder` (keys, SGR mouse reports, bracketed paste), then
/// the app (`AppState`) hit-testing every mouse report against a real frame and taking every
/// paste and key. The input is what a hostile terminal or a paste could send. Bytes are read
/// as UTF-8; a byte that is not (U+FFFD after decoding) ends a read and lets a second pass
/// (so started sequences and pastes meet their deadlines); U+E000…U+E0FF are key codes ncurses
/// decoded (0x100 + the low byte: arrows, function keys, KEY_RESIZE among them).
/// Invariants: nothing traps; a paste holds no control and no newline and at most
/// `InputDecoder.pasteLimit` characters; a mouse report has coordinates ≥ 0 below 100,000; no
/// input yields more events than it has characters (plus the Escape a read can end with); after
/// every deadline the decoder waits on nothing.
enum InputFuzz {
    static func check(_ bytes: [UInt8]) -> String? {
        var decoder = InputDecoder()
        var app = AppState(masthead: MastheadModel(serverLabel: "fuzz", version: "0", pill: .idle, clock: "00:00"))
        _ = app.render(width: 80, height: 24)
        var now = 0.0
        var fed = 0
        var events = 0
        // A frame after each change, up to a bound (rendering is most of the cost of an input).
        var frames = 0
        let scalars = String(decoding: bytes.prefix(65_536), as: UTF8.self).unicodeScalars
        func drain() -> String? {
            while let input = decoder.next() {
                events += 1
                var changed = false
                switch input {
                case .paste(let text):
                    if text.count > InputDecoder.pasteLimit { return "paste of \(text.count) characters" }
                    if let bad = Invariant.firstControl(in: text) ?? (text.contains("\n") ? "a newline" : nil) {
                        return "paste holds \(bad): \(Invariant.excerpt(text))"
                    }
                    changed = app.paste(text)
                case .mouse(let e):
                    guard (0..<100_000).contains(e.x), (0..<100_000).contains(e.y) else {
                        return "mouse report at \(e.x),\(e.y)"
                    }
                    changed = app.handle(e, now: now)
                case .key(let key):
                    changed = app.handle(key, now: now)
                case .resize, .focus:
                    break
                }
                _ = app.takeRequests()
                _ = app.takeTerminalWrites()
                if app.quitRequested {
                    app = AppState(masthead: app.masthead)
                    changed = true
                }
                if changed && frames < 64 {
                    frames += 1
                    _ = app.render(width: 80, height: 24)
                }
            }
            return nil
        }
        for scalar in scalars {
            now += 0.001
            fed += 1
            switch scalar.value {
            case 0xFFFD:
                decoder.endOfInput()
                now += 1
                decoder.expire(now: now)
            case 0xE000...0xE0FF:
                decoder.feed(keyCode: 0x100 + (scalar.value & 0xFF), now: now)
            default:
                decoder.feed(character: scalar.value, now: now)
            }
            if let bad = drain() { return bad }
        }
        decoder.endOfInput()
        decoder.expire(now: now + 10)
        if let bad = drain() { return bad }
        if decoder.deadline != nil { return "the decoder still waits after every deadline" }
        if events > fed + 1 { return "\(events) events from \(fed) characters" }
        return nil
    }
}
