import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// Settings' rows on a memory terminal: Enter does what each row says, through the sign-in
/// service (scripted here), and the outcome is shown on the row.
@MainActor @Suite("Settings actions: rotate key, sign out, server, notifications, theme")
struct SettingsActionTests {
    /// Settings on screen, the selection on the row of `action`.
    func select(_ action: SettingsAction, in h: ControllerHarness) throws {
        h.type(.char("7"))
        let model = try #require((h.session.topPane as? ListPane)?.model)
        let index = try #require(model.rows.firstIndex { $0.id == action.rowID })
        h.type(.char("g"))
        for _ in 0..<index { h.type(.char("j")) }
    }

    @Test("rotate key: refused → the old key is kept and said so; confirmed → the engine restarts with the new key")
    func rotate() throws {
        let service = ScriptedSignIn()
        let rotated = try signedIn("http://127.0.0.1:1", "mk_rotated_key_value_5678")
        service.script.withLock {
            $0.rotations = [.failure(.server("HTTP 500: injected failure")), .success(rotated)]
        }
        let h = try ControllerHarness(signIn: service)
        defer { h.cleanUp() }
        try select(.rotateKey, in: h)
        h.type(.enter)
        #expect(h.shows("not rotated: HTTP 500: injected failure — the old key is kept"), "\(h.screen)")
        #expect(h.engines.all.count == 1)
        guard case .configured(_, let before, _, _) = h.live.setup.access else {
            Issue.record("not configured")
            return
        }
        #expect(before.secret == "mk_controller_test_0001")
        h.type(.enter)
        #expect(h.shows("rotated: new key mk_…5678 stored"), "\(h.screen)")
        #expect(h.engines.all.count == 2)
        #expect(h.engines.all[0].halted == 1)
        guard case .configured(_, let after, _, _) = h.live.setup.access else {
            Issue.record("not configured")
            return
        }
        #expect(after == rotated.key)
        #expect(!h.shows("mk_rotated_key_value"), "\(h.screen)")
        // Any number of rotations leaves no replaced engine behind once it has stopped; one
        // still stopping is kept, and let go a second after it has stopped.
        service.script.withLock { $0.rotations = Array(repeating: .success(rotated), count: 5) }
        for _ in 0..<4 { h.type(.enter) }
        #expect(h.live.signIn.retired.isEmpty)
        h.engine.stillStopping = true
        h.type(.enter)
        #expect(h.engines.all.count == 7)
        #expect(h.live.signIn.retired.count == 1)
        h.engines.all[5].stillStopping = false
        h.advance(1.5)
        #expect(h.live.signIn.retired.isEmpty)
    }

    @Test("sign out: the first Enter asks, the second removes the key and opens onboarding; unarmed after 5 s")
    func signOut() throws {
        let service = ScriptedSignIn()
        let h = try ControllerHarness(signIn: service)
        defer { h.cleanUp() }
        try select(.signOut, in: h)
        h.type(.enter)
        #expect(h.shows("press Enter again to sign out"), "\(h.screen)")
        h.advance(6)
        #expect(!h.shows("press Enter again to sign out"), "\(h.screen)")
        h.type(.enter)
        #expect(service.script.withLock { $0.signedOut } == 0)
        h.type(.enter)
        #expect(service.script.withLock { $0.signedOut } == 1)
        #expect(h.shows("01 SERVER → 02 KEY"), "\(h.screen)")
        // The server field keeps the server just used, not the service's default.
        let pane = try #require(h.session.topPane as? OnboardingPane)
        #expect(pane.model.server.hasPrefix("http://127.0.0.1:1"), "\(pane.model.server)")
        #expect(ScriptedSignIn().suggestedServer != pane.model.server)
        #expect(h.engines.all[0].halted == 1)
        guard case .notConfigured = h.live.setup.access else {
            Issue.record("still configured")
            return
        }
    }

