/// What the masthead shows. Plain data: the app fills it each frame.
public struct MastheadModel: Equatable, Sendable {
    public var serverLabel: String
    public var version: String
    public var pill: ConnectionPillState
    /// Wall-clock time as HH:MM, or "" to hide it.
    public var clock: String
    /// How many items wait on the operator (`NeedsYouItem`): `NEEDS YOU 3` in amber; 0 says nothing.
    public var needsYou = 0

    public init(serverLabel: String, version: String, pill: ConnectionPillState, clock: String) {
        self.serverLabel = serverLabel
        self.version = version
        self.pill = pill
        self.clock = clock
    }
}

/// The top line: ring glyph, MAKIMA, then on the right the WS pill, server, version and clock
/// (docs/design.md, "Masthead"). When the line is too narrow the less important parts go first,
/// in the order of `Part`: version, ring glyph, clock, server label (shortened before it goes),
/// MAKIMA. The pill and `NEEDS YOU n` always stay.
public enum MastheadBar {
    public static let background: ColorRole = .backgroundDeep
    static let minimumServerCells = 6

    public static func render(_ model: MastheadModel, into buffer: inout CellBuffer, row: Rect, context: RenderContext)
    {
        guard !row.isEmpty else { return }
        let g = context.glyphs
        buffer.fill(row.row(0), style: CellStyle(fg: .body, bg: background))
        let y = row.y
        let inner = row.inset(left: 1, right: 1)

        var parts = Parts(server: model.serverLabel)
        if model.clock.isEmpty { parts.shown.remove(.clock) }
        for part in Part.allCases {
            if parts.width(model, g) <= inner.width { break }
            if part == .server, !parts.server.isEmpty {
                // Before dropping the server label, try it shortened.
                let room = inner.width - (parts.width(model, g) - CellWidth.of(parts.server))
                if room >= minimumServerCells && room < CellWidth.of(parts.server) {
                    parts.server = TextLayout.truncate(parts.server, to: room, ellipsis: g.ellipsis)
                    if parts.width(model, g) <= inner.width { break }
                }
            }
            parts.shown.remove(part)
        }

        var left = StyledLine()
        if parts.shows(.logo) { left.append(g.logoMark + " ", CellStyle(fg: .accent)) }
        if parts.shows(.brand) { left.append(Typography.brand.apply(to: "Makima"), Typography.brand.cellStyle()) }
        if let count = needsYouText(model) {
            left.append(left.width > 0 ? "  " : "", CellStyle(fg: .body))
            left.append(count, CellStyle(fg: .warn, attributes: .bold))
        }
        buffer.write(left, x: inner.x, y: y, maxX: inner.maxX)

        let right = parts.right(model, g).truncated(to: inner.width, ellipsis: g.ellipsis)
        buffer.write(right, x: inner.maxX - right.width, y: y, maxX: inner.maxX)
    }

    /// `NEEDS YOU 3` (past 999, `999+`: the figure never pushes the pill off a narrow line).
    static func needsYouText(_ model: MastheadModel) -> String? {
        guard model.needsYou > 0 else { return nil }
        return "NEEDS YOU " + (model.needsYou > 999 ? "999+" : String(model.needsYou))
    }

    /// The parts that can go, least important first (the order they go in).
    private enum Part: CaseIterable {
        case version, logo, clock, server, brand
    }

    private struct Parts {
        var shown = Set(Part.allCases)
        var server: String

        func shows(_ part: Part) -> Bool { shown.contains(part) }

        func leftWidth(_ g: Glyphs) -> Int {
            (shows(.logo) ? CellWidth.of(g.logoMark) + 1 : 0) + (shows(.brand) ? 6 : 0)
        }

        func right(_ m: MastheadModel, _ g: Glyphs) -> StyledLine {
            var line = StyledLine(m.pill.label(glyphs: g), Typography.pill.with(role: m.pill.role).cellStyle())
            let sep = " \(g.separatorDot) "
            if shows(.server), !server.isEmpty {
                line.append(sep, Typography.separator.cellStyle())
                line.append(server, CellStyle(fg: .accent))
            }
            if shows(.version) {
                line.append(sep, Typography.separator.cellStyle())
                line.append("v" + m.version, Typography.mono.cellStyle())
            }
            if shows(.clock) {
                line.append(sep, Typography.separator.cellStyle())
                line.append(m.clock, Typography.mono.cellStyle())
            }
            return line
        }

        func width(_ m: MastheadModel, _ g: Glyphs) -> Int {
            let count = needsYouText(m).map { CellWidth.of($0) } ?? 0
            let l = leftWidth(g) + (count > 0 && leftWidth(g) > 0 ? 2 : 0) + count
            return l + (l > 0 ? 2 : 0) + right(m, g).width
        }
    }
}
