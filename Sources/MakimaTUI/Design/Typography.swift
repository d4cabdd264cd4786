/// A text style: the role text is drawn in, the attributes that stand in for weight and
/// slant, and whether it is uppercased (chrome and labels are; docs/design.md).
public struct TextStyle: Sendable, Hashable {
    public var role: ColorRole
    public var attributes: TextAttributes
    public var uppercased: Bool

    public init(role: ColorRole, attributes: TextAttributes = [], uppercased: Bool = false) {
        self.role = role
        self.attributes = attributes
        self.uppercased = uppercased
    }

    /// The cell style for this text, over `background` (nil: whatever is behind it).
    public func cellStyle(background: ColorRole? = nil) -> CellStyle {
        CellStyle(fg: role, bg: background, attributes: attributes)
    }

    /// `text` as it is shown: uppercased when the style says so (CJK is unaffected).
    public func apply(to text: String) -> String {
        uppercased ? text.uppercased() : text
    }

    /// The same style in another role, e.g. a status pill in ok or danger.
    public func with(role: ColorRole) -> TextStyle {
        TextStyle(role: role, attributes: attributes, uppercased: uppercased)
    }

    public func adding(_ extra: TextAttributes) -> TextStyle {
        TextStyle(role: role, attributes: attributes.union(extra), uppercased: uppercased)
    }
}

/// The text styles of docs/design.md, "Typography": the makima.jp styles in terminal form.
/// Font weights become bold; opacity (e.g. the unrevealed gloss at 40 %) becomes dim.
public enum Typography {
    /// `NAV//`, `SYSTEM//`, section labels: mono, uppercase, tracked, in accent.
    public static let navLabel = TextStyle(role: .accent, uppercased: true)
    /// Section titles ("Mesh Orchestration Platform"); medium weight → bold.
    public static let titleChrome = TextStyle(role: .foreground, attributes: .bold)
    /// `MAKIMA` in the masthead: semibold, tracked, uppercase.
    public static let brand = TextStyle(role: .foreground, attributes: .bold, uppercased: true)
    /// Body text.
    public static let body = TextStyle(role: .body)
    /// Values, IDs, hostnames.
    public static let mono = TextStyle(role: .foregroundMuted)
    /// Japanese terms (命令, 契約, …).
    public static let japanese = TextStyle(role: .foreground)
    /// The English gloss once revealed.
    public static let glossRevealed = TextStyle(role: .accent, uppercased: true)
    /// The English gloss while hidden (the web's muted at 40 % opacity).
    public static let glossHidden = TextStyle(role: .foregroundMuted, attributes: .dim, uppercased: true)
    /// Badge main text (`支配する`), on `.panel`, border in `.border`.
    public static let badge = TextStyle(role: .accent)
    /// Badge subtitle (`CONTROL SYSTEM`).
    public static let badgeSubtitle = TextStyle(role: .foregroundMuted, uppercased: true)
    /// Status pill (`WS//ONLINE`): give it the status role with `with(role:)`.
    public static let pill = TextStyle(role: .foregroundMuted, attributes: .bold, uppercased: true)
    /// The `·` separators of the masthead.
    public static let separator = TextStyle(role: .borderMuted)
    /// Card borders (dashed, `┄ ┆`).
    public static let cardBorder = TextStyle(role: .borderMuted)
}
