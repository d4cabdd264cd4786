import MakimaKit

/// What Enter does on a Settings row. The row's id names its action, so the rows, the
/// registry's `rowAction` and the controller (`SettingsController`) agree by construction.
public enum SettingsAction: Equatable, Sendable {
    /// Open the server step (edit, revalidate, or switch to another server with its own cache).
    case editServer
    /// Ask the server whether it takes the key in use.
    case revalidate
    /// `POST /api/v1/auth/api-keys/refresh`: the new key is stored once the server confirmed it.
    case rotateKey
    /// Remove the stored key (after a second Enter) and go back to onboarding.
    case signOut
    /// The next built-in theme (a theme file when one is configured), applied live and saved.
    case nextTheme
    /// Mouse reporting on or off, applied live and saved (off: the terminal's own selection).
    case toggleMouse
    /// Turn one notification setting on or off (`NotificationPreferences.fields` key).
    case toggleNotification(String)
    /// Settings › PROFILES: show that stored profile's mesh (as `:profile NAME` does).
    case switchProfile(String)

    public var rowID: String {
        switch self {
        case .editServer: return "action.server"
        case .revalidate: return "action.revalidate"
        case .rotateKey: return "action.rotate"
        case .signOut: return "action.signout"
        case .nextTheme: return "action.theme"
        case .toggleMouse: return "action.mouse"
        case .toggleNotification(let key): return "notify." + key
        case .switchProfile(let name): return Self.profilePrefix + name
        }
    }

    public init?(rowID: String) {
        let fixed: [SettingsAction] = [
            .editServer, .revalidate, .rotateKey, .signOut, .nextTheme, .toggleMouse,
        ]
        if let a = fixed.first(where: { $0.rowID == rowID }) {
            self = a
        } else if rowID.hasPrefix("notify."),
            NotificationPreferences.fields.contains(where: { "notify." + $0.key == rowID })
        {
            self = .toggleNotification(String(rowID.dropFirst("notify.".count)))
        } else if rowID.hasPrefix(Self.profilePrefix), rowID.count > Self.profilePrefix.count {
            self = .switchProfile(String(rowID.dropFirst(Self.profilePrefix.count)))
        } else {
            return nil
        }
    }

    static let profilePrefix = "profile."
}
