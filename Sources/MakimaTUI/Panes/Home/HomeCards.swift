import MakimaKit

/// One card of the live Home: a dashed card whose rows are a left part and an optional
/// right-aligned part, cut to the card's width by cells.
public struct HomeCard: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var left: StyledLine
        public var right: StyledLine?
        public init(_ left: StyledLine, right: StyledLine? = nil) {
            self.left = left
            self.right = right
        }
    }

    public var title: String
    public var accessory: String?
    public var accessoryRole: ColorRole = .accent
    public var rows: [Row]

    public var height: Int { rows.count + 2 }

    /// Draws the card in `rect`; rows that do not fit are left out.
    func render(into buffer: inout CellBuffer, rect: Rect, context: RenderContext) {
        let inner = Card.render(
            into: &buffer, rect: rect, title: title, accessory: accessory,
            accessoryRole: accessoryRole, context: context)
        let e = context.glyphs.ellipsis
        for (i, row) in rows.enumerated() where i < inner.height {
            let right = row.right?.truncated(to: inner.width / 2, ellipsis: e) ?? StyledLine()
            let room = inner.width - right.width - (right.width > 0 ? 1 : 0)
            buffer.write(row.left.truncated(to: room, ellipsis: e), x: inner.x, y: inner.y + i, maxX: inner.x + room)
            if right.width > 0 { buffer.write(right, x: inner.maxX - right.width, y: inner.y + i, maxX: inner.maxX) }
        }
    }
}

/// The live Home's cards from its model.
enum HomeCards {
    static func freshness(_ f: Freshness) -> (String?, ColorRole) {
        (f.marker, f.level == .muted ? .foregroundMuted : f.level.role)
    }

    static func card(_ title: String, _ f: Freshness, _ rows: [HomeCard.Row]) -> HomeCard {
        let (marker, role) = freshness(f)
        return HomeCard(title: title, accessory: marker, accessoryRole: role, rows: rows)
    }

    static func muted(_ text: String) -> HomeCard.Row {
        HomeCard.Row(StyledLine(text, CellStyle(fg: .foregroundMuted, attributes: .italic)))
    }

    static func daemons(_ m: HomeMeshModel, _ g: Glyphs) -> HomeCard {
        var line = StyledLine(g.bullet + " ", CellStyle(fg: .ok))
        line.append("\(m.daemonsOnline) ONLINE", CellStyle(fg: .foreground, attributes: .bold))
        line.append("   ", .plain)
        line.append(g.bullet + " ", CellStyle(fg: m.daemonsOffline > 0 ? .danger : .foregroundMuted))
        line.append(
            "\(m.daemonsOffline) OFFLINE",
            CellStyle(fg: m.daemonsOffline > 0 ? .danger : .foregroundMuted, attributes: .bold))
        var rows = [HomeCard.Row(line)]
        if !m.offlineHosts.isEmpty {
            rows.append(
                HomeCard.Row(
                    StyledLine("offline: " + m.offlineHosts.joined(separator: ", "), CellStyle(fg: .foregroundMuted))))
        }
        return card("Daemons", m.daemons, rows)
    }

    static func tasks(_ m: HomeMeshModel, _ g: Glyphs) -> HomeCard {
        var rows = [HomeCard.Row(StyledLine("\(m.runningCount) RUNNING", CellStyle(fg: .accent, attributes: .bold)))]
        for t in m.recentTasks {
            let role = StatusStyle.task(t.status)
            rows.append(
                HomeCard.Row(
                    StyledLine(g.bullet + " ", CellStyle(fg: role)) + StyledLine(t.title, CellStyle(fg: .body)),
                    right: StyledLine(t.status.rawValue.uppercased(), CellStyle(fg: role))))
        }
        if m.recentTasks.isEmpty { rows.append(muted("no tasks yet")) }
        return card("Tasks", m.tasks, rows)
    }

    static func contracts(_ m: HomeMeshModel) -> HomeCard {
        var rows = [
            HomeCard.Row(StyledLine("\(m.activeContractsCount) ACTIVE", CellStyle(fg: .accent, attributes: .bold)))
        ]
        for c in m.topContracts {
            rows.append(
                HomeCard.Row(
                    StyledLine(c.name, CellStyle(fg: .body)),
                    right: StyledLine(c.phase.uppercased(), CellStyle(fg: .foregroundMuted))))
        }
        return card("Contracts", m.contracts, rows)
    }

    static func directives(_ m: HomeMeshModel) -> HomeCard {
        let n = m.pendingQuestions.count
        var rows: [HomeCard.Row] = []
        if n == 0 {
            rows.append(muted("no questions waiting"))
        } else {
            rows.append(
                HomeCard.Row(
                    StyledLine(
                        " ? \(n) QUESTION\(n == 1 ? "" : "S") WAITING ",
                        CellStyle(fg: .background, bg: .warn, attributes: .bold))))
            for q in m.pendingQuestions.prefix(3) {
                rows.append(HomeCard.Row(StyledLine(q.directive, CellStyle(fg: .foreground, attributes: .bold))))
                rows.append(HomeCard.Row(StyledLine("  " + q.question, CellStyle(fg: .warn))))
            }
        }
        return card("Directives", m.directives, rows)
    }

    static func listen(_ m: HomeMeshModel) -> HomeCard {
        guard let l = m.latestListen else { return card("Listen", m.listen, [muted("no sessions yet")]) }
        var rows = [
            HomeCard.Row(
                StyledLine(l.title, CellStyle(fg: .foreground, attributes: .bold)),
                right: l.started.isEmpty ? nil : StyledLine(l.started, CellStyle(fg: .foregroundMuted)))
        ]
        if !l.preview.isEmpty {
            rows.append(HomeCard.Row(StyledLine(l.preview, CellStyle(fg: .bodySoft, attributes: .italic))))
        }
        return card("Listen", m.listen, rows)
    }
}
