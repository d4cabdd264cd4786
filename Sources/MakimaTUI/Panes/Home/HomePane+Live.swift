/// The live Home: the five data cards first (daemons, tasks, contracts, directives, listen),
/// laid out by `HomeLayout` to use the whole width and height; the badge, SYSTEM//, GLOSSARY//
/// and the logo take only the room the data leaves.
extension HomePane {
    func dataCards(_ mesh: HomeMeshModel, _ g: Glyphs) -> [HomeCard] {
        HomeCardKind.shown(in: mesh).map { $0.card(mesh, g) }
    }

    /// The shown mesh's MESHES// line counts the failures its cache recorded in the last hour.
    func withShownFailures(_ mesh: HomeMeshModel) -> HomeMeshModel {
        guard let failed = model.activity?.lastHour.failed, let i = mesh.meshes.firstIndex(where: \.shown) else {
            return mesh
        }
        var m = mesh
        m.meshes[i].failedLastHour = failed
        return m
    }

    mutating func renderLive(_ mesh: HomeMeshModel, into buffer: inout CellBuffer, region: Rect, context: RenderContext)
    {
        let mesh = withShownFailures(mesh)
        let g = context.glyphs
        var region = region
        shownCards = []
        renderNeedsYou(mesh, into: &buffer, region: &region, context: context)
        let system = HomeCard(
            title: "System", accessory: model.statusAccessory,
            rows: model.statusRows.map { row in
                HomeCard.Row(
                    StyledLine(g.bullet + " ", CellStyle(fg: row.role))
                        + StyledLine(row.label, CellStyle(fg: .foreground)),
                    right: StyledLine(row.value, CellStyle(fg: .foregroundMuted)))
            })
        let data = dataCards(mesh, g)
        // ACTIVITY// first among the extras: it takes room only the data cards leave.
        let columns = HomeLayout.columnCount(width: region.width)
        let cardWidth = max(1, (region.width - 2 - (columns - 1) * HomeLayout.gap) / columns)
        // Rows are drawn inside the border and a space of padding on each side.
        let activity = model.activity.map { ActivityCard.card($0, width: cardWidth - 4, glyphs: g) }
        let extras = (activity.map { [$0] } ?? []) + [system, glossaryCardModel(context: context)]
        let layout = HomeLayout.make(
            region: region, dataRows: data.map(\.rows.count), extraRows: extras.map(\.rows.count),
            summaryLine: mesh.summary != nil)
        var y = region.y
        if layout.logoRows > 0 {
            BrailleLogo.render(
                into: &buffer, rect: Rect(x: region.x, y: y, width: region.width, height: layout.logoRows),
                context: context)
            y += layout.logoRows + 1
        }
        if layout.showBadge {
            centre(
                Badge.line(text: GlossTerm.control.japanese, subtitle: "CONTROL SYSTEM", context: context), y: &y,
                in: region, buffer: &buffer)
        }
        if let summary = mesh.summary {
            centre(
                StyledLine(summary.text, CellStyle(fg: summary.level.role, attributes: .bold)), y: &y, in: region,
                buffer: &buffer)
        } else if layout.showBadge {
            centre(StyledLine(model.tagline, CellStyle(fg: .foregroundMuted)), y: &y, in: region, buffer: &buffer)
        }
        for p in layout.placed {
            if p.card < data.count {
                let kind = HomeCardKind.allCases[p.card]
                shownCards.append(kind)
                data[p.card].render(
                    into: &buffer, rect: p.rect, context: context, focused: kind == focus,
                    selected: selection[kind], kind: kind)
            } else {
                extras[p.card - data.count].render(into: &buffer, rect: p.rect, context: context)
            }
        }
    }

    /// NEEDS YOU// across the top while anything waits: up to `needsYouRows` lines (oldest
    /// first; the count in its title says how many in all), the grid below it. Left out when
    /// the screen is too short to keep a row for each data card too.
    static let needsYouRows = 5

    mutating func renderNeedsYou(
        _ mesh: HomeMeshModel, into buffer: inout CellBuffer, region: inout Rect, context: RenderContext
    ) {
        guard !mesh.needsYou.isEmpty else { return }
        let card = HomeCards.needsYou(mesh)
        let height = min(card.rows.count, Self.needsYouRows) + 2
        guard region.height - height >= 12, region.width >= 20 else { return }
        let rect = Rect(x: region.x + 1, y: region.y, width: region.width - 2, height: height)
        card.render(
            into: &buffer, rect: rect, context: context, focused: focus == .needsYou,
            selected: selection[.needsYou], kind: .needsYou)
        shownCards.append(.needsYou)
        region = Rect(x: region.x, y: region.y + height, width: region.width, height: region.height - height)
    }

