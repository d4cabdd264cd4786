import MakimaKit

/// One line of the SYSTEM// card: a coloured dot, a label and a value.
public struct StatusRow: Equatable, Sendable {
    public enum Level: Equatable, Sendable { case ok, warn, danger, muted }
    public var label: String
    public var value: String
    public var level: Level

    public init(_ label: String, _ value: String, _ level: Level) {
        self.label = label
        self.value = value
        self.level = level
    }

    var role: ColorRole { level.role }
}

extension StatusRow.Level {
    /// The palette role that draws this level.
    public var role: ColorRole {
        switch self {
        case .ok: return .ok
        case .warn: return .warn
        case .danger: return .danger
        case .muted: return .foregroundMuted
        }
    }
}

/// What Home shows: the welcome screen (logo, badge, SYSTEM// and GLOSSARY// cards) until a
/// server is configured, then the composite dashboard (docs/design.md, "Home").
public struct HomeViewModel: Equatable, Sendable {
    public var headline = "Mesh Orchestration Platform"
    public var tagline = "Makima is listening."
    public var statusAccessory = "SHELL"
    public var statusRows: [StatusRow] = []
    public var glossary: [GlossTerm] = GlossTerm.glossary
    /// The live dashboard; nil shows the welcome screen (no server configured yet).
    public var mesh: HomeMeshModel?
    /// A line under the tagline of the demo screen (e.g. how to configure a server).
    public var notice: NoticeLine?
    /// What the cache recorded per minute (the ACTIVITY// card); nil: no cache, or not read yet.
    public var activity: ActivityHistory?

    public init(statusRows: [StatusRow] = []) { self.statusRows = statusRows }

    /// Replaces the SYSTEM// row with `row`'s label (or adds it).
    public mutating func setStatusRow(_ row: StatusRow) {
        if let i = statusRows.firstIndex(where: { $0.label == row.label }) {
            statusRows[i] = row
        } else {
            statusRows.append(row)
        }
    }

    /// Sets the SYSTEM// row labelled `label` to `row`, or removes it for nil.
    public mutating func setStatusRow(_ label: String, _ row: StatusRow?) {
        if let row { setStatusRow(row) } else { statusRows.removeAll { $0.label == label } }
    }
}

/// Home: the welcome screen or the live dashboard (docs/design.md, "Home").
public struct HomePane: Pane {
    public let id = PaneID.home
    public var model: HomeViewModel
    /// The focused card of the live Home (Tab moves it); kept while the operator drills down.
    public internal(set) var focus = HomeCardKind.daemons
    /// Each card's selected row (by id); none: Enter opens the card's pane.
    public internal(set) var selection: [HomeCardKind: String] = [:]
    /// The data cards the last frame had room for, in focus order.
    var shownCards: [HomeCardKind] = []

    public init(model: HomeViewModel = HomeViewModel()) { self.model = model }

