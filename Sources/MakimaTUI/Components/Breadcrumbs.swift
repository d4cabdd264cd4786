/// One step of the path the operator drilled down: what kind of thing it is (`CONTRACT`) and
/// which one (`Mesh scheduler`). Top-level panes are a kind alone (`HOME`).
public struct Crumb: Equatable, Sendable {
    public var kind: String
    public var name: String?

    public init(_ kind: String, _ name: String? = nil) {
        self.kind = kind
        self.name = name.map { $0.split(whereSeparator: \.isNewline).joined(separator: " ") }
    }
}

/// The path through the pane stack, as the NAV// strip shows it while the operator is drilled
/// down: `HOME › CONTRACT Mesh scheduler › TASK Cache heartbeats`, the last step in reverse
/// video. When it does not fit it is shortened from the left (the oldest steps give way to
/// `…`), then the last step's name is cut; widths are counted in cells.
public enum Breadcrumbs {
    public static func separator(_ glyphs: Glyphs) -> String { glyphs.isUnicode ? " › " : " > " }

    public static func line(_ crumbs: [Crumb], width: Int, glyphs: Glyphs) -> StyledLine {
        layout(crumbs, width: width, glyphs: glyphs).line
    }

    /// The line, with the cells each step shown takes (`index` is its place in `crumbs`).
    static func layout(
        _ crumbs: [Crumb], width: Int, glyphs: Glyphs
    ) -> (line: StyledLine, spans: [(index: Int, cells: Range<Int>)]) {
        guard !crumbs.isEmpty, width > 0 else { return (StyledLine(), []) }
        var first = 0
        while true {
            let candidate = build(crumbs, from: first, glyphs: glyphs)
            if candidate.line.width <= width || first == crumbs.count - 1 {
                return (candidate.line.truncated(to: width, ellipsis: glyphs.ellipsis), candidate.spans)
            }
            first += 1
        }
    }

    static func build(
        _ crumbs: [Crumb], from first: Int, glyphs: Glyphs
    ) -> (line: StyledLine, spans: [(index: Int, cells: Range<Int>)]) {
        var spans: [(index: Int, cells: Range<Int>)] = []
        var line = StyledLine()
        let sep = CellStyle(fg: .borderMuted)
        if first > 0 { line.append(glyphs.ellipsis + separator(glyphs), sep) }
        for (i, crumb) in crumbs.enumerated() where i >= first {
            if i > first { line.append(separator(glyphs), sep) }
            let last = i == crumbs.count - 1
            let start = line.width
            defer { spans.append((i, start..<line.width)) }
            let kindStyle = CellStyle(fg: .accent, attributes: last ? [.bold, .reverse] : .bold)
            let nameStyle = CellStyle(fg: last ? .accent : .foreground, attributes: last ? [.bold, .reverse] : [])
            line.append(crumb.kind.uppercased(), kindStyle)
            if let name = crumb.name, !name.isEmpty { line.append(" " + name, nameStyle) }
        }
        return (line, spans)
    }
}
