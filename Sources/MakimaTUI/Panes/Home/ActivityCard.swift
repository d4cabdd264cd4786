import MakimaKit

/// Home's ACTIVITY// card: what the cache recorded (`ActivityHistory`), as bars in the theme's
/// roles with each row's scale written at its right: tasks completed (ok) and failed (danger)
/// per hour over the last 24 hours, output events per minute over the last hour (accent; a
/// braille plot, two minutes a cell, so the hour fits a 40-cell card), and, when the card is
/// wide enough, the daemons online per hour.
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
            row("out/min", history.outputPerMinute(), .accent, width: width, g, braille: g.isUnicode),
        ]
        if width >= daemonsWidth {
            rows.append(row("daemons", history.daemonsOnlinePerHour().map { $0 ?? 0 }, .body, width: width, g))
        }
        let hour = history.lastHour
        return HomeCard(title: "Activity", accessory: "\(hour.output) out · 1h", rows: rows)
    }

    /// A label, the newest values that fit as bars (oldest left; two a cell as braille), and
    /// `max N` at the right.
    static func row(
        _ label: String, _ values: [Int], _ role: ColorRole, width: Int, _ g: Glyphs, braille: Bool = false
    ) -> HomeCard.Row {
        let top = values.max() ?? 0
        let scale = StyledLine("max \(top)", CellStyle(fg: .foregroundMuted))
        let room = max(0, width - labelWidth - scale.width - 1)
        var line = StyledLine(
            label.padding(toLength: labelWidth, withPad: " ", startingAt: 0), CellStyle(fg: .foreground))
        if braille {
            line.append(brailleBars(Array(values.suffix(room * 2)), top: top, role: role))
        } else {
            line.append(bars(Array(values.suffix(room)), top: top, role: role, g))
        }
        return HomeCard.Row(line, right: scale)
    }

    /// Two values a cell, each a column of up to four braille dots from the bottom (a value
    /// above zero has one at least); a cell of two zeros is the bottom row of dots, muted.
    static func brailleBars(_ values: [Int], top: Int, role: ColorRole) -> StyledLine {
        // Dot bits of the left and right columns, bottom up (dots 7, 3, 2, 1 and 8, 6, 5, 4).
        let left: [UInt32] = [0x40, 0x04, 0x02, 0x01]
        let right: [UInt32] = [0x80, 0x20, 0x10, 0x08]
        func height(_ v: Int) -> Int { v <= 0 || top <= 0 ? 0 : min(4, max(1, (v * 4 + top - 1) / top)) }
        var line = StyledLine()
        // An odd count starts with a lone value in the right column.
        let padded = values.count % 2 == 0 ? values : [0] + values
        for i in stride(from: 0, to: padded.count, by: 2) {
            let (l, r) = (height(padded[i]), height(padded[i + 1]))
            guard l + r > 0 else {
                line.append(String(UnicodeScalar(0x2800 + left[0] + right[0])!), CellStyle(fg: .borderMuted))
                continue
            }
            let bits = left.prefix(l).reduce(0, +) + right.prefix(r).reduce(0, +)
            line.append(String(UnicodeScalar(0x2800 + bits)!), CellStyle(fg: role))
        }
        return line
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
