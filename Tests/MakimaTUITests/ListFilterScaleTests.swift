import Foundation
import Testing

@testable import MakimaTUI

/// The `/` filter as a large list uses it: typing narrows the last matches, erasing widens
/// again, and every step shows exactly what a fresh filter on the whole list would.
@Suite struct ListFilterScaleTests {
    static func rows(_ titles: [String]) -> [ListRow] {
        titles.enumerated().map { ListRow(id: "id\($0.offset)", line: StyledLine($0.element)) }
    }

    /// What the filter must show: the rows whose text holds `filter`, ignoring case.
    static func expected(_ titles: [String], _ filter: String) -> [String] {
        titles.enumerated().filter { filter.isEmpty || $0.element.lowercased().contains(filter.lowercased()) }
            .map { "id\($0.offset)" }
    }

    @Test("typed and erased one key at a time, the matches equal a fresh filter at every step")
    func narrowAndWiden() {
        let titles = (0..<3000).map { n in
            ["Migrate LEDGER writes", "監査ログのローテーション", "Échec du déploiement", "Fix flaky WebSocket test"][n % 4]
                + " · batch \(n)"
        }
        var list = ListView(rows: Self.rows(titles))
        for query in ["ledger writes · batch 12", "監査ログ", "ÉCHEC DU", "websocket TEST · batch 29"] {
            list.beginFilter()
            var typed = ""
            for c in query {
                _ = list.editFilter(.insert(c))
                typed.append(c)
                #expect(list.visibleRows.map(\.id) == Self.expected(titles, typed), "typing \(typed)")
                #expect(list.visibleCount == list.visibleRows.count)
            }
            #expect(!list.visibleRows.isEmpty, "\(query) matches something")
            for _ in query {
                _ = list.editFilter(.deleteBackward)
                typed.removeLast()
                #expect(list.visibleRows.map(\.id) == Self.expected(titles, typed), "erasing to \(typed)")
            }
            _ = list.editFilter(.cancel)
            #expect(list.visibleCount == titles.count)
        }
    }

    @Test("new rows under a filter are matched against it; the selected row stays selected")
    func rowsReplacedUnderAFilter() {
        var list = ListView(rows: Self.rows(["alpha build", "beta", "gamma build"]))
        list.beginFilter()
        for c in "build" { _ = list.editFilter(.insert(c)) }
        list.moveDown()
        #expect(list.selectedRow?.id == "id2")
        list.setRows(
            Self.rows(["new build", "alpha build", "beta", "gamma build"]).enumerated().map {
                ListRow(id: ["n", "id0", "id1", "id2"][$0.offset], line: $0.element.line)
            })
        #expect(list.visibleRows.map(\.id) == ["n", "id0", "id2"])
        #expect(list.selectedRow?.id == "id2")
        // Equality is about what the list shows, not how its matches are kept.
        var same = ListView(rows: list.rows)
        same.beginFilter()
        for c in "build" { _ = same.editFilter(.insert(c)) }
        #expect(same.visibleRows == list.visibleRows)
    }

    @Test("a row's column is cut and padded exactly as StyledLine.padded does it, in one pass")
    func columnsFitAsPadded() {
        let texts = [
            "", "short", "exactly ten", "Migrate ledger writes to batched upserts · batch 00012",
            "監査ログのローテーション · rotate audit logs", "ab監", "abc監", "e\u{301}clair", "👩‍💻 pair 🇯🇵 flag",
            "x", "1234567890",
        ]
        for text in texts {
            for width in 2...14 {
                var row = RowLine()
                row.column(text, width, CellStyle(fg: .foreground))
                let expected = StyledLine(text, CellStyle(fg: .foreground)).padded(to: width)
                #expect(row.line.text == expected.text, "\(text) in \(width)")
                #expect(row.line.width == width)
            }
        }
    }
}
