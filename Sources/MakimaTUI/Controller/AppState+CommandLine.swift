/// Text typed into the command line (`:`) or the pane on top's field, and what a finished
/// command line asks for.
extension AppState {
    /// The keys of typing (the command line, a filter or search, the sign-in fields), which
    /// `textEdit(for:)` turns into edits; any other printable key is typed.
    static let typingKeyBindings: [KeyBinding] = [
        KeyBinding([.enter], .submit, "run the command / apply the filter", context: .textInput, footer: "run"),
        KeyBinding([.tab], .complete, "complete a pane name", context: .commandLine, footer: "complete"),
        KeyBinding([.escape], .cancel, "cancel (a filter is cleared)", context: .textInput, footer: "cancel"),
        KeyBinding([.backspace], .deleteBackward, "delete the last character", context: .textInput),
    ]

    func textEdit(for key: Key) -> TextEdit? {
        switch keyMap.action(for: key, in: [.commandLine, .textInput]) {
        case .submit: return .submit
        case .cancel: return .cancel
        case .complete: return .complete
        case .deleteBackward: return .deleteBackward
        default:
            if case .char(let c) = key { return .insert(c) }
            return nil
        }
    }

    mutating func apply(_ edit: TextEdit) -> Bool {
        // In place: a copy taken out and stored back would copy the whole text at each key.
        guard let outcome = commandLine?.apply(edit) else { return respond(stack.withTop { $0.edit(edit) }) }
        switch outcome {
        case .editing, .unknown: break
        case .cancelled: commandLine = nil
        case .jump(let pane):
            commandLine = nil
            stack.jump(to: pane)
        case .openLink(let number):
            commandLine = nil
            _ = respond(stack.withTop { $0.handle(.openLink(number)) })
        case .openDeepLink(let link):
            commandLine = nil
            requests.append(.open(link))
        case .quit:
            commandLine = nil
            requestQuit()
        case .notifications:
            commandLine = nil
            requests.append(.showNotifications)
        case .grep(let pattern):
            commandLine = nil
            requests.append(.grep(pattern))
        case .profile(let name):
            commandLine = nil
            requests.append(.switchProfile(name))
        }
        return true
    }
}
