/// Mouse reports and pastes, turned into what the keys already do. Every target was recorded
/// by what drew it in the last frame (`CellBuffer.mark`), so a click means what the operator
/// saw; every action here has its key (`KeyMap.standard`'s MOUSE section says which).
public struct PointerState: Sendable {
    /// The frame last drawn: its regions and link cells are what a click can hit.
    var frame: CellBuffer?
    /// The last left click, for double clicks.
    var lastClick: (target: HitTarget, at: Double)?
    /// Two clicks on the same target this close (seconds) are a double click.
    static let doubleClick = 0.4
    /// Lines the wheel scrolls a text view per notch (a list moves its selection by one row).
    static let wheelLines = 3
}

extension AppState {
    /// The MOUSE section of the help: each gesture answered here, with the key it stands for.
    /// No key triggers these; the action is the key's (a wheel notch is a j or k).
    static let mouseBindings: [KeyBinding] = [
        KeyBinding([], .jumpByNumber, "open that pane (as its number key)", context: .mouse, label: "click NAV//"),
        KeyBinding([], .back, "back to that pane (as q, a step at a time)", context: .mouse, label: "click crumb"),
        KeyBinding(
            [], .moveDown, "select it (j/k); the selected row or a double click: Enter", context: .mouse,
            label: "click row"),
        KeyBinding(
            [], .focusNext, "Home: focus it (Tab) or select its row; again: Enter", context: .mouse,
            label: "click card"),
        KeyBinding(
            [], .moveDown, "lists: a row (j/k); text views: 3 lines (k stops following)", context: .mouse,
            label: "wheel"),
        KeyBinding(
            [], .request(.openLatestNotification), "open what it names (as o)", context: .mouse, label: "click toast"),
        KeyBinding([], .openLink(0), "open that output link (as :open N)", context: .mouse, label: "click link"),
        KeyBinding([], .help, "close help (Esc); the wheel scrolls it", context: .mouse, label: "click in help"),
    ]

    /// One mouse report. Returns true when the screen changed.
    @discardableResult
    public mutating func handle(_ event: MouseEvent, now: Double) -> Bool {
        guard let frame = pointer.frame, event.x >= 0, event.y >= 0, event.x < frame.width, event.y < frame.height
        else { return false }  // outside the screen the operator saw: ignored
        let before = stack.ids
        defer { if stack.ids != before { requests.append(.paneShown(stack.top.section)) } }
        // A click is never a deliberate key: it cannot confirm what a paste must not.
        let deliberate = keyIsDeliberate
        keyIsDeliberate = false
        defer { keyIsDeliberate = deliberate }
        if event.isWheel { return wheel(up: event.button == .wheelUp) }
        guard event.button == .left, event.pressed, !event.motion else { return false }
        if helpOpen {
            helpOpen = false  // a click closes help, as Esc does
            return true
        }
        if quitPromptOpen || commandLine != nil { return false }
        guard let region = frame.hit(x: event.x, y: event.y) else {
            guard let link = frame.link(x: event.x, y: event.y) else { return false }
            return respond(stack.withTop { $0.handle(.openLink(link)) })
        }
        let double = pointer.lastClick.map { $0.target == region.target && now - $0.at <= PointerState.doubleClick }
        pointer.lastClick = (region.target, now)
        switch region.target {
        case .pane where isTyping, .crumb where isTyping:
            // As the number keys and q are text while a field is edited: leaving a field (the
            // sign-in steps) goes through its own Esc.
            return false
        case .pane(let id):
            stack.jump(to: id)
            return true
        case .crumb(let depth):
            while stack.panes.count > depth + 1 { stack.pop() }
            return true
        case .toast:
            requests.append(.openLatestNotification)
            return false
        case .row, .card, .cardRow:
            let selected = respond(stack.withTop { $0.handle(.select(region.target)) })
            guard region.selected || double == true else { return selected }
            pointer.lastClick = nil
            return respond(stack.withTop { $0.handle(.open) }) || selected
        }
    }

    /// The wheel: a list moves its selection a row a notch (as htop and k9s do), a text view
    /// scrolls three lines (up stops following, as `k` does), help scrolls.
    private mutating func wheel(up: Bool) -> Bool {
        if helpOpen {
            helpScroll = max(0, helpScroll + (up ? -PointerState.wheelLines : PointerState.wheelLines))
            return true
        }
        if quitPromptOpen { return false }
        let contexts = stack.top.keyContexts
        let steps = contexts.contains(.list) || contexts.contains(.home) ? 1 : PointerState.wheelLines
        var changed = false
        for _ in 0..<steps { changed = respond(stack.withTop { $0.handle(up ? .moveUp : .moveDown) }) || changed }
        return changed
    }

    /// A bracketed paste: text for the field being typed in (the command line, a filter, a
    /// search, the sign-in fields), never keys. Outside a field it is ignored, with a word.
    @discardableResult
    public mutating func paste(_ text: String) -> Bool {
        guard isTyping, !helpOpen, !quitPromptOpen else {
            if !text.isEmpty { requests.append(.toast("paste ignored: no text field here (/ or : opens one)")) }
            return false
        }
        var changed = false
        // A field holds at most `TextEdit.fieldLimit` bytes: the rest of a paste is dropped.
        for c in text.prefix(TextEdit.fieldLimit) where !c.isNewline {
            guard isTyping else { break }
            changed = apply(.insert(c)) || changed
        }
        return changed
    }

    /// Whether a request may run for the input that asked for it: sign-out and key rotation
    /// need a key typed on its own (`keyIsDeliberate`), which neither a paste, a burst of keys
    /// nor a click is. Refused, the operator is told how to confirm.
    mutating func allows(_ request: DashboardRequest) -> Bool {
        guard !keyIsDeliberate, let action = request.destructiveAction else { return true }
        refuse(action, confirm: "Enter", except: "pasted or clicked input does not")
        return false
    }

    /// Tells the operator an action was not done for input that was not typed alone.
    mutating func refuse(_ action: String, confirm key: String, except: String) {
        requests.append(.toast("\(action) not done: press \(key) on its own to confirm (\(except))"))
    }
}

extension DashboardRequest {
    /// What the request would destroy, in words, when it is a destructive one.
    var destructiveAction: String? {
        guard case .openRow(let pane, let rowID) = self, let action = pane.spec.rowAction(rowID) else { return nil }
        switch action {
        case .signOut: return "sign out"
        case .rotateKey: return "key rotation"
        default: return nil
        }
    }
}
