import Foundation
import MakimaKit
import TestSupport
import Testing

@_spi(Fuzzing) @testable import MakimaTUI

/// `n`/`N` over search hits as lnav reads them: the task output's view stands each hit with two
/// lines of output above and below it (as the output allows), its line marked, the footer
/// saying `3/5`; the `:grep` results step their hits the same way; and `n`/`N` are the
/// search's only while one is active (else the needs-you list's). Drawn on the memory backend
/// and measured in cells.
@Suite("Search hits: n/N, their context and count")
struct SearchHitTests {
    static let hitLines: Set<Int> = [0, 20, 21, 45, 59]

    /// Sixty log lines, `L<i> ` first; a hit line has wide characters before NEEDLE.
    static var text: String {
        (0..<60).map { i in hitLines.contains(i) ? "L\(i) 契約契約 NEEDLE here\n" : "L\(i) filler text\n" }.joined()
    }

    /// The output as the live view gets it: `text` streamed in pieces of 1 to 40 characters
    /// cut anywhere (mid-word, mid-character pair, across NEEDLE), each converted as it comes.
    static func streamed(_ text: String, seed: UInt64) -> TaskOutputViewModel {
        var random = SeededGenerator(state: seed)
        var buffer = TaskOutputBuffer()
        var lines = TaskOutputLines()
        var rendered: [RenderedLine] = []
        var rest = Substring(text)
        var seq = 0
        while !rest.isEmpty {
            let n = Int.random(in: 1...40, using: &random)
            seq += 1
            buffer.append([
                TaskEvent(
                    eventID: Int64(seq), taskID: "t", seq: seq, type: .output,
                    payload: .output(text: String(rest.prefix(n)), stream: "stdout"))
            ])
            rendered = lines.lines(of: buffer)
            rest = rest.dropFirst(n)
        }
        return TaskOutputViewModel(taskID: "t", title: "T", lines: rendered)
    }

    /// Draws `pane` on a memory backend of `width` × `height` cells.
    static func draw(_ pane: inout TaskOutputPane, width: Int = 60, height: Int = 20) -> MemoryBackend {
        var b = CellBuffer(width: width, height: height)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        let backend = MemoryBackend(width: width, height: height)
        backend.flush(b)
        return backend
    }

    static func searched(_ query: String, in model: TaskOutputViewModel) -> TaskOutputPane {
        var pane = TaskOutputPane(model: model)
        _ = draw(&pane)
        _ = pane.handle(.filter)
        for c in query { _ = pane.edit(.insert(c)) }
        _ = pane.edit(.submit)
        return pane
    }

    /// The row `L<line> ` is on, or nil when it is not in view.
    static func row(of line: Int, in screen: MemoryBackend) -> Int? { screen.find("L\(line) ")?.y }

    @Test("n/N visit every hit of output streamed in 1–40 character pieces, each with 2 lines either side in view")
    func hitsWithContext() throws {
        for seed: UInt64 in [1, 2, 3] {
            var pane = Self.searched("needle", in: Self.streamed(Self.text, seed: seed))
            #expect(pane.search.count == 5, "seed \(seed): hits across piece boundaries")
            // From the top of the view (following: the last lines), the first hit at or after it.
            var screen = Self.draw(&pane)
            var visited: [Int] = []
            for step in 0..<6 {
                if step > 0 {
                    _ = pane.handle(.searchNext)
                    screen = Self.draw(&pane)
                }
                let hit = try #require(pane.search.currentMatch?.line)
                visited.append(hit)
                let y = try #require(Self.row(of: hit, in: screen), "seed \(seed), hit \(hit): \(screen.lines)")
                for d in [-2, -1, 1, 2] where (0..<60).contains(hit + d) {
                    #expect(Self.row(of: hit + d, in: screen) == y + d, "seed \(seed), hit \(hit), line \(hit + d)")
                }
                #expect(pane.footerStatus?.contains("/needle  \(pane.search.current! + 1)/5") == true)
                // The match's cells: after `L<n> ` and four wide characters (8 cells, 4 characters).
                let line = try #require(screen.find("L\(hit) "))
                let needle = try #require(screen.find("NEEDLE", from: y))
                #expect(needle.y == y && needle.x == line.x + "L\(hit) ".count + 9)
                #expect(screen.style(atX: needle.x, y: y).bg == .accent)
                #expect(screen.style(atX: needle.x + 5, y: y).bg == .accent)
                #expect(screen.style(atX: needle.x + 6, y: y).bg == .panel, "the hit's line is marked")
                #expect(screen.lines[y].hasPrefix("▸"))
                #expect(screen.style(atX: needle.x, y: y - 1).bg != .panel || hit == 0)
            }
            #expect(visited == [45, 59, 0, 20, 21, 45], "seed \(seed): from the view's top, n wraps round")
            _ = pane.handle(.searchPrevious)
            #expect(pane.search.currentMatch?.line == 21)
        }
    }

