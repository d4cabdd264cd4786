/// Rendered lines kept in blocks of at most `blockSize`: the output document's closed lines.
/// A frame's model shares them with the document, so the next line the document closes finds
/// its storage shared; in one array that append copied every line held, a cost that grew with
/// the output. Here it copies the outer list and the last block at most, and dropping lines off
/// the front moves no line (an offset into the first block, which goes once passed).
public struct LineBlocks: RandomAccessCollection, Equatable, Sendable {
    static let blockSize = 256
    /// Every block but the last holds `blockSize` lines (the first's front ones dropped).
    private var blocks: [[RenderedLine]] = []
    /// Lines of `blocks[0]` dropped off the front.
    private var front = 0
    private var total = 0

    public init() {}

    public init(_ lines: [RenderedLine]) { append(contentsOf: lines) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { total }

    public subscript(index: Int) -> RenderedLine {
        let i = index + front
        return blocks[i / Self.blockSize][i % Self.blockSize]
    }

    mutating func append(contentsOf lines: some Sequence<RenderedLine>) {
        for line in lines {
            if blocks.last.map({ $0.count == Self.blockSize }) ?? true {
                blocks.append([])
                blocks[blocks.count - 1].reserveCapacity(Self.blockSize)
            }
            blocks[blocks.count - 1].append(line)
            total += 1
        }
    }

    mutating func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= total, "removing more lines than held")
        front += n
        total -= n
        while front >= Self.blockSize {
            blocks.removeFirst()
            front -= Self.blockSize
        }
        if total == 0 {
            blocks = []
            front = 0
        }
    }

    public static func == (a: LineBlocks, b: LineBlocks) -> Bool { a.count == b.count && a.elementsEqual(b) }
}
