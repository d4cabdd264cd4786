import Foundation
import MakimaKit

/// The `:` command line (k9s style): type a pane name, Tab completes it by prefix, Enter
/// jumps there. `q`/`quit` quits; `notifications` lists the recent notifications.
public struct CommandLineState: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable {
        case editing
        case cancelled
        case jump(PaneID)
        case quit
        /// `open N`: open link N of the task output.
        case openLink(Int)
        /// `open makima://KIND/ID`: open what the link names, as a notification's link opens.
        case openDeepLink(DeepLink)
        /// `:notifications`.
        case notifications
        /// `grep PATTERN`: search the cached output of every task.
        case grep(String)
        /// `profile NAME`: move the dashboard to that stored profile's mesh.
        case profile(String)
        /// Enter on something that is not a command: the line stays open with a message.
        case unknown(String)
    }

    public private(set) var text = ""
    /// Shown after the text: the candidates of an ambiguous completion, or an error.
    public private(set) var message = ""

    /// The stored profiles' names, which `profile ` completes.
    public var profileNames: [String]

    public init(text: String = "", profileNames: [String] = []) {
        self.text = text
        self.profileNames = profileNames
    }

    /// Names the command line accepts, in completion order.
    public static var commands: [String] {
        PaneID.topLevel.map(\.rawValue) + ["notifications", "grep", "profile", "quit"]
    }

    public mutating func apply(_ edit: TextEdit) -> Outcome {
        switch edit {
        case .insert(let c):
            guard TextEdit.fits(c, in: text) else { return .editing }
            text.append(c)
            message = ""
        case .deleteBackward:
            if text.isEmpty { return .cancelled }
            text.removeLast()
            message = ""
        case .cancel:
            return .cancelled
        case .complete:
            complete()
        case .submit:
            return run()
        }
        return .editing
    }

    /// Commands starting with `prefix` (case-insensitive).
    public static func candidates(for prefix: String) -> [String] {
        let p = prefix.lowercased().trimmingCharacters(in: .whitespaces)
        return commands.filter { $0.hasPrefix(p) }
    }

    /// Tab: a unique match completes fully; several extend to their common prefix and are listed.
    /// After `profile `, the stored profiles' names complete.
    mutating func complete() {
        if text.lowercased().hasPrefix(Self.profilePrefix) {
            let typed = String(text.dropFirst(Self.profilePrefix.count))
            let names = profileNames.filter { $0.hasPrefix(typed) }
            if names.isEmpty {
                message = profileNames.isEmpty ? "no profiles stored" : "no profile starts with “\(typed)”"
                return
            }
            return extend(to: names, prefix: Self.profilePrefix)
        }
        let found = Self.candidates(for: text)
        if found.isEmpty {
            message = "no pane starts with “\(text)”"
            return
        }
        extend(to: found, prefix: "")
    }

    static let profilePrefix = "profile "

    /// One candidate completes fully (a command then takes its space); several extend the line
    /// to their common prefix and are listed.
    private mutating func extend(to found: [String], prefix: String) {
        if found.count == 1 {
            text = prefix + found[0] + (prefix.isEmpty && found[0] == "profile" ? " " : "")
            message = ""
            return
        }
        text =
            prefix
            + found.dropFirst().reduce(found[0]) { common, name in
                String(zip(common, name).prefix { $0 == $1 }.map(\.0))
            }
        message = found.joined(separator: " ")
    }

    mutating func run() -> Outcome {
        let word = text.lowercased().trimmingCharacters(in: .whitespaces)
        // The pattern keeps its case and inner spaces: it is searched as typed.
        if word.hasPrefix("grep ") {
            let pattern = String(text.drop { $0 == " " }.dropFirst(5))
            if !pattern.trimmingCharacters(in: .whitespaces).isEmpty { return .grep(pattern) }
        }
        if word == "grep" {
            text = "grep "
            message = "type what to search for"
            return .editing
        }
        if word.hasPrefix(Self.profilePrefix) {
            let name = text.trimmingCharacters(in: .whitespaces).dropFirst(Self.profilePrefix.count)
                .trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { return .profile(name) }
        }
        if word == "profile" {
            text = Self.profilePrefix
            message = profileNames.isEmpty ? "no profiles stored" : "profiles: " + profileNames.joined(separator: " ")
            return .editing
        }
        if word == "q" || word == "quit" { return .quit }
        if word.hasPrefix("open "), let n = Int(word.dropFirst(5).trimmingCharacters(in: .whitespaces)) {
            return .openLink(n)
        }
        // The id keeps its case: the link is read from the text as typed.
        if word.hasPrefix("open "), let link = DeepLink(String(text.drop { $0 == " " }.dropFirst(5))) {
            return .openDeepLink(link)
        }
        if let n = Int(word), let pane = PaneID.numbered(n) { return .jump(pane) }
        let found = Self.candidates(for: word)
        if !word.isEmpty, found.count == 1, let pane = PaneID.topLevel(named: found[0]) { return .jump(pane) }
        if found.count == 1, found[0] == "quit" { return .quit }
        if !word.isEmpty, found.count == 1, found[0] == "notifications" { return .notifications }
        message =
            word.isEmpty
            ? "" : (found.count > 1 ? "ambiguous: " + found.joined(separator: " ") : "unknown pane “\(text)”")
        // The message says what was wrong; the next command starts on an empty line instead
        // of being appended to the one that failed.
        let failed = text
        text = ""
        return .unknown(failed)
    }
}
