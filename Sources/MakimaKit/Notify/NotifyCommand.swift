import Foundation

/// The operator's own command for each new needs-you item (`settings.notify_command` in the
/// config: `["notify-send", "--app-name=makima"]` or `["/usr/local/bin/page-me"]`): a desktop
/// notifier, a phone push, a sound. No shell: the first word is the program (absolute, or found
/// on the children's PATH), the rest its first arguments; the item follows as four arguments
/// (kind, id, text, link or "") and as one JSON object on stdin. It runs through the program's
/// one `ChildLauncher`: one child at a time, in the filtered environment (never the key),
/// killed after `timeout` seconds; past the launcher's queue, items are dropped and counted.
public struct NotifyCommand: Sendable, Equatable {
    public var words: [String]
    public static let timeout: Double = 10
    /// A config value past these is refused, not cut: it is the operator's, and a cut command
    /// would run something else than what they wrote.
    public static let mostWords = 16
    public static let longestWord = 1_024

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notAList
        case badWord(Int)
        public var description: String {
            switch self {
            case .notAList:
                "settings.notify_command must be a list of words, the program first (no shell), e.g. [\"notify-send\"]"
            case .badWord(let i):
                "settings.notify_command word \(i + 1) is not a non-empty string of at most \(NotifyCommand.longestWord) bytes without control characters"
            }
        }
    }

    /// nil when the config has none; a clear problem when it has one that is not a command.
    public static func from(_ json: JSONValue?) throws(Problem) -> NotifyCommand? {
        guard let json else { return nil }
        guard case .array(let values) = json, (1...mostWords).contains(values.count) else { throw .notAList }
        var words: [String] = []
        for (i, value) in values.enumerated() {
            guard case .string(let word) = value, !word.isEmpty, word.utf8.count <= longestWord,
                !word.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else { throw .badWord(i) }
            words.append(word)
        }
        return NotifyCommand(words: words)
    }

    /// The command for one item: nil when the program is not found.
    public func command(for item: NeedsYouItem, server: String, launcher: ChildLauncher) -> ChildLauncher.Command? {
        let program = words[0]
        guard let path = program.hasPrefix("/") ? program : launcher.executable(program) else { return nil }
        let text = DesktopMessage.safe(item.text, limit: DesktopMessage.bodyLimit)
        let link = item.link?.description ?? ""
        var object: [String: String] = ["kind": item.kind.rawValue, "id": item.id, "text": text, "server": server]
        if !link.isEmpty { object["link"] = link }
        if let since = item.since { object["since"] = RFC3339.format(since) }
        let input = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return ChildLauncher.Command(
            path, Array(words.dropFirst()) + [item.kind.rawValue, item.id, text, link], timeout: Self.timeout,
            input: Array(input) + [UInt8(ascii: "\n")])
    }
}

extension AppConfig {
    /// `settings.notify_command`; a malformed one reads as a problem the dashboard says.
    public var notifyCommand: Result<NotifyCommand?, NotifyCommand.Problem> {
        Result { () throws(NotifyCommand.Problem) in try NotifyCommand.from(settings["notify_command"]) }
    }
}
