import Foundation
import MakimaKit

/// The meshes not on screen: the stored profiles listed in `hub.meshes` (the MESHES// card,
/// Settings › PROFILES), each read in the background (`BackgroundMeshReader`, off the UI
/// thread), its answers counted and filed here, and what is new on one said in a toast
/// naming it (`MeshAlerts`). A switch of profile moves the newly shown mesh out of the
/// background set (its engine reads it) and the previous one into it. `LiveDashboard` holds one.
@MainActor
final class MeshesController {
    private let store: MeshesStore
    /// Where the stored profiles are (nil: no profiles, no background reads).
    private let profiles: ConfigLocation?
    /// The server on screen: its profile is not read in the background.
    private unowned let server: any ServerInUse
    /// The background reads' answers come back through it.
    private let bus: UIBus
    private let toast: (NoticeLine) -> Void
    /// Told the profiles' accents (in the card's order) whenever the profiles are read: the
    /// palette puts each on its profile's mark.
    private let marksChanged: ([String?]) -> Void
    private var reader: BackgroundMeshReader?
    private var alerts = MeshAlerts()
    /// The time the reader and the ages use (tests pass their own).
    let clock: @Sendable () -> Date

    init(
        store: MeshesStore, profiles: ConfigLocation?, server: any ServerInUse, bus: UIBus,
        toast: @escaping (NoticeLine) -> Void, marksChanged: @escaping ([String?]) -> Void = { _ in },
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.profiles = profiles
        self.server = server
        self.bus = bus
        self.toast = toast
        self.marksChanged = marksChanged
        self.clock = clock
    }

    /// Lists the profiles and starts reading the others (with two profiles or more).
    func start() {
        guard let location = profiles else { return }
        list((try? MeshProfiles.load(location)) ?? [])
        store.show(shownName)
        guard store.profiles.count >= 2 else { return }
        let bus = self.bus
        let deliver: @Sendable (BackgroundMeshReader.Report) -> Void = { report in
            bus.post { [weak self] in self?.received(report) }
        }
        let pace = MeshSchedule.pace(setting: ProcessInfo.processInfo.environment[MeshSchedule.paceVariable])
        let made = BackgroundMeshReader(
            credentials: CredentialStore(location: location), clock: clock, pace: pace, deliver: deliver)
        reader = made
        made.setTargets(backgroundProfiles)
        made.start()
    }

    func stop() { reader?.stop() }

    private func list(_ profiles: [MeshProfile]) {
        store.profiles = profiles
        marksChanged(profiles.map(\.profile.accent))
    }

    /// The profile whose mesh is on screen (nil: the server in use is no stored profile).
    private var shownName: String? {
        guard case .configured(let client, _, _, _) = server.access else { return nil }
        return store.profiles.first { $0.profile.id == client.profile.id }?.name
    }

    private var backgroundProfiles: [MeshProfile] { store.profiles.filter { $0.name != store.shown } }

    /// After a switch or a sign-out: the new mesh is read by its engine, the one before joins
    /// the background.
    func shownChanged() {
        // A profile added, edited or logged out meanwhile (sign-in, Settings' sign out,
        // `makima-tui login --name`) is seen here.
        if let location = profiles, let profiles = try? MeshProfiles.load(location) { list(profiles) }
        let name = shownName
        if let name { alerts.forget(name) }
        store.show(name)
        reader?.setTargets(backgroundProfiles)
    }

    func received(_ report: BackgroundMeshReader.Report) {
        guard report.name != store.shown else { return }
        let now = clock()
        switch report.outcome {
        case .success(let reading):
            var glance = store.readings[report.name]?.glance ?? MeshGlance()
            glance.file(reading)
            store.answered(report.name, glance, at: now)
            for line in alerts.observe(report.name, glance) {
                toast(NoticeLine(oneLine(line), level: .warn))
            }
        case .failure(let failure):
            store.failed(report.name, failure.message, at: now)
        }
    }
}
