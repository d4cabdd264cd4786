/// Reading the output: search (`/`, `n`/`N`, Esc), wrap and sideways scroll, copying (`y`,
/// `Y`), the plan (`p`) and opening a link by its number (`:open N`).
extension TaskOutputPane {
    /// Cells `←`/`→` move code and tables.
    static let sidewaysStep = 8

    /// What the footer shows at the right: the search while there is one, and the follow mode.
    public var footerStatus: String? {
        let mode = following ? "FOLLOWING" : "PAUSED · F follows"
        guard searching || !search.query.isEmpty else { return mode }
        let q = oneLine(search.query)
        return "/\(q)\(searching ? "_" : "")  \(search.position)  ·  \(mode)"
    }

    /// The keys of this file; nil for the scrolling keys `handle` deals with.
    mutating func handleReading(_ action: KeyAction) -> PaneResponse? {
        switch action {
        case .filter:
            searching = true
            search.update(query: "", in: model.lines)
        case .searchNext, .searchPrevious:
            // No query kept: not a search key here (the app's `n` is the needs-you list's).
            guard !search.query.isEmpty else { return .ignored }
            guard !search.matches.isEmpty else { return .handled }
            if action == .searchNext { search.next() } else { search.previous() }
            showCurrentMatch()
        case .dismiss:
            // Esc leaves the search first; with none, the view (the app pops it).
            guard !search.query.isEmpty else { return .ignored }
            search = OutputSearch()
        case .toggleWrap: wrapProse.toggle()
        case .togglePlan: planOpen.toggle()
        case .scrollLeft: scrollSideways(by: -Self.sidewaysStep)
        case .scrollRight: scrollSideways(by: Self.sidewaysStep)
        case .copyVisible:
            let end = min(model.lines.count, shownTop + shownLines)
            guard shownTop < end else { return .request(.toast("nothing to copy yet")) }
            let n = end - shownTop
            return .copy(
                text: Clipboard.text(of: model.lines[shownTop..<end]), what: "\(n) line\(n == 1 ? "" : "s") of output")
        case .copyBlock:
            guard let block = codeBlockInView, let code = Clipboard.code(block: block, in: model.lines) else {
                return .request(.toast("no code block in view"))
            }
            let n = code.split(separator: "\n", omittingEmptySubsequences: false).count
            return .copy(text: code, what: "code block \(block) (\(n) line\(n == 1 ? "" : "s"))")
        case .openLink(let n):
            guard n >= 1, n <= model.links.count else {
                return .request(.toast("no link [\(n)] in this output (\(model.links.count) links)"))
            }
            return .request(.openURL(model.links[n - 1]))
        default: return nil
        }
        return .handled
    }

    /// Typing the search query: each character narrows the matches (incremental), Enter keeps
    /// them for `n`/`N`, Esc (or Backspace on an empty query) drops the search.
    public mutating func edit(_ edit: TextEdit) -> PaneResponse {
        guard searching else { return .ignored }
        switch edit {
        case .insert(let c):
            guard TextEdit.fits(c, in: search.query) else { return .handled }
            search.update(query: search.query + String(c), in: model.lines, fromLine: viewTop)
            showCurrentMatch()
        case .deleteBackward:
            guard !search.query.isEmpty else {
                searching = false
                return .handled
            }
            search.update(query: String(search.query.dropLast()), in: model.lines, fromLine: viewTop)
            showCurrentMatch()
        case .submit: searching = false
        case .cancel:
            searching = false
            search = OutputSearch()
        case .complete: break
        }
        return .handled
    }

    /// The first line in view.
    var viewTop: Int { following ? shownTop : top }

    /// The code block the cursor is on: the current search match's block, else the first
    /// block with a line in view.
    var codeBlockInView: Int? {
        if let m = search.currentMatch, m.line < model.lines.count, let b = model.lines[m.line].codeBlock { return b }
        let end = min(model.lines.count, shownTop + max(1, shownLines))
        guard shownTop < end else { return nil }
        return model.lines[shownTop..<end].lazy.compactMap(\.codeBlock).first
    }

    /// One more step of a search still going; the first match it finds is brought into view.
    mutating func advanceSearch() {
        guard !search.isComplete else { return }
        let hadCurrent = search.current != nil
        search.advance(in: model.lines)
        if !hadCurrent { showCurrentMatch() }
    }

    /// The output changed under a search: find the query again, staying on the same match.
    mutating func refreshSearch(shift: Int) {
        let from = max(0, (search.currentMatch?.line ?? viewTop) - shift)
        let query = search.query
        search = OutputSearch()
        search.update(query: query, in: model.lines, fromLine: from)
    }
}
