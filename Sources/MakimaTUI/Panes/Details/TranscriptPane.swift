import Foundation
import MakimaKit

/// A listen session's transcript: time, speaker and text per line, word-wrapped under the
/// text column, scrollable, and searchable with `/` (Enter jumps to the first match from the
/// top of the view; `n` and `N` step through the others).
public struct TranscriptPane: Pane {
    public let id = PaneID.transcript
    public var section: PaneID { .listen }
    public private(set) var model: TranscriptViewModel
    public private(set) var scroll = ScrollText()
    /// The search being typed (nil when not typing).
    public private(set) var typing: String?
    /// The applied search and the entries that match it.
    public private(set) var query = ""
    public private(set) var matches: [Int] = []
    /// Index into `matches` of the current one.
    public private(set) var current: Int?
    /// Where each entry's first row was at the last render, to scroll a match into view.
    private var entryRows: [Int] = []
    private var revealEntry: Int?

    public init(model: TranscriptViewModel) { self.model = model }

    public var title: String { "TRANSCRIPT" }
    public var keyContexts: [KeyContext] { [.transcript] }
    public var isEditingText: Bool { typing != nil }
    public var isTopLevel: Bool { false }
    public var crumb: Crumb { Crumb("LISTEN", model.title) }
    public var shownLink: DeepLink? { .listen(model.sessionID) }

    public mutating func update(_ new: TranscriptViewModel) {
        model = new
        if !query.isEmpty { findMatches() }
    }

    public mutating func handle(_ action: KeyAction) -> PaneResponse {
        if scroll.handle(action) { return .handled }
        switch action {
        case .filter: typing = ""
        case .searchNext: step(1)
        case .searchPrevious: step(-1)
        case .dismiss:
            guard !query.isEmpty else { return .ignored }
            clearSearch()
        default: return .ignored
        }
        return .handled
    }

    public mutating func edit(_ edit: TextEdit) -> PaneResponse {
        guard var text = typing else { return .ignored }
        switch edit {
        case .insert(let c): if TextEdit.fits(c, in: text) { text.append(c) }
        case .deleteBackward: if !text.isEmpty { text.removeLast() }
        case .complete: break
        case .cancel:
            typing = nil
            clearSearch()
            return .handled
        case .submit:
            typing = nil
            query = text
            findMatches()
            // The first match at or below the top of the view, else the first one.
            let topEntry = entryRows.lastIndex { $0 <= scroll.top } ?? 0
            current = matches.isEmpty ? nil : (matches.firstIndex { $0 >= topEntry } ?? 0)
            revealEntry = current.map { matches[$0] }
            return .handled
        }
        typing = text
        return .handled
    }

    private mutating func clearSearch() {
        query = ""
        matches = []
        current = nil
    }

    private mutating func findMatches() {
        guard !query.isEmpty else { return clearSearch() }
        matches = model.entries.indices.filter {
            model.entries[$0].text.localizedCaseInsensitiveContains(query)
                || model.entries[$0].speaker.localizedCaseInsensitiveContains(query)
        }
        if let c = current, c >= matches.count { current = matches.isEmpty ? nil : matches.count - 1 }
    }

    private mutating func step(_ by: Int) {
        guard !matches.isEmpty else { return }
        let next = ((current ?? (by > 0 ? -1 : 0)) + by + matches.count) % matches.count
        current = next
        revealEntry = matches[next]
    }

    // MARK: Rendering

