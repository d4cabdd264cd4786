/// Where Home's cards go, data first (docs/design.md, "Home"). The data cards always get
/// a row each before anything else is drawn; then they grow towards all their rows; only the
/// room left after that goes to the badge line, the SYSTEM// and GLOSSARY// cards and the
/// logo, in that order. Columns follow the width (one below 100 cells, two below 160, else
/// three) and cards fill their column's width.
struct HomeLayout: Equatable {
    struct Placed: Equatable {
        /// Index into the cards passed in (data cards first, then extras).
        var card: Int
        var rect: Rect
    }

    var placed: [Placed] = []
    /// Rows of logo at the top (0: none).
    var logoRows = 0
    /// The badge and tagline lines under the logo.
    var showBadge = false
    /// Where the cards start.
    var cardsTop = 0

    static let gap = 2

    static func columnCount(width: Int) -> Int { width >= 160 ? 3 : (width >= 100 ? 2 : 1) }

    /// Which data cards go in which column, by their index (daemons, tasks, contracts,
    /// directives, listen, and meshes when there is a MESHES// card).
    static func columns(_ count: Int, dataCards: Int) -> [[Int]] {
        let all = Array(0..<dataCards)
        switch count {
        case 1: return [all]
        case 2: return [all.filter { [0, 1, 4].contains($0) }, all.filter { [2, 3, 5].contains($0) }]
        default: return [all.filter { $0 < 2 }, all.filter { $0 == 2 || $0 == 3 }, all.filter { $0 >= 4 }]
        }
    }

    /// - Parameters:
    ///   - dataRows: the content rows each data card would like (at least one is given).
    ///   - extraRows: the same for the extra cards, shown whole or not at all.
    ///   - summaryLine: a line about the data's health is always shown (1 row).
    static func make(region: Rect, dataRows: [Int], extraRows: [Int], summaryLine: Bool) -> HomeLayout {
        var layout = HomeLayout()
        let n = columnCount(width: region.width)
        let cols = columns(n, dataCards: dataRows.count)
        let need = cols.map { $0.reduce(0) { $0 + 2 + max(1, dataRows[$1]) } }.max() ?? 0
        var top = region.y
        var spare = region.height - need - (summaryLine ? 1 : 0)
        // Badge + tagline (+ a blank line) only when the data has all its rows.
        if spare >= 3 {
            layout.showBadge = true
            spare -= 3
            if spare >= 8 {
                layout.logoRows = min(9, spare - 2)
                top += layout.logoRows + 1
            }
            top += 3
        } else if summaryLine {
            top += 1
        }
        layout.cardsTop = top
        let height = region.maxY - top
        let width = max(1, (region.width - 2 - (n - 1) * gap) / n)

        var used = [Int](repeating: 0, count: n)
        for (c, column) in cols.enumerated() {
            let x = region.x + 1 + c * (width + gap)
            used[c] = layout.placeColumn(column, dataRows: dataRows, x: x, top: top, width: width, height: height)
        }
        // Extra cards, whole, in the column with the most room left.
        for (e, rows) in extraRows.enumerated() {
            let h = rows + 2
            guard let c = used.indices.min(by: { used[$0] < used[$1] }), used[c] + h <= height else { continue }
            layout.placed.append(
                Placed(
                    card: dataRows.count + e,
                    rect: Rect(x: region.x + 1 + c * (width + gap), y: top + used[c], width: width, height: h)))
            used[c] += h
        }
        return layout
    }

    /// Data cards of one column: at least three rows each (border and one row), then one
    /// more row at a time, in turn, while they want more and there is room. Returns the rows
    /// the column uses.
    private mutating func placeColumn(
        _ column: [Int], dataRows: [Int], x: Int, top: Int, width: Int, height: Int
    ) -> Int {
        var shown = column
        while shown.count * 3 > height && !shown.isEmpty { shown.removeLast() }
        var heights = Dictionary(uniqueKeysWithValues: shown.map { ($0, 3) })
        var room = height - shown.count * 3
        var grew = true
        while room > 0 && grew {
            grew = false
            for i in shown where room > 0 && heights[i, default: 3] < 2 + max(1, dataRows[i]) {
                heights[i, default: 3] += 1
                room -= 1
                grew = true
            }
        }
        var y = top
        for i in shown {
            let h = heights[i, default: 3]
            placed.append(Placed(card: i, rect: Rect(x: x, y: y, width: width, height: h)))
            y += h
        }
        return y - top
    }
}
