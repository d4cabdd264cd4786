import MakimaKit

/// One card of the live Home: a dashed card whose rows are a left part and an optional
/// right-aligned part, cut to the card's width by cells. Rows that name something (a task, a
/// contract…) carry its id, so a focused card can select them and Enter can open them.
public struct HomeCard: Equatable, Sendable {
    public struct Row: Equatable, Sendable {
        public var left: StyledLine
        public var right: StyledLine?
        /// The id Enter opens in the card's pane (nil: not selectable).
        public var target: String?
        /// A line that belongs to another row's target (a directive's question under its
        /// title): a click on it selects that target, and the keys do not stop on it.
        public var selects: String?
        public init(_ left: StyledLine, right: StyledLine? = nil, target: String? = nil, selects: String? = nil) {
            self.left = left
            self.right = right
            self.target = target
            self.selects = selects
        }
    }

    public var title: String
    public var accessory: String?
    public var accessoryRole: ColorRole = .accent
    public var rows: [Row]

    public var height: Int { rows.count + 2 }
    public var targets: [String] { rows.compactMap(\.target) }

    /// Draws the card in `rect`; rows that do not fit are left out. A focused card has its
    /// border in the accent and its selected row (by target) in reverse video.
    /// `kind`: the data card this is, so clicks on it and its rows are recorded.
    func render(
        into buffer: inout CellBuffer, rect: Rect, context: RenderContext, focused: Bool = false,
        selected: String? = nil, kind: HomeCardKind? = nil
    ) {
        let inner = Card.render(
            into: &buffer, rect: rect, title: title, accessory: accessory,
            accessoryRole: accessoryRole, focused: focused, context: context)
        if let kind { buffer.mark(rect, .card(kind.rawValue)) }
        let e = context.glyphs.ellipsis
        // Keep the selected row in view when the card is shorter than its rows.
        let selectedIndex = focused ? rows.firstIndex { $0.target != nil && $0.target == selected } : nil
        let first = selectedIndex.map { max(0, $0 - inner.height + 1) } ?? 0
        for (i, row) in rows.dropFirst(first).prefix(max(0, inner.height)).enumerated() {
            let y = inner.y + i
            if let kind, let id = row.target ?? row.selects {
                // A line of the selected row's (its question) opens it too when clicked.
                let isSelected = selectedIndex.map { rows[$0].target == id } ?? false
                buffer.mark(
                    Rect(x: inner.x, y: y, width: inner.width, height: 1), .cardRow(card: kind.rawValue, id: id),
                    selected: isSelected)
            }
            var left = row.left
            var right = row.right ?? StyledLine()
            if let s = selectedIndex, s == first + i {
                // Selected: the same columns (the status on the right too), in reverse video.
                let highlight = CellStyle(fg: .accent, attributes: [.reverse, .bold])
                buffer.fill(Rect(x: inner.x - 1, y: y, width: inner.width + 2, height: 1), style: highlight)
                left = StyledLine(context.glyphs.selectionMarker + " " + left.text, highlight)
                right = StyledLine(right.text, highlight)
            }
            right = right.truncated(to: inner.width / 2, ellipsis: e)
            let room = inner.width - right.width - (right.width > 0 ? 1 : 0)
            buffer.write(left.truncated(to: room, ellipsis: e), x: inner.x, y: y, maxX: inner.x + room)
            if right.width > 0 { buffer.write(right, x: inner.maxX - right.width, y: y, maxX: inner.maxX) }
        }
    }
}

/// Home's data cards, in focus (Tab) order; each opens its pane and has that pane's number
/// in its title. MESHES// is last, shown only when two or more profiles are stored; Enter on
/// its line switches to that mesh.
public enum HomeCardKind: Int, CaseIterable, Sendable {
    case daemons, tasks, contracts, directives, listen, meshes
    /// NEEDS YOU//: drawn across the top, above the grid, while anything waits (not a data
    /// card of the grid: `shown` leaves it out; it leads the focus order, `focusOrder`).
    case needsYou

    /// The grid's cards a model has: MESHES// only with its lines.
    static func shown(in m: HomeMeshModel) -> [HomeCardKind] {
        allCases.filter { $0 != .needsYou && ($0 != .meshes || !m.meshes.isEmpty) }
    }

    /// Tab's order: NEEDS YOU// first while anything waits, then the grid's cards.
    static func focusOrder(_ m: HomeMeshModel, grid: [HomeCardKind]) -> [HomeCardKind] {
        (m.needsYou.isEmpty ? [] : [.needsYou]) + grid
    }

    public var pane: PaneID {
        switch self {
        case .meshes, .needsYou: return .home
        case .daemons: return .daemons
        case .tasks: return .tasks
        case .contracts: return .contracts
        case .directives: return .directives
        case .listen: return .listen
        }
    }

    /// `5 Daemons`: the number key that jumps to the card's pane, then its name.
    var title: String {
        switch self {
        case .meshes: "Meshes"
        case .needsYou: "Needs you"
        default: "\(pane.number) \(pane.rawValue.capitalized)"
        }
    }