    @Test("a hit already shown with its context does not move the view; at the ends the view is full")
    func stayingAndEnds() throws {
        var pane = Self.searched("needle", in: Self.streamed(Self.text, seed: 4))
        #expect(pane.search.currentMatch?.line == 45, "the first hit at or after the view's top")
        _ = pane.handle(.searchNext)  // 59: the last line, in view with the lines above it
        var screen = Self.draw(&pane)
        #expect(pane.following, "shown with its context where it was: the view stays")
        #expect(Self.row(of: 59, in: screen) == 19)
        #expect(Self.row(of: 43, in: screen) == 3)
        _ = pane.handle(.searchNext)  // 0: the first line, nothing above it
        screen = Self.draw(&pane)
        #expect(screen.find("start of output")?.y == 3, "\(screen.lines)")
        #expect(Self.row(of: 0, in: screen) == 4)
        _ = pane.handle(.searchNext)  // 20: two lines above it
        screen = Self.draw(&pane)
        let y20 = try #require(Self.row(of: 20, in: screen))
        #expect(Self.row(of: 18, in: screen) == 3, "the body's first row: \(screen.lines)")
        _ = pane.handle(.searchNext)  // 21, already in view with 19…23
        screen = Self.draw(&pane)
        #expect(Self.row(of: 20, in: screen) == y20)
        _ = pane.handle(.searchNext)
        _ = pane.handle(.searchNext)  // 59 again, now paused: the view is filled from above
        screen = Self.draw(&pane)
        #expect(!pane.following)
        #expect(Self.row(of: 59, in: screen) == 19, "\(screen.lines)")
        #expect(Self.row(of: 43, in: screen) == 3)
    }

    @Test("context is counted in rows of cells: wide lines wrap, a line too long to fit keeps the lines above")
    func wrappedContext() throws {
        // Line 11 is 30 wide characters: 60 cells, two rows in a body 58 cells wide less its gutter.
        var lines = (0..<40).map { RenderedLine(text: "L\($0) filler") }
        lines[11] = RenderedLine(text: String(repeating: "契", count: 30))
        lines[12] = RenderedLine(text: "L12 NEEDLE")
        lines[30] = RenderedLine(text: "L30 NEEDLE")
        lines[31] = RenderedLine(text: String(repeating: "x", count: 58 * 40))
        // No hit after the view's top (line 31's rows fill it): the first hit.
        var pane = Self.searched("NEEDLE", in: TaskOutputViewModel(taskID: "t", title: "T", lines: lines))
        var screen = Self.draw(&pane)
        #expect(pane.search.currentMatch?.line == 12)
        let y = try #require(Self.row(of: 12, in: screen))
        #expect(Self.row(of: 10, in: screen) == y - 3, "the wide line above takes two rows: \(screen.lines)")
        #expect(Self.row(of: 14, in: screen) == y + 2)
        _ = pane.handle(.searchNext)
        screen = Self.draw(&pane)
        // Line 31 takes 40 rows: however the view stands it cannot be shown whole.
        let y30 = try #require(Self.row(of: 30, in: screen))
        #expect(Self.row(of: 28, in: screen) == y30 - 2, "\(screen.lines)")
    }

    @Test("a match in code right of the view scrolls it sideways")
    func sideways() throws {
        var lines = (0..<10).map { RenderedLine(text: "L\($0)") }
        var code = RenderedLine(text: String(repeating: "-", count: 150) + "FAR")
        code.wrap = .none
        lines[5] = code
        var pane = Self.searched("FAR", in: TaskOutputViewModel(taskID: "t", title: "T", lines: lines))
        let screen = Self.draw(&pane)
        let at = try #require(screen.find("FAR"))
        #expect(screen.style(atX: at.x, y: at.y).bg == .accent)
        #expect(pane.scrollX > 0)
    }

