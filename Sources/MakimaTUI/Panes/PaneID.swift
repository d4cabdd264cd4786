/// The dashboard's top-level panes, in NAV// order; number keys 1–7 jump to them.
public enum PaneID: String, CaseIterable, Sendable, Hashable {
    case home, contracts, tasks, directives, daemons, listen, settings

    /// Uppercase chrome label (NAV//, pane headers).
    public var title: String { rawValue.uppercased() }

    /// Label used when the NAV// strip is too narrow for full titles.
    public var shortTitle: String { spec.shortTitle }

    /// The number key that jumps here (1–7).
    public var number: Int { (PaneID.allCases.firstIndex(of: self) ?? 0) + 1 }

    public static func numbered(_ n: Int) -> PaneID? {
        let all = PaneID.allCases
        return (1...all.count).contains(n) ? all[n - 1] : nil
    }

    /// The Japanese term shown beside the pane's header, if it has one.
    public var term: GlossTerm? { spec.term }
}
