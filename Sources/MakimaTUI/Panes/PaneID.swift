/// A pane's own identity: every pane has one, the drill-downs too (the task output view is
/// `.taskOutput`, `:grep`'s results `.grep`), so what is on top is known from its id, never
/// from its type. The top-level panes are `PaneRegistry`'s entries, in NAV// order; number
/// keys 1–9 jump to them. A drill-down names the top-level pane it belongs to
/// (`Pane.section`), which NAV// highlights.
public struct PaneID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    // The top-level panes (their order is `PaneRegistry`'s).
    public static let home = PaneID(rawValue: "home")
    public static let contracts = PaneID(rawValue: "contracts")
    public static let tasks = PaneID(rawValue: "tasks")
    public static let directives = PaneID(rawValue: "directives")
    public static let daemons = PaneID(rawValue: "daemons")
    public static let listen = PaneID(rawValue: "listen")
    public static let settings = PaneID(rawValue: "settings")

    // The drill-downs, pushed on top of a top-level pane.
    public static let taskOutput = PaneID(rawValue: "task output")
    public static let contract = PaneID(rawValue: "contract")
    public static let directive = PaneID(rawValue: "directive")
    public static let transcript = PaneID(rawValue: "transcript")
    public static let notifications = PaneID(rawValue: "notifications")
    public static let grep = PaneID(rawValue: "grep")
    public static let picker = PaneID(rawValue: "picker")
    public static let notFound = PaneID(rawValue: "not found")
    public static let onboarding = PaneID(rawValue: "onboarding")

    /// The top-level panes, in NAV// order (`PaneRegistry`'s entries).
    public static var topLevel: [PaneID] { PaneRegistry.all.map(\.id) }

    /// The top-level pane of this name (`:name`), if there is one.
    public static func topLevel(named name: String) -> PaneID? { topLevel.first { $0.rawValue == name } }

    /// Uppercase chrome label (NAV//, pane headers).
    public var title: String { rawValue.uppercased() }

    /// Label used when the NAV// strip is too narrow for full titles.
    public var shortTitle: String { spec.shortTitle }

    /// The number key that jumps here (1–9), for a top-level pane.
    public var number: Int { (PaneID.topLevel.firstIndex(of: self) ?? 0) + 1 }

    /// Panes with a number key: the first nine (digit keys 1–9); any further pane is reached
    /// by its name on the `:` command line.
    public static var numberKeys: Int { min(9, topLevel.count) }

    public static func numbered(_ n: Int) -> PaneID? {
        let panes = topLevel
        return (1...min(9, panes.count)).contains(n) ? panes[n - 1] : nil
    }

    /// The Japanese term shown beside the pane's header, if it has one.
    public var term: GlossTerm? { spec.term }
}
