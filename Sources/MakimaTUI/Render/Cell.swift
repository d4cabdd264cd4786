/// One terminal cell. A wide character occupies its own cell (width 2) and the continuation
/// cell to its right (width 0, empty text), which the backends never draw themselves.
public struct Cell: Equatable, Sendable {
    /// One grapheme cluster, or "" for a continuation cell.
    public var text: String
    /// 1 or 2 for a drawn cell, 0 for the right half of a wide character.
    public var width: UInt8
    public var style: CellStyle

    public static func blank(_ style: CellStyle = .plain) -> Cell { Cell(text: " ", width: 1, style: style) }
    public var isContinuation: Bool { width == 0 }
}
