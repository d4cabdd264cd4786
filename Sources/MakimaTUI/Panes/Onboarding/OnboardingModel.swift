import MakimaKit

/// What the sign-in pane holds: the two steps (`01 SERVER → 02 KEY`), the typed text, and
/// what the last check said. The key is kept only here and in the request that checks it;
/// it is shown masked (`APIKey.displayMask`).
public struct OnboardingModel: Equatable, Sendable {
    public enum Step: Equatable, Sendable { case server, key }

    public var step: Step
    /// The server as typed; while `serverPrefilled`, the first typed character replaces it.
    public var server: String
    public var serverPrefilled: Bool
    /// The canonical server URL once step 1 passed (or the signed-in server when re-entering a key).
    public var checkedServer: String?
    /// Plain http:// to a non-loopback host was confirmed for this server.
    public var insecureAllowed = false
    /// The host whose plain http:// waits for the user's confirmation.
    public var confirmInsecureFor: String?
    public var key = ""
    /// A check is running (its words, e.g. "checking https://makima.jp …").
    public var busy: String?
    /// What went wrong, in words; the user stays on the step to fix it.
    public var problem: String?
    /// The answer to "where do I get a key?" (`<server>/settings`, copied).
    public var info: String?
    /// Opened over a running dashboard (a re-entered key, Settings' server) rather than at an
    /// unconfigured start: a server with a stored key is switched to at once.
    public var reentry: Bool
    /// Only the key is asked for (the signed-in server).
    public var serverFixed: Bool

    /// Keys longer than this are not a Makima key; the field stops growing.
    static let maxKeyLength = 512
    static let maxServerLength = 2048

    public init(server: String, reentry: Bool = false, checkedServer: String? = nil) {
        self.server = server
        serverPrefilled = true
        self.reentry = reentry
        self.checkedServer = checkedServer
        serverFixed = checkedServer != nil
        step = checkedServer == nil ? .server : .key
    }

    /// The key field as shown: `mk_••••••••1234`.
    public var maskedKey: String { APIKey.displayMask(key) }

    /// The server the key step talks to.
    public var serverForKey: String { checkedServer ?? server }

    /// Where a person makes a key: the web app's settings page of the server.
    public var keySettingsURL: String {
        var base = serverForKey
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/settings"
    }

    mutating func insert(_ c: Character) {
        guard busy == nil, !c.isNewline, c.asciiValue.map({ $0 >= 0x20 && $0 != 0x7F }) ?? true else { return }
        switch step {
        case .server:
            if serverPrefilled {
                server = ""
                serverPrefilled = false
            }
            if TextEdit.fits(c, in: server, limit: Self.maxServerLength) { server.append(c) }
            confirmInsecureFor = nil
            insecureAllowed = false
            problem = nil
        case .key:
            guard !c.isWhitespace, TextEdit.fits(c, in: key, limit: Self.maxKeyLength) else { return }
            key.append(c)
            problem = APIKey.typingProblem(key)
        }
    }

    mutating func deleteBackward() {
        guard busy == nil else { return }
        switch step {
        case .server:
            if serverPrefilled {
                server = ""
                serverPrefilled = false
            } else if !server.isEmpty {
                server.removeLast()
            }
            confirmInsecureFor = nil
            problem = nil
        case .key:
            if !key.isEmpty { key.removeLast() }
            problem = APIKey.typingProblem(key)
        }
    }

    mutating func clearField() {
        guard busy == nil else { return }
        switch step {
        case .server:
            server = ""
            serverPrefilled = false
            confirmInsecureFor = nil
        case .key: key = ""
        }
        problem = nil
    }

    /// Esc on step 2 goes back to step 1 (not when the server is fixed).
    mutating func stepBack() -> Bool {
        guard step == .key, !serverFixed, busy == nil else { return false }
        step = .server
        key = ""
        problem = nil
        info = nil
        return true
    }
}
