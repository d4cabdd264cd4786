/// A rectangle of cells: origin at the top-left, sizes never negative.
public struct Rect: Equatable, Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The rectangle shrunk by the given margins (never below zero size).
    public func inset(left: Int = 0, top: Int = 0, right: Int = 0, bottom: Int = 0) -> Rect {
        Rect(x: x + left, y: y + top, width: width - left - right, height: height - top - bottom)
    }

    public func inset(by n: Int) -> Rect { inset(left: n, top: n, right: n, bottom: n) }

    /// The one-row strip at `row` (relative to this rectangle's top).
    public func row(_ row: Int) -> Rect { Rect(x: x, y: y + row, width: width, height: row < height ? 1 : 0) }

    public func intersection(_ other: Rect) -> Rect {
        let nx = max(x, other.x)
        let ny = max(y, other.y)
        return Rect(x: nx, y: ny, width: min(maxX, other.maxX) - nx, height: min(maxY, other.maxY) - ny)
    }

    /// A rectangle of the given size centred horizontally in this one, starting at `top`.
    public func centered(width w: Int, top: Int, height h: Int) -> Rect {
        let cw = min(w, width)
        return Rect(x: x + (width - cw) / 2, y: top, width: cw, height: h)
    }
}