    public mutating func render(into buffer: inout CellBuffer, region: Rect, context: RenderContext) {
        let area = region.inset(left: 1, right: 1)
        buffer.fill(region, style: .plain)
        var detail = "\(model.entries.count) line\(model.entries.count == 1 ? "" : "s")"
        if !query.isEmpty {
            detail +=
                matches.isEmpty ? " · no match for “\(query)”" : " · /\(query) \((current ?? 0) + 1)/\(matches.count)"
        }
        PaneHeader.render(
            title: title, term: .listen, detail: detail, into: &buffer, row: area.row(0), context: context)
        var heading = StyledLine(model.title, CellStyle(fg: .foreground, attributes: .bold))
        if !model.detail.isEmpty { heading.append("  " + model.detail, CellStyle(fg: .foregroundMuted)) }
        buffer.write(
            heading.truncated(to: area.width, ellipsis: context.glyphs.ellipsis), x: area.x, y: area.y + 1,
            maxX: area.maxX)
        buffer.writeBodyRule(across: area, y: area.y + 2, glyphs: context.glyphs)
        var body = area.inset(top: 3)
        if let typing {
            var prompt = StyledLine("/", CellStyle(fg: .accent, attributes: .bold))
            prompt.append(typing, CellStyle(fg: .foreground))
            prompt.append("_", CellStyle(fg: .accent, attributes: .bold))
            buffer.write(prompt, x: body.x, y: body.maxY - 1, maxX: body.maxX)
            body = body.inset(bottom: 1)
        }
        guard !body.isEmpty else { return }
        if model.entries.isEmpty {
            buffer.writeEmptyBodyNote(model.note ?? "no lines", in: body)
            return
        }
        let rows = layout(width: body.width)
        scroll.render(rows, into: &buffer, rect: body)
        if let e = revealEntry, entryRows.indices.contains(e) {
            revealEntry = nil
            scroll.reveal(entryRows[e])
            buffer.fill(body, style: .plain)
            scroll.render(rows, into: &buffer, rect: body)
        }
    }

    /// Every entry as rows for `width`: `time  speaker  text`, the text word-wrapped under its
    /// column. Narrow panes drop the time column first.
    mutating func layout(width: Int) -> [StyledLine] {
        let speakerWidth = min(16, model.entries.map { CellWidth.of($0.speaker) }.max() ?? 0)
        let hasTimes = model.entries.contains { !$0.time.isEmpty }
        let timeWidth = hasTimes && width >= 50 ? 8 : 0
        let textX = (timeWidth > 0 ? timeWidth + 2 : 0) + (speakerWidth > 0 ? speakerWidth + 2 : 0)
        let textWidth = max(10, width - textX)
        let currentEntry = current.map { matches[$0] }
        let matched = Set(matches)
        var rows: [StyledLine] = []
        entryRows = []
        for (i, e) in model.entries.enumerated() {
            entryRows.append(rows.count)
            var lead = StyledLine()
            if timeWidth > 0 {
                lead.append(StyledLine(e.time, CellStyle(fg: .foregroundMuted)).padded(to: timeWidth + 2))
            }
            if speakerWidth > 0 {
                let style =
                    i == currentEntry
                    ? CellStyle(fg: .accent, attributes: [.bold, .reverse]) : CellStyle(fg: .accent, attributes: .bold)
                lead.append(StyledLine(e.speaker.uppercased(), style).padded(to: speakerWidth + 2))
            }
            let pad = StyledLine(String(repeating: " ", count: min(textX, width)))
            let base = CellStyle(fg: .body)
            for (n, text) in TextLayout.wrap(e.text, to: textWidth).enumerated() {
                let line =
                    matched.contains(i)
                    ? Self.highlight(text, query, base: base, hit: i == currentEntry ? Self.currentHit : Self.otherHit)
                    : StyledLine(text, base)
                rows.append((n == 0 ? lead : pad) + line)
            }
        }
        return rows
    }

    static let currentHit = CellStyle(fg: .accent, attributes: [.bold, .reverse])
    static let otherHit = CellStyle(fg: .warn, attributes: .underline)

    /// `text` with every case-insensitive occurrence of `query` in `hit`.
    static func highlight(_ text: String, _ query: String, base: CellStyle, hit: CellStyle) -> StyledLine {
        var line = StyledLine()
        var rest = text[...]
        while !query.isEmpty, let r = rest.range(of: query, options: [.caseInsensitive]) {
            if r.lowerBound > rest.startIndex { line.append(String(rest[..<r.lowerBound]), base) }
            line.append(String(rest[r]), hit)
            rest = rest[r.upperBound...]
        }
        if !rest.isEmpty || line.spans.isEmpty { line.append(String(rest), base) }
        return line
    }
}

extension TranscriptPane {
    /// The transcript's keys: the scroll keys (`ScrollText`) and its search (`handle`, `edit`).
    static let keyBindings: [KeyBinding] =
        KeyBinding.scrolling(.transcript, down: "scroll down", up: "scroll up", top: "first line", bottom: "last line")
        + [
            KeyBinding(
                [.char("/")], .filter, "search (Enter: first match from the top of the view; Esc clears)",
                context: .transcript, footer: "search"),
            KeyBinding([.char("n")], .searchNext, "next match", context: .transcript, footer: "next"),
            KeyBinding([.char("N")], .searchPrevious, "previous match", context: .transcript, footer: "prev"),
        ]
}
