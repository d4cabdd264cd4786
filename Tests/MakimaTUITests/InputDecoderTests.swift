import CNcursesShim
import Testing

@testable @_spi(Fuzzing) import MakimaTUI

/// `InputDecoder`: SGR mouse reports and bracketed paste out of what ncurses passes on, and
/// every hostile form of them dropped.
@Suite("Input decoder: mouse reports, bracketed paste, hostile input")
struct InputDecoderTests {
    /// Decodes `text` fed as one read at `now`, then `end` (the read is over).
    func decode(_ text: String, now: Double = 0, decoder: inout InputDecoder) -> [TerminalInput] {
        for s in text.unicodeScalars { decoder.feed(character: s.value, now: now) }
        decoder.endOfInput()
        var out: [TerminalInput] = []
        while let i = decoder.next() { out.append(i) }
        return out
    }

    func decode(_ text: String) -> [TerminalInput] {
        var d = InputDecoder()
        return decode(text, decoder: &d)
    }

    @Test("focus in and out (mode 1004) between keys; a focus report with parameters is dropped")
    func focus() {
        #expect(decode("a\u{1B}[Ib\u{1B}[O") == [.key(.char("a")), .focus(true), .key(.char("b")), .focus(false)])
        #expect(decode("\u{1B}[1I\u{1B}[?O") == [])
    }

    @Test("an SGR press, release and wheel notch; cells count from 0")
    func sgr() {
        #expect(decode("\u{1B}[<0;10;5M") == [.mouse(MouseEvent(button: .left, x: 9, y: 4))])
        #expect(decode("\u{1B}[<0;10;5m") == [.mouse(MouseEvent(button: .left, pressed: false, x: 9, y: 4))])
        #expect(decode("\u{1B}[<64;1;1M") == [.mouse(MouseEvent(button: .wheelUp, x: 0, y: 0))])
        #expect(decode("\u{1B}[<65;3;2M") == [.mouse(MouseEvent(button: .wheelDown, x: 2, y: 1))])
        #expect(decode("\u{1B}[<32;3;2M") == [.mouse(MouseEvent(button: .left, motion: true, x: 2, y: 1))])
        #expect(decode("\u{1B}[<2;3;2M") == [.mouse(MouseEvent(button: .right, x: 2, y: 1))])
        // Modifiers do not change the button.
        #expect(decode("\u{1B}[<4;3;2M") == [.mouse(MouseEvent(button: .left, x: 2, y: 1))])
    }

