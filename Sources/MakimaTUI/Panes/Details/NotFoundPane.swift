/// Shown when a link or a row names something the server does not have: says what was
/// looked for and its id, instead of an empty view. Esc or `q` goes back.
public struct NotFoundPane: Pane {
    public let id = PaneID.notFound
    /// The list pane whose object was looked for (NAV// highlights it).
    public let section: PaneID
    /// What was looked for: `directive`, `task`, `contract`, `listen session`.
    public let kind: String
    public let objectID: String
    public let reason: String?

    public init(section: PaneID, kind: String, objectID: String, reason: String? = nil) {
        self.section = section
        self.kind = kind
        self.objectID = objectID
        self.reason = reason
    }

    public var title: String { "NOT FOUND" }
    public var isTopLevel: Bool { false }
    public var crumb: Crumb { Crumb("NOT FOUND", objectID) }

    public mutating func handle(_ action: KeyAction) -> PaneResponse { .ignored }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        GridTexture.render(into: &buffer, rect: region, context: context)
        let lines: [StyledLine] = [
            StyledLine("\(kind.uppercased()) NOT FOUND", CellStyle(fg: .danger, attributes: [.bold, .reverse])),
            StyledLine(),
            StyledLine("no \(kind) with id", CellStyle(fg: .foregroundMuted)),
            StyledLine(objectID, CellStyle(fg: .foreground, attributes: .bold)),
            StyledLine(reason ?? "", CellStyle(fg: .foregroundMuted, attributes: .italic)),
            StyledLine(),
            StyledLine("Esc or q goes back", CellStyle(fg: .foregroundMuted)),
        ]
        let width = min(region.width - 2, max(40, lines.map(\.width).max() ?? 0) + 4)
        let top = region.y + max(1, (region.height - lines.count - 2) / 3)
        let rect = region.centered(width: width, top: top, height: min(lines.count + 2, region.maxY - top))
        let inner = Card.render(into: &buffer, rect: rect, title: title, context: context)
        for (i, line) in lines.enumerated() where i < inner.height {
            let l = line.truncated(to: inner.width, ellipsis: context.glyphs.ellipsis)
            buffer.write(l, x: inner.x + (inner.width - l.width) / 2, y: inner.y + i, maxX: inner.maxX)
        }
    }
}
