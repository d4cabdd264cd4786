/// One editing step in a one-line text field (the command line, a list filter).
public enum TextEdit: Equatable, Sendable {
    case insert(Character)
    case deleteBackward
    case submit
    case cancel
    case complete
}
