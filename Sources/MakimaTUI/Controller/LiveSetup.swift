import Foundation
import MakimaKit

/// What the live dashboard runs against: a server (client, key, cache key) or the reason
/// there is none, and a deep link to open after start.
public struct LiveSetup: Sendable {
    public enum Access: Sendable {
        /// `keySource` says where the key came from (shown in Settings); `cacheKey` names the
        /// profile's cache (`CacheLocation`).
        case configured(client: APIClient, key: APIKey, keySource: String, cacheKey: String)
        /// No server or no key: the dashboard opens and says how to configure one.
        case notConfigured(message: String)
    }

    public var access: Access
    public var deepLink: DeepLink?
    public var environment: [String: String]
    /// Which notifications to announce, and how (the config file's `settings.notifications`).
    public var notificationPreferences = NotificationPreferences()
    /// The operator's command for each new needs-you item (`settings.notify_command`), or why
    /// the config's value is not one (said at start; nothing runs).
    public var notifyCommand: Result<NotifyCommand?, NotifyCommand.Problem> = .success(nil)
    /// Signing in from inside the dashboard (onboarding, a re-entered key, Settings' actions);
    /// nil: the dashboard only says how to run `makima-tui login`.
    public var signIn: (any SignInService)?
    /// The theme file named in the config, offered by Settings' theme row after the built-ins.
    public var themeFile: String?
    /// Where the stored profiles are: the MESHES// card, the background reads of the meshes
    /// not on screen and Settings › PROFILES read them (nil: none of that).
    public var profiles: ConfigLocation?

    public init(
        access: Access, deepLink: DeepLink? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        self.access = access
        self.deepLink = deepLink
        self.environment = environment
    }
}