    func card(_ m: HomeMeshModel, _ g: Glyphs) -> HomeCard {
        switch self {
        case .daemons: return HomeCards.daemons(m, g)
        case .tasks: return HomeCards.tasks(m, g)
        case .contracts: return HomeCards.contracts(m)
        case .directives: return HomeCards.directives(m)
        case .listen: return HomeCards.listen(m)
        case .meshes: return HomeCards.meshes(m, g)
        case .needsYou: return HomeCards.needsYou(m)
        }
    }
}

/// The live Home's cards from its model.
enum HomeCards {
    static func freshness(_ f: Freshness) -> (String?, ColorRole) {
        (f.marker, f.level == .muted ? .foregroundMuted : f.level.role)
    }

    static func card(_ kind: HomeCardKind, _ f: Freshness, _ rows: [HomeCard.Row]) -> HomeCard {
        let (marker, role) = freshness(f)
        return HomeCard(title: kind.title, accessory: marker, accessoryRole: role, rows: rows)
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
        if !m.daemonLines.isEmpty {
            for d in m.daemonLines {
                rows.append(
                    statusRow(d.host, status: d.status.rawValue, StatusStyle.daemonStyle(d.status), target: d.id, g))
            }
        } else if !m.offlineHosts.isEmpty {
            rows.append(
                HomeCard.Row(
                    StyledLine("offline: " + m.offlineHosts.joined(separator: ", "), CellStyle(fg: .foregroundMuted))))
        }
        return card(.daemons, m.daemons, rows)
    }

    /// A bullet in the status's colour and `label`, with the status on the right; opens `target`.
    private static func statusRow(
        _ label: String, status: String, _ style: CellStyle, target: String, _ g: Glyphs
    ) -> HomeCard.Row {
        HomeCard.Row(
            StyledLine(g.bullet + " ", CellStyle(fg: style.fg)) + StyledLine(label, CellStyle(fg: .body)),
            right: StyledLine(status.uppercased(), style), target: target)
    }

    static func tasks(_ m: HomeMeshModel, _ g: Glyphs) -> HomeCard {
        var rows = [HomeCard.Row(StyledLine("\(m.runningCount) RUNNING", CellStyle(fg: .accent, attributes: .bold)))]
        for t in m.recentTasks {
            rows.append(statusRow(t.title, status: t.status.rawValue, StatusStyle.taskStyle(t.status), target: t.id, g))
        }
        if m.recentTasks.isEmpty { rows.append(muted("no tasks yet")) }
        return card(.tasks, m.tasks, rows)
    }

    static func contracts(_ m: HomeMeshModel) -> HomeCard {
        var rows = [
            HomeCard.Row(StyledLine("\(m.activeContractsCount) ACTIVE", CellStyle(fg: .accent, attributes: .bold)))
        ]
        for c in m.topContracts {
            rows.append(
                HomeCard.Row(
                    StyledLine(c.name, CellStyle(fg: .body)),
                    right: StyledLine(c.phase.uppercased(), CellStyle(fg: .foregroundMuted)),
                    target: c.id.isEmpty ? nil : c.id))
        }
        return card(.contracts, m.contracts, rows)
    }

    /// Oldest first: what it is (amber; a failure in red), its words, its age on the right.
    static func needsYou(_ m: HomeMeshModel) -> HomeCard {
        let rows = m.needsYou.map { line in
            HomeCard.Row(
                StyledLine(
                    line.label.uppercased() + "  ",
                    CellStyle(fg: line.kind == .failed ? .danger : .warn, attributes: .bold))
                    + StyledLine(line.text, CellStyle(fg: .foreground)),
                right: line.age.isEmpty ? nil : StyledLine(line.age, CellStyle(fg: .foregroundMuted)), target: line.id)
        }
        var card = HomeCard(
            title: HomeCardKind.needsYou.title, accessory: "\(m.needsYouCount) · n next · x done", rows: rows)
        card.accessoryRole = .warn
        return card
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
            for q in m.pendingQuestions {
                rows.append(
                    HomeCard.Row(
                        StyledLine(q.directive, CellStyle(fg: .foreground, attributes: .bold)),
                        target: q.directiveID.isEmpty ? nil : q.directiveID))
                rows.append(
                    HomeCard.Row(
                        StyledLine("  " + q.question, CellStyle(fg: .warn)),
                        selects: q.directiveID.isEmpty ? nil : q.directiveID))
            }
        }
        return card(.directives, m.directives, rows)
    }

    static func listen(_ m: HomeMeshModel) -> HomeCard {
        guard let l = m.latestListen else { return card(.listen, m.listen, [muted("no sessions yet")]) }
        var rows = [
            HomeCard.Row(
                StyledLine(l.title, CellStyle(fg: .foreground, attributes: .bold)),
                right: l.started.isEmpty ? nil : StyledLine(l.started, CellStyle(fg: .foregroundMuted)),
                target: l.id.isEmpty ? nil : l.id)
        ]
        if !l.preview.isEmpty {
            rows.append(HomeCard.Row(StyledLine(l.preview, CellStyle(fg: .bodySoft, attributes: .italic))))
        }
        for o in m.olderListen {
            rows.append(
                HomeCard.Row(
                    StyledLine(o.title, CellStyle(fg: .body)),
                    right: o.started.isEmpty ? nil : StyledLine(o.started, CellStyle(fg: .foregroundMuted)),
                    target: o.id.isEmpty ? nil : o.id))
        }
        return card(.listen, m.listen, rows)
    }
}
