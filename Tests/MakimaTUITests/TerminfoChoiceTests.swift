import CNcursesShim
import Foundation
import Testing

@testable import MakimaTUI

@Suite struct TerminfoChoiceTests {
    static let installed: Set<String> = ["tmux-direct", "xterm-direct"]
    static func choose(_ env: [String: String], installed: Set<String> = installed) -> String {
        TerminfoChoice.choose(environment: env, isInstalled: { installed.contains($0) }).used
    }

    @Test("true colour announced: the matching -direct entry, when installed")
    func choices() {
        let tc = ["COLORTERM": "truecolor"]
        let tmux = ["TMUX": "/tmp/tmux-1/default,1,0"]
        #expect(Self.choose(tc.merging(["TERM": "tmux-256color"]) { $1 }) == "tmux-direct")
        #expect(Self.choose(tc.merging(tmux) { $1 }.merging(["TERM": "screen-256color"]) { $1 }) == "tmux-direct")
        #expect(Self.choose(tc.merging(tmux) { $1 }.merging(["TERM": "xterm-256color"]) { $1 }) == "tmux-direct")
        #expect(Self.choose(["COLORTERM": "24bit", "TERM": "xterm-256color"]) == "xterm-direct")
        // GNU screen outside tmux, no COLORTERM, another TERM, or the entry missing: TERM stays.
        #expect(Self.choose(tc.merging(["TERM": "screen-256color"]) { $1 }) == "screen-256color")
        #expect(Self.choose(["TERM": "tmux-256color"]) == "tmux-256color")
        #expect(Self.choose(tc.merging(["TERM": "linux"]) { $1 }) == "linux")
        #expect(Self.choose(tc.merging(["TERM": "xterm-256color"]) { $1 }, installed: []) == "xterm-256color")
    }

    @Test("the colour mode names the entry used for Settings › About")
    func describe() {
        let c = TerminfoChoice(requested: "tmux-256color", used: "tmux-direct")
        #expect(c.describe(.direct) == "TRUE COLOUR (tmux-direct)")
        #expect(TerminfoChoice(requested: "xterm-256color", used: "xterm-256color").describe(.palette256) == "256")
    }

    @Test("the terminfo lookup asks ncurses: this machine's entries (ncurses-term is installed by make setup)")
    @MainActor func database() {
        #expect(TerminfoDatabase.contains("tmux-direct"))
        #expect(TerminfoDatabase.contains("xterm-256color"))
        #expect(!TerminfoDatabase.contains("zz-direct"))
        #expect(!TerminfoDatabase.contains("../t/tmux-direct"))
        #expect(!TerminfoDatabase.contains(""))
    }

    @Test("a lookup while a screen runs leaves that screen's entry in place")
    @MainActor func lookupKeepsTheRunningEntry() throws {
        let screen = try NcursesScreen(nullDeviceTerm: "xterm-256color", width: 20, height: 2)
        defer { screen.end() }
        let before = mk_cap_string("setaf").map { String(cString: $0) }
        #expect(before != nil)
        #expect(TerminfoDatabase.contains("tmux-direct"))
        #expect(!TerminfoDatabase.contains("zz-direct"))
        #expect(mk_cap_string("setaf").map { String(cString: $0) } == before)
    }
}
