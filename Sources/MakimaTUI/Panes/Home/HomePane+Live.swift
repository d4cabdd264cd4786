/// The live Home: the badge, a summary line, then the cards in two columns (one when the
/// terminal is narrow). Cards come first; the glossary and the logo take what room is left.
extension HomePane {
    func renderLive(_ mesh: HomeMeshModel, into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        let g = context.glyphs
        let system = HomeCard(
            title: "System", accessory: model.statusAccessory,
            rows: model.statusRows.map { row in
                HomeCard.Row(
                    StyledLine(g.bullet + " ", CellStyle(fg: row.role))
                        + StyledLine(row.label, CellStyle(fg: .foreground)),
                    right: StyledLine(row.value, CellStyle(fg: .foregroundMuted)))
            })
        let wide = region.width >= 100
        var columns: [[HomeCard]] =
            wide
            ? [
                [HomeCards.daemons(mesh, g), HomeCards.tasks(mesh, g), HomeCards.listen(mesh)],
                [HomeCards.contracts(mesh), HomeCards.directives(mesh), system],
            ]
            : [
                [
                    HomeCards.daemons(mesh, g), HomeCards.tasks(mesh, g), HomeCards.directives(mesh),
                    HomeCards.contracts(mesh), HomeCards.listen(mesh), system,
                ]
            ]
        let textHeight = 3
        func tallest() -> Int { columns.map { $0.reduce(0) { $0 + $1.height } }.max() ?? 0 }
        let glossary = glossaryCardModel(context: context)
        if wide, textHeight + 1 + tallest() + glossary.height <= region.height - 1 {
            let shorter = columns[0].reduce(0) { $0 + $1.height } <= columns[1].reduce(0) { $0 + $1.height } ? 0 : 1
            columns[shorter].append(glossary)
        }
        var y = region.y + 1
        let spare = region.height - 1 - textHeight - tallest()
        if spare >= 6 {
            let logoRows = min(9, spare - 2)
            BrailleLogo.render(
                into: &buffer, rect: Rect(x: region.x, y: y, width: region.width, height: logoRows), context: context)
            y += logoRows + 1
        }
        centre(
            Badge.line(text: GlossTerm.control.japanese, subtitle: "CONTROL SYSTEM", context: context), y: &y,
            in: region, buffer: &buffer)
        if let summary = mesh.summary {
            centre(
                StyledLine(summary.text, CellStyle(fg: summary.level.role, attributes: .bold)), y: &y, in: region,
                buffer: &buffer)
        } else {
            centre(StyledLine(model.tagline, CellStyle(fg: .foregroundMuted)), y: &y, in: region, buffer: &buffer)
        }
        y += 1
        let width = wide ? min(56, (region.width - 6) / 2) : min(64, region.width - 4)
        let gap = 2
        let total = columns.count * width + (columns.count - 1) * gap
        var x = region.x + (region.width - total) / 2
        for column in columns {
            var cy = y
            for card in column {
                let room = region.maxY - cy
                guard room >= 3 else { break }
                let h = min(card.height, room)
                card.render(into: &buffer, rect: Rect(x: x, y: cy, width: width, height: h), context: context)
                cy += h
            }
            x += width + gap
        }
    }

    func glossaryCardModel(context: RenderContext) -> HomeCard {
        var rows = model.glossary.map { HomeCard.Row(GlossText.line($0, context: context, reserve: true)) }
        let hint =
            context.glossRevealed ? "g: tap to hide, or let go" : "Hold g to reveal the English; tap g to toggle."
        rows.append(HomeCard.Row(StyledLine(hint, CellStyle(fg: .foregroundMuted, attributes: .italic))))
        return HomeCard(title: "Glossary", rows: rows)
    }
}