    public var keyContexts: [KeyContext] { model.mesh == nil ? [] : [.home] }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        guard let mesh = model.mesh else { return .ignored }
        return handleLive(mesh, action)
    }

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        GridTexture.render(into: &buffer, rect: region, context: context)
        if let mesh = model.mesh {
            renderLive(mesh, into: &buffer, region: region, context: context)
            return
        }
        var y = region.y + 1

        // The logo only where it leaves room for the cards below it.
        let statusHeight = model.statusRows.count + 2
        let glossaryHeight = model.glossary.count + 3
        let sideBySide = region.width >= 100
        let cardsHeight = sideBySide ? max(statusHeight, glossaryHeight) : statusHeight + glossaryHeight
        let textHeight = model.notice == nil ? 4 : 5
        let spare = region.height - 1 - textHeight - cardsHeight - 1
        let logoRows = spare >= 12 ? min(9, spare - 4) : (spare >= 6 ? spare - 2 : 0)
        if logoRows >= 3 {
            BrailleLogo.render(
                into: &buffer, rect: Rect(x: region.x, y: y, width: region.width, height: logoRows), context: context)
            y += logoRows + 1
        }

        let badge = Badge.line(text: GlossTerm.control.japanese, subtitle: "CONTROL SYSTEM", context: context)
        centre(badge, y: &y, in: region, buffer: &buffer)
        centre(
            StyledLine(model.headline, CellStyle(fg: .foreground, attributes: .bold)), y: &y, in: region,
            buffer: &buffer)
        centre(StyledLine(model.tagline, CellStyle(fg: .foregroundMuted)), y: &y, in: region, buffer: &buffer)
        if let notice = model.notice {
            centre(
                StyledLine(notice.text, CellStyle(fg: notice.level.role, attributes: .bold)), y: &y, in: region,
                buffer: &buffer)
        }
        y += 1

        let remaining = region.maxY - y
        if sideBySide {
            let w = min(56, (region.width - 6) / 2)
            let left = region.x + (region.width - (2 * w + 2)) / 2
            if statusHeight <= remaining {
                statusCard(into: &buffer, rect: Rect(x: left, y: y, width: w, height: statusHeight), context: context)
            }
            if glossaryHeight <= remaining {
                glossaryCard(
                    into: &buffer, rect: Rect(x: left + w + 2, y: y, width: w, height: glossaryHeight), context: context
                )
            }
        } else {
            let w = min(64, region.width - 4)
            let left = region.x + (region.width - w) / 2
            if statusHeight <= remaining {
                statusCard(into: &buffer, rect: Rect(x: left, y: y, width: w, height: statusHeight), context: context)
                y += statusHeight
            }
            if glossaryHeight <= region.maxY - y {
                glossaryCard(
                    into: &buffer, rect: Rect(x: left, y: y, width: w, height: glossaryHeight), context: context)
            }
        }
    }

    func centre(_ line: StyledLine, y: inout Int, in region: Rect, buffer: inout CellBuffer) {
        guard y < region.maxY else { return }
        let l = line.truncated(to: region.width - 2)
        buffer.write(l, x: region.x + (region.width - l.width) / 2, y: y, maxX: region.maxX)
        y += 1
    }

    func statusCard(into buffer: inout CellBuffer, rect: Rect, context: RenderContext) {
        let inner = Card.render(
            into: &buffer, rect: rect, title: "SYSTEM", accessory: model.statusAccessory, context: context)
        for (i, row) in model.statusRows.enumerated() where i < inner.height {
            let value = StyledLine(row.value, CellStyle(fg: .foregroundMuted))
            var line = StyledLine(context.glyphs.bullet + " ", CellStyle(fg: row.role))
            line.append(row.label, CellStyle(fg: .foreground))
            let labelRoom = inner.width - value.width - 1
            buffer.write(line.truncated(to: labelRoom, ellipsis: context.glyphs.ellipsis), x: inner.x, y: inner.y + i)
            let v = value.truncated(to: inner.width, ellipsis: context.glyphs.ellipsis)
            buffer.write(v, x: inner.maxX - v.width, y: inner.y + i, maxX: inner.maxX)
        }
    }

    func glossaryCard(into buffer: inout CellBuffer, rect: Rect, context: RenderContext) {
        let inner = Card.render(into: &buffer, rect: rect, title: "GLOSSARY", context: context)
        for (i, term) in model.glossary.enumerated() where i < inner.height {
            buffer.write(
                GlossText.line(term, context: context, reserve: true), x: inner.x, y: inner.y + i, maxX: inner.maxX)
        }
        let hintRow = model.glossary.count
        if hintRow < inner.height {
            let hint =
                context.glossRevealed ? "g: tap to hide, or let go" : "Hold g to reveal the English; tap g to toggle."
            buffer.write(
                StyledLine(hint, CellStyle(fg: .foregroundMuted, attributes: .italic)).truncated(
                    to: inner.width, ellipsis: context.glyphs.ellipsis),
                x: inner.x, y: inner.y + hintRow)
        }
    }
}
