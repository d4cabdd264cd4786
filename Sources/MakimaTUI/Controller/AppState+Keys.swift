/// The app's own keys and what the app does with each action (`handle(_ key:)` looks a key
/// up, `perform` acts): help, the command line, the number keys, the glosses, back, quit and
/// redraw are answered here; a controller's key (declared by it with its request,
/// `.request`) goes to `LiveDashboard.handle`, which gives it to the controller; any other action is the pane
/// on top's (`respond` carries out what it answers).
extension AppState {
    static let keyBindings: [KeyBinding] = [
        KeyBinding([.char("?")], .help, "help: every key for this pane", context: .global, footer: "help"),
        KeyBinding(
            [.char(":")], .commandLine, "command line: jump to a pane by name (Tab completes)", context: .global,
            footer: "command", label: ":"),
        KeyBinding(
            // Every digit key a pane may have: one past the panes there are does nothing.
            (1...9).map { .char(Character(String($0))) }, .jumpByNumber,
            "jump to the pane with that number in NAV//", context: .global, footer: "panes",
            label: "1–\(PaneID.numberKeys)"),
        KeyBinding(
            [.char("g")], .gloss, "glosses: hold to show the English of Japanese terms, tap to toggle",
            context: .global, footer: "gloss"),
        KeyBinding(
            [.char("q")], .back, "back one level; on the first pane asks “Quit? y/n”",
            context: .global, footer: "back"),
        KeyBinding(
            [.escape], .dismiss, "close help, prompt, search or filter; else back", context: .global),
        KeyBinding([.char("Q"), .ctrl("c")], .quit, "quit at once (so does :q)", context: .global, footer: "quit"),
        KeyBinding([.ctrl("l")], .redraw, "redraw the screen", context: .global),
    ]

    mutating func perform(_ action: KeyAction, key: Key, now: Double) -> Bool {
        switch action {
        case .quit:
            requestQuit()
        case .back:
            if !stack.pop() { quitPromptOpen = true }
        case .dismiss:
            if case .ignored = stack.withTop({ $0.handle(.dismiss) }) { stack.pop() }
        case .help:
            helpOpen = true
            helpScroll = 0
        case .commandLine:
            commandLine = CommandLineState(profileNames: profileNames)
        case .grepPrompt:
            commandLine = CommandLineState(text: "grep ")
        case .jumpByNumber:
            guard case .char(let c) = key, let n = c.wholeNumberValue, let pane = PaneID.numbered(n) else {
                return false
            }
            stack.jump(to: pane)
        case .gloss:
            let before = gloss.revealed
            gloss.press(at: now)
            return gloss.revealed != before
        case .redraw:
            fullRedrawRequested = true
        case .request(let request):
            // A controller's key: its request goes to it as declared.
            requests.append(request)
            return false
        case .acknowledge:
            // The pane first (Home's selected NEEDS YOU// line), else the item opened last.
            let response = stack.withTop { $0.handle(.acknowledge) }
            if case .ignored = response {
                requests.append(.needsYou(.acknowledge(nil)))
                return false
            }
            return respond(response)
        default:
            return respond(stack.withTop { $0.handle(action) })
        }
        return true
    }

    /// `y` quits; Ctrl-C and Q too; anything else keeps the dashboard open.
    mutating func answerQuitPrompt(_ key: Key) -> Bool {
        quitPromptOpen = false
        switch key {
        case .char("y"), .char("Y"):
            // A pasted `y` does not quit: the prompt is closed, the dashboard stays.
            if keyIsDeliberate { quitRequested = true }
        default: if keyMap.action(for: key, in: [.global]) == .quit { requestQuit() }
        }
        return true
    }

    /// Quitting is final: a key that came with a paste or in a burst does not quit
    /// (`keyIsDeliberate`); the operator is told how to.
    mutating func requestQuit() {
        guard keyIsDeliberate else {
            return refuse("quit", confirm: "Q", except: "pasted input does not")
        }
        quitRequested = true
    }

    mutating func handleInHelp(_ key: Key) -> Bool {
        switch keyMap.action(for: key, in: [.list, .global]) {
        case .help, .dismiss, .back: helpOpen = false
        case .quit: requestQuit()
        case .moveDown: helpScroll += 1
        case .moveUp: helpScroll = max(0, helpScroll - 1)
        case .pageDown: helpScroll += 10
        case .pageUp: helpScroll = max(0, helpScroll - 10)
        default: return false
        }
        return true
    }
}