    @Test("keys around reports stay keys; a lone ESC is Escape; ESC then a letter is Escape and the letter")
    func keysAround() {
        #expect(
            decode("j\u{1B}[<0;1;1Mk") == [
                .key(.char("j")), .mouse(MouseEvent(button: .left, x: 0, y: 0)), .key(.char("k")),
            ])
        #expect(decode("\u{1B}") == [.key(.escape)])
        #expect(decode("\u{1B}7") == [.key(.escape), .key(.char("7"))])
        #expect(decode("\u{1B}\u{1B}[<0;1;1M") == [.key(.escape), .mouse(MouseEvent(button: .left, x: 0, y: 0))])
    }

    @Test("malformed, huge, zero and truncated reports are dropped, and nothing of them is typed")
    func hostileReports() {
        for bad in [
            "\u{1B}[<0;10M", "\u{1B}[<0;10;5;7M", "\u{1B}[<;;M", "\u{1B}[<0;0;5M", "\u{1B}[<0;5;0M",
            "\u{1B}[<999999;1;1M", "\u{1B}[<0;99999999999999999999;1M", "\u{1B}[<0;1;1X", "\u{1B}[<0:1:1M",
            "\u{1B}[<256;1;1M", "\u{1B}[<" + String(repeating: "9", count: 10_000) + "M",
            "\u{1B}[1;5A", "\u{1B}[201~",
        ] {
            #expect(decode(bad).isEmpty, "\(bad.prefix(40).debugDescription)")
        }
        // Cut short by ESC: the sequence is dropped, what follows is read afresh.
        #expect(decode("\u{1B}[<0;1\u{1B}[<0;2;2M") == [.mouse(MouseEvent(button: .left, x: 1, y: 1))])
        // X10 reports (a terminal without SGR): their three raw bytes are not typed.
        #expect(decode("\u{1B}[M !!j") == [.key(.char("j"))])
    }

    @Test("a truncated report waits for its rest, then is given up at its deadline")
    func truncated() {
        var d = InputDecoder()
        #expect(decode("\u{1B}[<0;1", now: 0, decoder: &d).isEmpty)
        #expect(d.deadline == InputDecoder.sequenceTimeout)
        // The rest arrives in the next read: one report.
        #expect(decode(";1M", now: 0.01, decoder: &d) == [.mouse(MouseEvent(button: .left, x: 0, y: 0))])
        #expect(decode("\u{1B}[<0;1", now: 1, decoder: &d).isEmpty)
        d.expire(now: 1 + InputDecoder.sequenceTimeout)
        #expect(d.deadline == nil)
        // After the deadline a digit is a key again, not the end of a stale report.
        #expect(decode("5", now: 2, decoder: &d) == [.key(.char("5"))])
    }

    @Test("a bracketed paste is one event of text: controls and newlines removed, never keys")
    func paste() {
        // Cleaned as server text is (`UntrustedText`): `ESC 7` is a two-byte escape, dropped.
        let pasted = "https://makima.example\u{1B}7kkkkkkkkkkjjj\r\r"
        #expect(decode("\u{1B}[200~" + pasted + "\u{1B}[201~") == [.paste("https://makima.examplekkkkkkkkkkjjj")])
        // A tab is spaces, a newline goes, DEL goes, the 8-bit CSI `9B e` and `ESC [ A` go whole.
        #expect(
            decode("\u{1B}[200~a\tb\nc\u{7F}d\u{9B}e\u{1B}[A\u{1B}[201~x") == [
                .paste("a       bcd"), .key(.char("x")),
            ])
        // A marker inside the paste that is not its end is a sequence like any other: dropped.
        #expect(decode("\u{1B}[200~a\u{1B}[200~b\u{1B}[20x\u{1B}[201~") == [.paste("ab")])
        #expect(decode("\u{1B}[200~日本語 ok\u{1B}[201~") == [.paste("日本語 ok")])
    }

    @Test("a resize inside a paste is kept; other key codes inside it are dropped")
    func resizeInPaste() {
        var d = InputDecoder()
        for s in "\u{1B}[200~ab".unicodeScalars { d.feed(character: s.value, now: 0) }
        d.feed(keyCode: UInt32(KEY_RESIZE), now: 0)
        d.feed(keyCode: UInt32(KEY_UP), now: 0)
        for s in "c\u{1B}[201~".unicodeScalars { d.feed(character: s.value, now: 0) }
        #expect(d.next() == .resize)
        #expect(d.next() == .paste("abc"))
        #expect(d.next() == nil)
    }

    @Test("a paste is cut at the limit; an unterminated one ends at its deadline")
    func pasteBounds() {
        var d = InputDecoder()
        let out = decode(
            "\u{1B}[200~" + String(repeating: "a", count: InputDecoder.pasteLimit + 5_000) + "\u{1B}[201~j", decoder: &d
        )
        #expect(out.count == 2)
        if case .paste(let text) = out.first {
            #expect(text.count == InputDecoder.pasteLimit)
        } else {
            Issue.record("\(out.prefix(1))")
        }
        #expect(out.last == .key(.char("j")))
        // No end marker: keys that follow are held as text until the paste times out.
        #expect(decode("\u{1B}[200~abc", now: 10, decoder: &d).isEmpty)
        #expect(decode("q", now: 10.5, decoder: &d).isEmpty)
        d.expire(now: 10.5 + InputDecoder.pasteTimeout)
        #expect(d.next() == .paste("abcq"))
        #expect(decode("q", now: 20, decoder: &d) == [.key(.char("q"))])
    }

    @Test("a malformed SGR report is dropped through its final byte, controls inside it too; nothing of it is typed")
    func malformedReportsWhole() {
        for bad in [
            "\u{1B}[<0;1\rj", "\u{1B}[<0;1é;1M", "\u{1B}[<0;1\r;1M", "\u{1B}[<0;1\u{7F}2;1M", "\u{1B}[<0;1;1\u{85}M",
            "\u{1B}[<0;10;5\u{1B}[5;H", "\u{1B}[<0;10;5\u{18}", "\u{9B}<0;1é;1M",
            "\u{1B}[<0;1;" + String(repeating: "é", count: 500) + "M",
        ] {
            #expect(decode(bad + "j") == [.key(.char("j"))], "\(bad.prefix(40).debugDescription)")
        }
    }

    @Test("OSC, DCS, SOS, PM and APC strings and the 8-bit CSI are dropped whole, however long, with every terminator")
    func terminalStrings() {
        let bodies = ["52;c;MjM0NTY3", "11;rgb:0000/0000/0000", "1$r0m", "q/5 2 3", "2;\u{1B}[31mtitle"]
        let openers = [
            "\u{1B}]", "\u{1B}P", "\u{1B}X", "\u{1B}^", "\u{1B}_", "\u{9D}", "\u{90}", "\u{98}", "\u{9E}", "\u{9F}",
        ]
        let ends = ["\u{07}", "\u{1B}\\", "\u{9C}", "\u{18}", "\u{1A}"]
        for opener in openers {
            for body in bodies {
                for end in ends {
                    let s = opener + body + end + "j"
                    #expect(decode(s) == [.key(.char("j"))], "\(s.debugDescription)")
                }
            }
        }
        // An ESC inside the body that is not ST does not end it (as `UntrustedText` reads it).
        #expect(decode("\u{1B}]2;a\u{1B}b52\u{07}j") == [.key(.char("j"))])
        // A megabyte of body costs nothing kept; the key after it is typed.
        #expect(decode("\u{1B}]52;c;" + String(repeating: "MjM0", count: 250_000) + "\u{07}j") == [.key(.char("j"))])
        // 8-bit CSI: dropped as `ESC [` is; a report in that form is one.
        #expect(
            decode("\u{9B}1;5Aj\u{9B}<0;1;1M") == [.key(.char("j")), .mouse(MouseEvent(button: .left, x: 0, y: 0))])
        // Cut short (its bytes stop): given up at the deadline, nothing typed.
        var d = InputDecoder()
        #expect(decode("\u{1B}]11;rgb:00", now: 5, decoder: &d).isEmpty)
        #expect(d.deadline == 5 + InputDecoder.sequenceTimeout)
        d.expire(now: 5 + InputDecoder.sequenceTimeout)
        #expect(decode("2", now: 6, decoder: &d) == [.key(.char("2"))])
    }

    @Test("inside a bracketed paste an OSC's body and every other sequence go whole; the text around them stays")
    func pasteDropsSequencesWhole() {
        let paste = "ab\u{1B}]52;c;MjM0NTY3\u{07}cd\u{1B}]11;rgb:0000/0000/0000\u{1B}\\ef\u{9D}8;;x\u{9C}gh\u{1B}[31mij"
        #expect(decode("\u{1B}[200~" + paste + "\u{1B}[201~j") == [.paste("abcdefghij"), .key(.char("j"))])
        // An OSC cut off by the paste's end keeps nothing of its body.
        #expect(decode("\u{1B}[200~ab\u{1B}]52;c;MjM0\u{1B}[201~") == [.paste("ab")])
    }

    @Test("a long sequence read by a loop that fell behind is still one sequence: its rest is never typed")
    func floodReadLate() {
        // The characters of one long CSI, read in pieces a second apart (the loop was busy, the
        // rest waited in the terminal): no piece finds the input idle, so none is a timeout.
        var d = InputDecoder()
        for s in "\u{1B}[".unicodeScalars { d.feed(character: s.value, now: 0) }
        for piece in 1...50 {
            for s in String(repeating: "1;", count: 1_000).unicodeScalars {
                d.feed(character: s.value, now: Double(piece))
            }
        }
        var typed: [TerminalInput] = []
        while let i = d.next() { typed.append(i) }
        #expect(typed.isEmpty, "\(typed.count) inputs typed out of one sequence")
        #expect(decode("Q", now: 60, decoder: &d).isEmpty, "Q is the sequence's final byte")
        #expect(decode("Q", now: 60.01, decoder: &d) == [.key(.char("Q"))])
        #expect(d.charactersTaken == 2 + 100_000 + 2)
    }

    @Test("a flood of reports decodes one by one; garbage between them is dropped")
    func flood() {
        var d = InputDecoder()
        let one = "\u{1B}[<65;5;5M"
        let out = decode(String(repeating: one + "\u{1B}[<x", count: 2_000), decoder: &d)
        #expect(out.count == 2_000)
        #expect(out.allSatisfy { $0 == .mouse(MouseEvent(button: .wheelDown, x: 4, y: 4)) })
    }
}

