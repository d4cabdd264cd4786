import Testing

@testable import MakimaTUI

/// The closed lines' blocks read as the array they stand for, whatever was appended, shared or
/// dropped off the front, and a copy taken for a frame keeps what it saw.
@Suite struct LineBlocksTests {
    static func line(_ n: Int) -> RenderedLine { RenderedLine(text: "line \(n)") }

    @Test func readsAsTheArrayItStandsFor() {
        var blocks = LineBlocks()
        var array: [RenderedLine] = []
        var next = 0
        var frames: [(LineBlocks, [RenderedLine])] = []
        // Appends of 1 to 300 lines and drops of up to 400, across several block edges.
        for step in 0..<60 {
            let n = (step * 37) % 300 + 1
            let new = (next..<(next + n)).map(Self.line)
            next += n
            blocks.append(contentsOf: new)
            array += new
            if step % 3 == 2 {
                let drop = min(array.count, (step * 53) % 400)
                blocks.removeFirst(drop)
                array.removeFirst(drop)
            }
            frames.append((blocks, array))
            #expect(blocks.count == array.count)
            #expect(Array(blocks) == array)
        }
        // Each frame's copy still reads what it read then.
        for (kept, expected) in frames { #expect(Array(kept) == expected) }
        blocks.removeFirst(blocks.count)
        #expect(blocks.isEmpty)
        blocks.append(contentsOf: [Self.line(1)])
        #expect(Array(blocks) == [Self.line(1)])
    }
}
