/// One line of news for the operator: a banner (the server refused the key) or a toast (a
/// task failed). The text is already clean; the level picks its colour.
public struct NoticeLine: Equatable, Sendable {
    public var text: String
    public var level: StatusRow.Level

    public init(_ text: String, level: StatusRow.Level) {
        self.text = text
        self.level = level
    }
}

/// Draws a `NoticeLine` across a row on the panel colour: a dot in the level's colour, then
/// the text (cut with an ellipsis, never wrapped).
public enum NoticeBar {
    public static let background: ColorRole = .panel

    public static func render(_ notice: NoticeLine, into buffer: inout CellBuffer, row: Rect, context: RenderContext) {
        guard !row.isEmpty else { return }
        buffer.fill(row.row(0), style: CellStyle(fg: .body, bg: background))
        let role = notice.level.role
        var line = StyledLine(context.glyphs.bullet + " ", CellStyle(fg: role, bg: background, attributes: .bold))
        let emphasis: TextAttributes = notice.level == .muted ? [] : .bold
        line.append(
            notice.text, CellStyle(fg: notice.level == .muted ? .body : role, bg: background, attributes: emphasis))
        buffer.write(
            line.truncated(to: row.width - 2, ellipsis: context.glyphs.ellipsis), x: row.x + 1, y: row.y,
            maxX: row.maxX - 1)
    }
}
