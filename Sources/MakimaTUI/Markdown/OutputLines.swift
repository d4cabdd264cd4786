/// The task view's rendered lines as two parts read as one: the output document's closed
/// lines (`LineBlocks`), shared with the document (never copied for a frame), then the open tail rendered for
/// this frame. Joining them into one array would copy every closed line on every frame, a cost
/// that grows with what the view holds rather than with what arrived.
public struct OutputLines: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    public private(set) var closed: LineBlocks
    public private(set) var tail: [RenderedLine]

    public init(closed: LineBlocks = LineBlocks(), tail: [RenderedLine] = []) {
        self.closed = closed
        self.tail = tail
    }

    public init(_ lines: [RenderedLine]) { self.init(closed: LineBlocks(lines)) }
    public init(arrayLiteral lines: RenderedLine...) { self.init(closed: LineBlocks(lines)) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { closed.count + tail.count }

    public subscript(index: Int) -> RenderedLine {
        index < closed.count ? closed[index] : tail[index - closed.count]
    }

    public static func == (a: OutputLines, b: OutputLines) -> Bool {
        a.count == b.count && a.elementsEqual(b)
    }
}