    @Test("n/N are the search's while a query is kept, else the needs-you list's")
    @MainActor func precedence() {
        var a = AppState(masthead: MastheadModel(serverLabel: "x", version: "0", pill: .idle, clock: "12:00"))
        a.stack.push(TaskOutputPane(model: Self.streamed(Self.text, seed: 5)))
        _ = a.render(width: 80, height: 24)
        _ = a.takeRequests()
        a.handle(.char("n"), now: 0)
        #expect(a.takeRequests() == [.needsYou(.next)], "no search: the next thing that needs you")
        #expect(a.footerHints.contains { $0.action == .request(.needsYou(.next)) })
        for key in [Key.char("/"), .char("N"), .char("E"), .enter] { a.handle(key, now: 0) }
        _ = a.render(width: 80, height: 24)
        a.handle(.char("n"), now: 0)
        a.handle(.char("n"), now: 0)
        a.handle(.char("N"), now: 0)
        #expect(a.takeRequests().isEmpty, "the search's hits, not the needs-you list")
        // From the view's top (line 42 of 60 in 18 rows): 45 is 4/5; n, n, N: 5/5, 1/5, 5/5.
        #expect(a.stack.top.footerStatus?.contains("/NE  5/5") == true, "\(a.stack.top.footerStatus ?? "")")
        #expect(a.footerHints.contains { $0.action == .searchNext && $0.hint == "next hit" })
        a.handle(.escape, now: 0)
        a.handle(.char("N"), now: 0)
        #expect(a.takeRequests() == [.needsYou(.previous)], "Esc cleared the search: N is the list's again")
        #expect(a.stack.top is TaskOutputPane)
        // The grep results are a search: n is its next hit there.
        a.stack.push(GrepPane(pattern: "zebra"))
        a.handle(.char("n"), now: 0)
        #expect(a.takeRequests().isEmpty)
        _ = a.stack.pop()
        a.handle(.char("n"), now: 0)
        #expect(a.takeRequests() == [.needsYou(.next)])
    }

    @Test("the grep results: n/N step the hits, wrapping, 2 rows kept in view either side, 3/17 in the header")
    func grepResults() throws {
        let hits = (0..<17).map {
            OutputSearchHit(taskID: "t\($0)", lineNumber: $0 + 1, seq: 1, line: "hit \($0) zebra", lastActive: nil)
        }
        var pane = GrepPane(pattern: "zebra")
        pane.update(GrepResultsModel.from(hits, pattern: "zebra", tasks: [:], now: Date(), clock: .zero))
        #expect(pane.keyContexts.first == .search)
        var b = CellBuffer(width: 80, height: 10)  // 8 rows of hits
        func draw() -> MemoryBackend {
            pane.render(into: &b, region: b.bounds, context: RenderContext())
            let m = MemoryBackend(width: 80, height: 10)
            m.flush(b)
            return m
        }
        var screen = draw()
        #expect(screen.trimmedLine(0).contains("17 lines · 1/17 · Enter opens"), "\(screen.lines)")
        for _ in 0..<6 { _ = pane.handle(.searchNext) }
        screen = draw()
        #expect(screen.trimmedLine(0).contains("7/17"))
        let y = try #require(screen.find("hit 6 zebra")?.y)
        #expect(screen.find("▸")?.y == y)
        #expect(screen.find("hit 8 zebra")?.y == y + 2, "two hits below stay in view: \(screen.lines)")
        #expect(y + 2 == 9)
        _ = pane.handle(.searchPrevious)
        _ = pane.handle(.searchPrevious)
        screen = draw()
        #expect(screen.find("hit 2 zebra")?.y == screen.find("hit 4 zebra").map { $0.y - 2 }, "\(screen.lines)")
        for _ in 0..<5 { _ = pane.handle(.searchPrevious) }  // past the first: round to the last
        screen = draw()
        #expect(screen.trimmedLine(0).contains("17/17"))
        #expect(screen.find("hit 16 zebra")?.y == 9)
        _ = pane.handle(.searchNext)
        #expect(pane.position == "1/17")
    }
}