    @Test("notification toggles flip one setting, save it and apply it to the notifier")
    func toggles() throws {
        let service = ScriptedSignIn()
        let h = try ControllerHarness(signIn: service)
        defer { h.cleanUp() }
        #expect(h.live.notificationController.notifier.preferences.bell)
        try select(.toggleNotification("bell"), in: h)
        #expect(h.shows("› NOTIFY: BELL"), "\(h.screen)")
        h.type(.enter)
        #expect(!h.live.notificationController.notifier.preferences.bell)
        #expect(h.live.notificationController.notifier.preferences.taskFailed)
        #expect(service.asked.last == "notifications bell=false failed=true")
        let row = try #require(h.terminal.backend.lines.first { $0.contains("› NOTIFY: BELL") })
        #expect(row.hasSuffix("off") || row.trimmingCharacters(in: .whitespaces).hasSuffix("off"), "\(row)")
    }

    @Test("server row opens the server step over Settings; Esc closes it with nothing changed")
    func editServer() throws {
        let h = try ControllerHarness(signIn: ScriptedSignIn())
        defer { h.cleanUp() }
        try select(.editServer, in: h)
        h.type(.enter)
        #expect(h.shows("01 SERVER → 02 KEY"), "\(h.screen)")
        #expect(h.shows("SERVER   http://127.0.0.1:1"), "\(h.screen)")
        h.type(.escape)
        #expect(!h.shows("01 SERVER"), "\(h.screen)")
        #expect(h.engines.all.count == 1)
    }

    @Test("server row, another server with a stored key: switched at once, its own cache, the old data gone")
    func switchServer() throws {
        let service = ScriptedSignIn()
        let other = try signedIn("http://127.0.0.1:2", "mk_other_server_key_2222")
        service.script.withLock {
            $0.servers = [.success("http://127.0.0.1:2")]
            $0.stored = [.success(other)]
        }
        let h = try ControllerHarness(signIn: service)
        defer { h.cleanUp() }
        h.post(
            .list(
                .daemons, .daemons([Daemon(id: "d1", hostname: "host-one", status: .online)]), fetchedAt: Date(),
                fromCache: false))
        try select(.editServer, in: h)
        h.type(.enter)
        h.type(.ctrl("u"))
        for c in "http://127.0.0.1:2" { h.type(.char(c)) }
        h.type(.enter)
        #expect(!h.shows("01 SERVER"), "\(h.screen)")
        #expect(h.engines.all.count == 2)
        #expect(h.live.hub.daemons.list.items.isEmpty)
        guard case .configured(let client, _, _, let cacheKey) = h.live.setup.access else {
            Issue.record("not configured")
            return
        }
        #expect(client.profile.baseURL.absoluteString == "http://127.0.0.1:2")
        #expect(cacheKey == CacheLocation.profileKey(serverURL: "http://127.0.0.1:2"))
        // The old server's cache is closed once its engine has stopped, not deleted.
        #expect(h.live.signIn.retired.isEmpty)
        let oldFile = CacheLocation.databaseFile(
            profileKey: "controller", environment: ["MAKIMA_CACHE_DIR": h.cacheDir.path])
        #expect(FileManager.default.fileExists(atPath: oldFile.path))
        #expect(service.asked == ["server http://127.0.0.1:2", "stored http://127.0.0.1:2"])
    }

    @Test("theme row saves the next theme (makima → high-contrast)")
    func theme() throws {
        let service = ScriptedSignIn()
        let h = try ControllerHarness(signIn: service)
        defer { h.cleanUp() }
        try select(.nextTheme, in: h)
        h.type(.enter)
        #expect(service.asked.last == "theme high-contrast")
        #expect(h.session.themeName == "high-contrast")
        // Home's SYSTEM// card names the new theme.
        h.type(.char("1"))
        #expect(h.terminal.backend.lines.contains { $0.contains("Theme") && $0.contains("HIGH-CONTRAST") })
    }

    @Test("every Settings action row maps back to its action")
    func rowIDs() {
        let all: [SettingsAction] =
            [.editServer, .revalidate, .rotateKey, .signOut, .nextTheme]
            + NotificationPreferences.fields.map { .toggleNotification($0.key) }
        for a in all { #expect(SettingsAction(rowID: a.rowID) == a) }
        #expect(SettingsAction(rowID: "notify.nothing") == nil)
        #expect(SettingsAction(rowID: "server") == nil)
    }
}
