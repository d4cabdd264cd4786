import Foundation
import MakimaKit
import MakimaTUI

/// Exit codes scripts can rely on (docs/api.md); `--help` and the man page list them from here.
enum ExitCode: Int32, CaseIterable {
    case ok = 0
    /// `grep` found nothing (as grep(1) says it).
    case noMatch = 1
    case usage = 2
    case notConfigured = 3
    case unauthorized = 4
    case unreachable = 5
    case serverError = 6
    /// The server has no such object (`logs` of an unknown task).
    case notFound = 7
    /// The dashboard cannot be drawn: the terminal has no cursor addressing (TERM=dumb;
    /// `TerminalError.exitStatus`).
    case terminalUnusable = 8
    /// `wait --timeout` passed before the condition held.
    case timedOut = 9
    /// `wait --task`: the task ended with another final status than the one waited for.
    case endedOtherwise = 10

    /// What the code means, as `--help` and the man page say it.
    var meaning: String {
        switch self {
        case .ok: "ok"
        case .noMatch: "grep found nothing"
        case .usage: "usage (an unknown command, option or value)"
        case .notConfigured: "not configured (no server or no key)"
        case .unauthorized: "unauthorized (the server refused the key)"
        case .unreachable: "unreachable (network, TLS)"
        case .serverError: "server error (or a damaged answer)"
        case .notFound: "not found (no such task)"
        case .terminalUnusable: "the dashboard cannot be drawn (a terminal without cursor addressing, TERM=dumb)"
        case .timedOut: "wait: the timeout passed before the condition held"
        case .endedOtherwise: "wait: the task ended with another status than the one waited for"
        }
    }

    /// The exit code an error stands for.
    static func of(_ error: Error) -> ExitCode {
        switch error {
        case let e as APIError:
            switch e {
            case .unauthorized: return .unauthorized
            case .transport: return .unreachable
            case .notFound: return .notFound
            case .http, .throttled, .decoding, .responseTooLarge: return .serverError
            case .insecureHTTPRefused, .invalidRequest: return .usage
            }
        case let e as ConfigError:
            switch e {
            case .invalidEnvironmentKey, .invalidProfileName, .profileAndServer: return .usage
            default: return .notConfigured
            }
        case let p as SignInProblem:
            switch p {
            case .unreachable, .certificateInvalid: return .unreachable
            case .notMakimaServer, .server: return .serverError
            case .wrongKey, .keyRevoked: return .unauthorized
            case .invalidAddress, .insecureHTTPNeedsConfirmation, .plainHTTPOnly, .invalidKey, .keyFromEnvironment:
                return .usage
            case .local: return .notConfigured
            }
        case is ServerURLError, is UsageError:
            return .usage
        case is StatusAll.MeshTooSlow:
            return .unreachable
        default:
            return .serverError
        }
    }
}

/// A mistake in how the command was called.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

enum Console {
    /// One line on stderr, prefixed with the program name; control characters cannot get through.
    static func error(_ message: String) {
        let line = UntrustedText.clean(message).split(whereSeparator: \.isNewline).joined(separator: " ")
        FileHandle.standardError.write(Data(TerminalLocale.printable("makima-tui: \(line)\n").utf8))
    }

    /// Text on stdout, ASCII only when the locale is not UTF-8 (`TerminalLocale.printable`).
    static func out(_ text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n")
    }

    /// One JSON document on stdout: under a locale that is not UTF-8, non-ASCII characters are
    /// written as `\u` escapes (still the same JSON) rather than replaced.
    static func json(_ text: String) {
        FileHandle.standardOutput.write(Data((TerminalLocale.printableJSON(text) + "\n").utf8))
    }

    /// As `out`, without adding a line break.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(TerminalLocale.printable(text).utf8))
    }

    /// Reports `error` on stderr and returns its exit code.
    static func fail(_ error: Error) -> Int32 {
        self.error(String(describing: error))
        return ExitCode.of(error).rawValue
    }
}