/// A person's keys come one per read; a burst cannot confirm destructive actions.
@Suite("Burst guard")
struct BurstGuardTests {
    @Test("one key per read is deliberate; three or more in a read, or right behind a burst, is not")
    func rule() {
        var g = BurstGuard()
        let s = BurstGuard.settle
        let reads: [(characters: Int, inputs: Int, at: Double)] = [
            (1, 1, 0), (2, 2, 1), (1, 1, 2), (17, 17, 3), (1, 1, 3.01), (1, 1, 3.02 + s * 0.9), (1, 1, 4 + s),
            // A paste and the CR behind it (two inputs), a paste's CR alone in the next read,
            // a dropped escape sequence and the Enter after it (one input, many characters).
            (20, 2, 10), (30, 1, 20), (1, 1, 20.05), (1, 1, 21), (12, 1, 30), (1, 1, 31),
        ]
        let deliberate = reads.map { g.deliberate(characters: $0.characters, inputs: $0.inputs, now: $0.at) }
        // Alone: yes; two in a read: no; alone again: yes; a burst, and the tail of a paste
        // split over reads right behind it, each starting the window again: no; alone once
        // the burst has settled: yes.
        #expect(deliberate == [true, false, true, false, false, false, true, false, false, false, true, false, true])
    }
}
