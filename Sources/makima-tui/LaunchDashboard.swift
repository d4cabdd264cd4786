import Foundation
import MakimaKit
import MakimaTUI

/// What the dashboard is started with.
struct DashboardLaunch: Sendable {
    var global: GlobalOptions
    /// `makima://{kind}/{id}` given on the command line (`DeepLink.openedKinds`).
    var deepLink: String?
}

/// Opens the full-screen dashboard against the configured server. Without one (or without
/// a key) it still opens and says how to log in; a bad command line is an error.
@MainActor
func launchDashboard(_ launch: DashboardLaunch) -> Int32 {
    var link: DeepLink?
    if let raw = launch.deepLink {
        guard let parsed = DeepLink(raw) else {
            let kinds = DeepLink.openedKinds.map(\.rawValue).joined(separator: "|")
            return Console.fail(UsageError("not a link the dashboard can open: '\(raw)' (makima://\(kinds)/ID)"))
        }
        link = parsed
    }
    let access: LiveSetup.Access
    do {
        access = try Session.liveAccess(launch.global)
    } catch let error as ConfigError {
        access = .notConfigured(message: error.description)
    } catch {
        return Console.fail(error)
    }
    var options = DashboardOptions(
        theme: launch.global.theme,
        colorPreference: launch.global.color.flatMap(ColorPreference.init(argument:)) ?? .auto)
    let config = try? ConfigStore(location: Session.location(launch.global)).load()
    options.configTheme = config?.theme
    options.mouse = !launch.global.noMouse && config?.mouse != false
    var setup = LiveSetup(access: access, deepLink: link)
    setup.notificationPreferences = config?.notificationPreferences ?? NotificationPreferences()
    setup.notifyCommand = config?.notifyCommand ?? .success(nil)
    setup.themeFile = config?.theme
    setup.profiles = Session.location(launch.global)
    // Signing in from inside the dashboard uses the same files and checks as `login`.
    setup.signIn = AuthSignInService(
        store: AuthStore(
            location: Session.location(launch.global), serverOverride: launch.global.server,
            allowInsecureHTTP: launch.global.allowInsecureHTTP, profileName: launch.global.profile))
    return LiveDashboard.run(setup, options: options)
}
