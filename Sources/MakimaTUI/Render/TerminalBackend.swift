/// Where finished frames go. The ncurses backend draws them on the terminal; the memory
/// backend keeps them for tests.
public protocol TerminalBackend: AnyObject {
    /// Current size in cells (columns, rows).
    var size: (width: Int, height: Int) { get }
    /// Shows `buffer` (whose size is `size`) on the output.
    func flush(_ buffer: CellBuffer)
    /// Forgets what was shown so the next flush redraws every cell (after a resize).
    func invalidate()
    /// Writes a complete control sequence made by the app itself (a desktop notification's
    /// OSC) between frames, never inside one. Server text never comes here unencoded.
    func writeControl(_ bytes: [UInt8])
    /// Sets the terminal's title (`TerminalTitle`).
    func setTitle(_ title: String)
}

extension TerminalBackend {
    public func setTitle(_ title: String) { writeControl(TerminalTitle.sequence(title)) }
}

/// Keeps the last flushed frame in memory, like ratatui's TestBackend: rendered lines as
/// strings and the style of any cell.
public final class MemoryBackend: TerminalBackend {
    public private(set) var width: Int
    public private(set) var height: Int
    public private(set) var buffer: CellBuffer
    public private(set) var flushCount = 0

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        buffer = CellBuffer(width: width, height: height)
    }

    public var size: (width: Int, height: Int) { (width, height) }

    public func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    public func flush(_ buffer: CellBuffer) {
        self.buffer = buffer
        flushCount += 1
    }

    public func invalidate() {}

    /// Every control sequence written, in order (tests look for notifications here).
    public private(set) var controlBytes: [UInt8] = []
    public func writeControl(_ bytes: [UInt8]) { controlBytes += bytes }
    /// The title set last (kept apart from `controlBytes`, which tests read for notifications).
    public private(set) var title: String?
    public func setTitle(_ title: String) { self.title = title }

    public var lines: [String] { buffer.lines }
    public func trimmedLine(_ y: Int) -> String { buffer.trimmedLine(y) }
    public func style(atX x: Int, y: Int) -> CellStyle { buffer.style(atX: x, y: y) }

    /// The first (x, y) where `text` appears at or below row `from`, measured in cells.
    public func find(_ text: String, from: Int = 0) -> (x: Int, y: Int)? {
        for y in max(0, from)..<height {
            let row = buffer.line(y)
            guard let r = row.range(of: text) else { continue }
            return (CellWidth.of(String(row[row.startIndex..<r.lowerBound])), y)
        }
        return nil
    }
}
