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
        guard let running = line.running else { return left }
        let sep = " " + g.separatorDot + " "
        left.append("  \(running) run", CellStyle(fg: running > 0 ? .accent : .foregroundMuted))
        if let failed = line.failedLastHour {
            left.append(sep, CellStyle(fg: .foregroundMuted))
            left.append("\(failed) fail", CellStyle(fg: failed > 0 ? .danger : .foregroundMuted))
        }
        if let questions = line.questions {
            left.append(sep, CellStyle(fg: .foregroundMuted))
            left.append("\(questions) ?", CellStyle(fg: questions > 0 ? .warn : .foregroundMuted))
        }
        return left
    }

    static func meshRight(_ line: HomeMeshModel.MeshLine) -> StyledLine {
        let text = line.shown ? "shown · " + line.freshness : line.freshness
        return StyledLine(text, CellStyle(fg: line.reachable == false ? .danger : .foregroundMuted))
    }
}
