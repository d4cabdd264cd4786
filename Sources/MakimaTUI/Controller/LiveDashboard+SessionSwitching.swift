import Foundation
import MakimaKit

/// The swap of the server the dashboard runs against, for sign-in (`SessionSwitching`): the
/// engine and cache, the stores' and titles' part of the server, the access, and what the
/// masthead and the banner say of it.
extension LiveDashboard: SessionSwitching {
    var access: LiveSetup.Access { setup.access }

    func detach(keepingServer: Bool) -> (engine: (any DashboardEngine)?, cache: CacheStore?) {
        let old = (engine: engine, cache: keepingServer ? nil : cache)
        engine = nil
        if !keepingServer {
            cache = nil
            hub.forgetServer()
            notificationController.taskTitles = TaskTitleBook()
        }
        return old
    }

    func use(_ signedIn: SignedIn) {
        setup.access = .configured(
            client: signedIn.client, key: signedIn.key, keySource: signedIn.keySource, cacheKey: signedIn.cacheKey)
        // Every pane built without a key read the connection's access: this rebuilds them.
        hub.connection.access = .signedIn
        hub.connection.link = ConnectionStatus(phase: .connecting)
        lostConnection = false
        session.setBanner(nil)
        session.setServerLabel(signedIn.client.profile.mastheadLabel)
        showProfileAccent()
        session.setConnectionPill(.connecting)
        session.chrome.set(\.homeNotice, nil)
        meshes.shownChanged()
        connectEngine()
    }

    /// The shown profile's accent over the theme; one that names no theme is said, and the
    /// theme's own accent stays.
    func showProfileAccent() {
        guard case .configured(let client, _, _, _) = setup.access else { return }
        let accent = client.profile.accent
        if case .failure(let problem) = session.applyAccent(accent) {
            _ = session.applyAccent(nil)
            notificationController.toast(NoticeLine("accent of \(client.profile.label): \(problem)", level: .warn))
        }
    }

    func useNone(saying message: String) {
        setup.access = .notConfigured(message: message)
        _ = session.applyAccent(nil)
        hub.connection.access = .signedOut
        session.setBanner(nil)
        session.setConnectionPill(.idle)
        // Settings' sign out removed the profile: MESHES// and its marks lose it.
        meshes.shownChanged()
    }
}
