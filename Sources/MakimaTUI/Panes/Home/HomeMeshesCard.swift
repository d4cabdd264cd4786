import MakimaKit

extension HomeCards {
    /// MESHES//: one line per profile, `● staging  3 run · 1 fail · 2 ?` with how fresh at the
    /// right; the shown mesh in bold. Each line's target is its profile's name (Enter
    /// switches to it).
    static func meshes(_ m: HomeMeshModel, _ g: Glyphs) -> HomeCard {
        let rows = m.meshes.map { line in
            HomeCard.Row(meshLeft(line, g), right: meshRight(line), target: line.shown ? nil : line.name)
        }
        return HomeCard(
            title: HomeCardKind.meshes.title, accessory: "\(m.meshes.count) PROFILES", accessoryRole: .foregroundMuted,
            rows: rows)
    }

    static func meshLeft(_ line: HomeMeshModel.MeshLine, _ g: Glyphs) -> StyledLine {
        let role: ColorRole = line.reachable.map { $0 ? .ok : .danger } ?? .foregroundMuted
        var left = StyledLine(g.bullet + " ", CellStyle(fg: role))
        left.append(line.name, CellStyle(fg: .foreground, attributes: line.shown ? .bold : []))
        // After the name, so the names stay in one column whether a profile has a mark or not.
        if let mark = line.mark { left.append(" " + g.swatch, CellStyle(fg: .mesh(mark))) }
        let figures: [(MeshFigure, Int?, String, ColorRole)] = [
            (.running, line.running, "run", .accent), (.failures, line.failedLastHour, "fail", .danger),
            (.questions, line.questions, "?", .warn),
        ]
        // A mesh in the background is read one figure a turn: until each was read once it
        // shows `…` (the shown mesh has no count of failures of its own: it is left out).
        guard figures.contains(where: { $0.1 != nil }) else { return left }
        var first = true
        for (figure, value, label, hot) in figures where value != nil || !line.shown {
            left.append(first ? "  " : " " + g.separatorDot + " ", CellStyle(fg: .foregroundMuted))
            first = false
            let count = value.map { short($0, atLeast: line.atLeast.contains(figure)) } ?? g.ellipsis
            left.append(count + " " + label, CellStyle(fg: (value ?? 0) > 0 ? hot : .foregroundMuted))
        }
        return left
    }

    /// A figure in at most five cells: a mesh (or a server lying about it) can count past what
    /// the line has room for, and the freshness at the right must stay in view.
    static func short(_ n: Int, atLeast: Bool) -> String {
        let more = atLeast ? "+" : ""
        switch max(0, n) {
        case ..<10_000: return "\(max(0, n))" + more
        case ..<1_000_000: return "\(n / 1_000)k" + more
        case ..<1_000_000_000: return "\(n / 1_000_000)M" + more
        default: return "999M+"
        }
    }

    static func meshRight(_ line: HomeMeshModel.MeshLine) -> StyledLine {
        let text = line.shown ? "shown · " + line.freshness : line.freshness
        return StyledLine(text, CellStyle(fg: line.reachable == false ? .danger : .foregroundMuted))
    }
}