    func glossaryCardModel(context: RenderContext) -> HomeCard {
        var rows = model.glossary.map { HomeCard.Row(GlossText.line($0, context: context, reserve: true)) }
        let hint =
            context.glossRevealed ? "g: tap to hide, or let go" : "Hold g to reveal the English; tap g to toggle."
        rows.append(HomeCard.Row(StyledLine(hint, CellStyle(fg: .foregroundMuted, attributes: .italic))))
        return HomeCard(title: "Glossary", rows: rows)
    }

    // MARK: Focus

    /// Tab / Shift-Tab (h / l) move between the cards on screen (a card reached this way starts
    /// on its first row), j / k between a card's rows (above the first row nothing is
    /// selected), Enter opens the selected row, or the card's pane when none is.
    mutating func handleLive(_ mesh: HomeMeshModel, _ action: KeyAction) -> PaneResponse {
        let grid = shownCards.isEmpty ? HomeCardKind.shown(in: mesh) : HomeCardKind.allCases.filter(shownCards.contains)
        let order = HomeCardKind.focusOrder(mesh, grid: grid.filter { $0 != .needsYou })
        switch action {
        case .focusNext, .focusPrevious:
            let i = order.firstIndex(of: focus) ?? -1
            let step = action == .focusNext ? 1 : order.count - 1
            focus = order[(max(0, i) + (i < 0 ? 0 : step)) % order.count]
            // A card focused by Tab starts on its first row, so Enter opens that row.
            if selection[focus] == nil { selection[focus] = focus.card(mesh, .unicode).targets.first }
        case .moveDown, .moveUp:
            let targets = focus.card(mesh, .unicode).targets
            guard !targets.isEmpty else { return .handled }
            let i = selection[focus].flatMap { targets.firstIndex(of: $0) }
            if action == .moveDown {
                selection[focus] = targets[min(targets.count - 1, i.map { $0 + 1 } ?? 0)]
            } else {
                selection[focus] = i.flatMap { $0 > 0 ? targets[$0 - 1] : nil }
            }
        case .select(.card(let raw)):
            guard let kind = HomeCardKind(rawValue: raw) else { return .ignored }
            focus = kind
        case .select(.cardRow(let raw, let id)):
            guard let kind = HomeCardKind(rawValue: raw), kind.card(mesh, .unicode).targets.contains(id) else {
                return .ignored
            }
            focus = kind
            selection[kind] = id
        case .open:
            let targets = focus.card(mesh, .unicode).targets
            let row = selection[focus].flatMap { targets.contains($0) ? $0 : nil }
            if focus == .needsYou { return row.map { .request(.needsYou(.open($0))) } ?? .handled }
            // A MESHES// line switches to its mesh (as `:profile NAME` does).
            if focus == .meshes { return row.map { .request(.switchProfile($0)) } ?? .handled }
            if let row { return .request(.openRow(pane: focus.pane, rowID: row)) }
            return .open(focus.pane)
        case .acknowledge:
            guard focus == .needsYou, let row = selection[.needsYou] else { return .ignored }
            let targets = HomeCards.needsYou(mesh).targets
            if let i = targets.firstIndex(of: row) {
                // The selection moves to the line that takes its place.
                let rest = targets.filter { $0 != row }
                selection[.needsYou] = rest.isEmpty ? nil : rest[min(i, rest.count - 1)]
            }
            return .request(.needsYou(.acknowledge(row)))
        default:
            return .ignored
        }
        return .handled
    }
}

extension HomePane {
    /// The live Home's keys, answered by `handleLive` (the welcome screen has none of its own).
    static let keyBindings: [KeyBinding] = [
        KeyBinding([.tab, .char("l")], .focusNext, "focus the next card", context: .home, footer: "next card"),
        KeyBinding([.backTab, .char("h")], .focusPrevious, "focus the previous card", context: .home),
        KeyBinding([.char("j"), .down], .moveDown, "next row of the focused card", context: .home, footer: "row"),
        KeyBinding([.char("k"), .up], .moveUp, "previous row (above the first: none)", context: .home),
        KeyBinding(
            [.enter], .open, "open the selected row (MESHES//: switch to that mesh), else the card's pane",
            context: .home, footer: "open"),
    ]
}
