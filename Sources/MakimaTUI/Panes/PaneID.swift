/// The dashboard's top-level panes, in NAV// order; number keys 1–7 jump to them.
public enum PaneID: String, CaseIterable, Sendable, Hashable {
    case home, contracts, tasks, directives, daemons, listen, settings

    /// Uppercase chrome label (NAV//, pane headers).
    public var title: String { rawValue.uppercased() }

    /// Label used when the NAV// strip is too narrow for full titles.
    public var shortTitle: String { spec.shortTitle }

    /// The number key that jumps here (1–7).
    public var number: Int { (PaneID.allCases.firstIndex(of: self) ?? 0) + 1 }

    /// Panes with a number key: the first nine (digit keys 1–9); any further pane is reached
    /// by its name on the `:` command line.
    public static let numberKeys = min(9, allCases.count)

    public static func numbered(_ n: Int) -> PaneID? {
        (1...numberKeys).contains(n) ? allCases[n - 1] : nil
    }

    /// The Japanese term shown beside the pane's header, if it has one.
    public var term: GlossTerm? { spec.term }
}
