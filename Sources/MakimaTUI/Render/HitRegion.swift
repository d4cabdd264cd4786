/// What a mouse click on part of the screen means, recorded by whatever drew that part while
/// it drew it (`CellBuffer.mark`), so hit-testing uses the frame the operator saw and panes stay
/// functions of their state.
public enum HitTarget: Hashable, Sendable {
    /// A NAV// item: that pane (as its number key).
    case pane(PaneID)
    /// A breadcrumb: back to that pane of the stack (0 is the bottom one).
    case crumb(Int)
    /// The toast line: what the newest notification names (as `o`).
    case toast
    /// A row of the list on top, by its place among the rows shown (the filter applied).
    case row(Int)
    /// A Home card (`HomeCardKind.rawValue`), and one of its rows by the id Enter opens.
    case card(Int)
    case cardRow(card: Int, id: String)
}

/// A rectangle of the frame and what a click there means. `selected`: the row drawn as the
/// selection (a click on it opens it, as Enter does).
public struct HitRegion: Equatable, Sendable {
    public var rect: Rect
    public var target: HitTarget
    public var selected: Bool

    public func contains(x: Int, y: Int) -> Bool { x >= rect.x && x < rect.maxX && y >= rect.y && y < rect.maxY }
}

extension CellBuffer {
    /// Records that a click in `rect` (cut to the frame) means `target`. A region marked later
    /// lies over the ones marked before it.
    public mutating func mark(_ rect: Rect, _ target: HitTarget, selected: Bool = false) {
        let r = rect.intersection(bounds)
        guard !r.isEmpty, hitRegions.count < Self.maxHitRegions else { return }
        hitRegions.append(HitRegion(rect: r, target: target, selected: selected))
    }

    /// The target of the topmost region under (x, y), if any.
    public func hit(x: Int, y: Int) -> HitRegion? { hitRegions.last { $0.contains(x: x, y: y) } }

    /// The output link (`:open N`) drawn at (x, y), if any.
    public func link(x: Int, y: Int) -> Int? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let n = self[x, y].style.link
        return n > 0 ? Int(n) : nil
    }
}
