import MakimaKit

/// Home's ACTIVITY// card: what the cache recorded (`ActivityHistory`), as bars in the theme's
/// roles with each row's scale written at its right: tasks completed (ok) and failed (danger)
/// per hour over the last 24 hours, output events per minute over the last hour (accent), and,
/// when the card is wide enough, the daemons online per hour.
enum ActivityCard {
    /// Eight heights of bar; ASCII terminals get characters of growing weight.
    static func levels(_ g: Glyphs) -> [String] {
        g.isUnicode ? ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] : [".", ":", "-", "=", "+", "*", "#", "@"]
    }

    /// Inner width from which the daemons row is added.
    static let daemonsWidth = 50
    static let labelWidth = 9

    /// The card for an inner width of `width` cells.
    static func card(_ history: ActivityHistory, width: Int, glyphs g: Glyphs) -> HomeCard {
        let (completed, failed) = history.finishedPerHour()
        var rows = [
            row("done/h", completed, .ok, width: width, g),
            row("fail/h", failed, .danger, width: width, g),
            row("out/min", history.outputPerMinute(), .accent, width: width, g),
        ]
        if width >= daemonsWidth {
            rows.append(row("daemons", history.daemonsOnlinePerHour().map { $0 ?? 0 }, .body, width: width, g))
        }
        let hour = history.lastHour
        return HomeCard(title: "Activity", accessory: "\(hour.output) out · 1h", rows: rows)
    }

    /// A label, the newest values that fit as bars (oldest left), and `max N` at the right.
    static func row(_ label: String, _ values: [Int], _ role: ColorRole, width: Int, _ g: Glyphs) -> HomeCard.Row {
        let top = values.max() ?? 0
        let scale = StyledLine("max \(top)", CellStyle(fg: .foregroundMuted))
        let room = max(0, width - labelWidth - scale.width - 1)
        var line = StyledLine(
            label.padding(toLength: labelWidth, withPad: " ", startingAt: 0), CellStyle(fg: .foreground))
        line.append(bars(Array(values.suffix(room)), top: top, role: role, g))
        return HomeCard.Row(line, right: scale)
    }

    /// One cell per value, its height proportional to `top`; zero is the lowest bar, muted.
    static func bars(_ values: [Int], top: Int, role: ColorRole, _ g: Glyphs) -> StyledLine {
        let glyphs = levels(g)
        var line = StyledLine()
        for v in values {
            if v <= 0 || top <= 0 {
                line.append(glyphs[0], CellStyle(fg: .borderMuted))
            } else {
                let i = min(glyphs.count - 1, max(1, (v * (glyphs.count - 1) + top - 1) / top))
                line.append(glyphs[i], CellStyle(fg: role))
            }
        }
        return line
    }
}
