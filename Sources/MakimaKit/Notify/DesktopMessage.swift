/// The text of one desktop notification. Made only from already-cleaned server text, and
/// cleaned again for where it goes: no C0 or C1 control, no ESC, BEL or DEL (any of them could
/// end the terminal sequence carrying it), no bidi controls, folded onto one line, length
/// bounded. `;` is a field separator in OSC 777, so the title has none.
public struct DesktopMessage: Sendable, Equatable {
    public let title: String
    public let body: String

    public static let titleLimit = 60
    public static let bodyLimit = 180

    public init(title: String, body: String) {
        self.title = Self.safe(title, limit: Self.titleLimit).replacingOccurrences(of: ";", with: ",")
        self.body = Self.safe(body, limit: Self.bodyLimit)
    }

    /// The message with every character made ASCII (`AsciiFallback`), for a terminal whose
    /// locale is not UTF-8.
    public var asciiOnly: DesktopMessage {
        DesktopMessage(title: AsciiFallback.text(title), body: AsciiFallback.text(body))
    }

    /// One line of at most `limit` characters with nothing a terminal would act on.
    public static func safe(_ text: String, limit: Int) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        var count = 0
        var cut = false
        for v in text.unicodeScalars {
            let x = v.value
            if UntrustedText.isBidiControl(x) || (0x200B...0x200D).contains(x) || x == 0x2060 { continue }
            if x < 0x20 || x == 0x7F || (0x80...0x9F).contains(x) || v.properties.isWhitespace {
                pendingSpace = count > 0
                continue
            }
            if count + (pendingSpace ? 2 : 1) > limit {
                cut = true
                break
            }
            if pendingSpace {
                out.append(" ")
                count += 1
                pendingSpace = false
            }
            out.append(v)
            count += 1
        }
        guard cut else { return String(out) }
        var s = String(out)
        while s.unicodeScalars.count >= limit { s.unicodeScalars.removeLast() }
        return s + "…"
    }
}

/// Notifications gathered while a delivery waits (several in one batch, or more arriving while
/// the previous one is shown): one notification's own text, or counts per kind
/// ("5 tasks failed, 2 tasks completed").
public struct NotificationDigest: Sendable, Equatable {
    public private(set) var failed = 0
    public private(set) var completed = 0
    public private(set) var questions = 0
    public private(set) var gates = 0
    public private(set) var offline = 0
    /// The only notification in the digest, while there is exactly one.
    public private(set) var single: MeshNotification?

    public init() {}

    public init(_ notifications: [MeshNotification]) {
        for n in notifications { add(n) }
    }

    public var total: Int { [failed, completed, questions, gates, offline].reduce(0, Self.sum) }
    public var isEmpty: Bool { total == 0 }

    public mutating func add(_ n: MeshNotification) {
        single = isEmpty ? n : nil
        switch n.kind {
        case .taskFailed: failed = Self.sum(failed, 1)
        case .taskCompleted: completed = Self.sum(completed, 1)
        case .supervisorQuestion: questions = Self.sum(questions, 1)
        case .gateReady: gates = Self.sum(gates, 1)
        case .daemonOffline: offline = Self.sum(offline, 1)
        }
    }

    public mutating func merge(_ other: NotificationDigest) {
        if other.isEmpty { return }
        if isEmpty {
            self = other
            return
        }
        failed = Self.sum(failed, other.failed)
        completed = Self.sum(completed, other.completed)
        questions = Self.sum(questions, other.questions)
        gates = Self.sum(gates, other.gates)
        offline = Self.sum(offline, other.offline)
        single = nil
    }

    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (s, o) = a.addingReportingOverflow(b)
        return o ? Int.max : s
    }

    /// What the desktop shows: the notification itself, or a summary of counts.
    public var message: DesktopMessage {
        if let single { return DesktopMessage(title: single.title, body: single.body) }
        var parts: [String] = []
        if failed > 0 { parts.append(Self.count(failed, "task failed", "tasks failed")) }
        if questions > 0 { parts.append(Self.count(questions, "supervisor question", "supervisor questions")) }
        if offline > 0 { parts.append(Self.count(offline, "daemon offline", "daemons offline")) }
        if gates > 0 { parts.append(Self.count(gates, "gate ready", "gates ready")) }
        if completed > 0 { parts.append(Self.count(completed, "task completed", "tasks completed")) }
        return DesktopMessage(title: parts.first ?? "Makima", body: parts.joined(separator: ", "))
    }

    private static func count(_ n: Int, _ one: String, _ many: String) -> String {
        n == 1 ? "1 \(one)" : "\(n) \(many)"
    }
}
