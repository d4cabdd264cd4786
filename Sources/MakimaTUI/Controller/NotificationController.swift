import Foundation
import MakimaKit

/// Notifications, one concern of the dashboard: toasts (one at a time, each for its time),
/// the bell, the desktop notifier, the task titles that name them, and `o` / `:notifications`
/// (what a toast speaks of, or the list). `LiveDashboard` holds one and forwards to it.
@MainActor
final class NotificationController {
    var toasts = ToastQueue()
    /// The notifications the toasts on screen speak of (`o` opens the one, or the list).
    var announced: [MeshNotification] = []
    /// Notifications waiting for their task's title (by task id).
    var awaitingTitle: [String: [MeshNotification]] = [:]
    /// Task titles seen this run, so a toast names a task even after it left every list;
    /// bounded (`TaskTitleBook.capacity`, the older half forgotten past it) like `watch`'s.
    var taskTitles = TaskTitleBook()
    let notifier: DesktopNotifier
    private let hub: StoreHub
    private let chrome: ChromeStore
    private unowned let screen: any PaneStackEditing & TimerScheduling & TerminalSignals
    private unowned let engines: any EngineSource
    /// Opens what a notification is about (`NavigationController.open`).
    private let open: (DeepLink) -> Void
    /// Shows the list of recent notifications (`NavigationController.go(to: .notifications)`).
    private let showAll: () -> Void
    private let now: () -> Date

    init(
        notifier: DesktopNotifier, hub: StoreHub, chrome: ChromeStore,
        screen: any PaneStackEditing & TimerScheduling & TerminalSignals, engines: any EngineSource,
        open: @escaping (DeepLink) -> Void, showAll: @escaping () -> Void, now: @escaping () -> Date
    ) {
        self.notifier = notifier
        self.hub = hub
        self.chrome = chrome
        self.screen = screen
        self.engines = engines
        self.open = open
        self.showAll = showAll
        self.now = now
    }

    /// New notifications of the kinds that are on: a toast each, one bell for the batch, and a
    /// desktop notification (coalesced; see `DesktopNotifier`). None for what the operator is
    /// looking at (`isInView`): the pane shows it happen.
    func announce(_ all: [MeshNotification]) {
        let notifications = notifier.preferences.filter(all).filter { !isInView($0.link) }
        guard !notifications.isEmpty else { return }
        if notifier.preferences.bell { screen.bell() }
        // What `o` opens is what the toast on screen speaks of: one notification, or the list
        // when several arrived while it shows.
        if toasts.current == nil { announced = [] }
        announced = Array((announced + notifications).suffix(Self.announcedLimit))
        if notifications.count > 1 {
            // Several at once: one summary, in the words of the desktop (tmux) message.
            let titled = notifications.map { self.named($0, fallback: "a task") }
            let digest = NotificationDigest(titled).message
            let failed = titled.contains { $0.kind == .taskFailed }
            toast(NoticeLine(oneLine(digest.body), level: failed ? .danger : .warn))
            notifyDesktop(titled)
            return
        }
        for n in notifications {
            // The engine names a task by its id; the stores usually know its title. When they
            // do not, the task is fetched and the toast waits for it (a few seconds at most).
            if let id = n.link.id(ifKind: .task), n.body.hasPrefix(id), taskTitle(id) == nil {
                awaitTitle(of: id, for: n)
                continue
            }
            show(n)
        }
    }

    /// A toast, and the desktop notification (coalesced by the notifier: what comes within its
    /// interval goes out as one summary).
    private func show(_ notification: MeshNotification, title fallback: String? = nil) {
        let n = named(notification, fallback: fallback)
        toast(ToastQueue.notice(for: n))
        notifyDesktop([n])
    }

    /// Whether `link` is what the operator is looking at: the pane on top shows it and the
    /// terminal says it has focus. A terminal that reports no focus (tmux without
    /// `focus-events`, a hidden window) may not be looked at: it is not taken as looking.
    func isInView(_ link: DeepLink?) -> Bool {
        guard let link, screen.terminalFocused == true else { return false }
        return screen.topPane.shownLink == link
    }

    /// The desktop notification, unless the terminal says the operator is looking at it: the
    /// toast is then enough (a terminal without focus reports gets both, as before).
    private func notifyDesktop(_ notifications: [MeshNotification]) {
        guard screen.terminalFocused != true else { return }
        deliverDesktop(notifier.notify(notifications, now: Clocks.monotonic()))
    }

    /// Writes the notifier's terminal bytes through the terminal (UI thread, between frames) and
    /// comes back for what it held while coalescing.
    func deliverDesktop(_ delivery: DesktopNotifier.Delivery) {
        screen.writeTerminalControl(delivery.terminalBytes)
        guard let after = delivery.flushAfter else { return }
        screen.schedule(after: after, id: "desktop-notification") { [weak self] in
            guard let self else { return }
            self.deliverDesktop(self.notifier.flush(now: Clocks.monotonic()))
        }
    }

    /// The notification with its task named by title (or `fallback`) instead of its id.
    func named(_ notification: MeshNotification, fallback: String? = nil) -> MeshNotification {
        var n = notification
        if let id = n.link.id(ifKind: .task), n.body.hasPrefix(id), let title = taskTitle(id) ?? fallback {
            n.body = title + n.body.dropFirst(id.count)
        }
        return n
    }

    static let titleWaitSeconds = 3.0
    /// The most notifications `announced` keeps (beyond one, `o` opens the list anyway).
    static let announcedLimit = 64

    private func awaitTitle(of id: String, for n: MeshNotification) {
        let first = awaitingTitle[id] == nil
        // Bounded: a flood of notifications for unknown tasks cannot grow this without end.
        guard first ? awaitingTitle.count < 64 : awaitingTitle[id, default: []].count < 8 else {
            return show(n, title: "a task")
        }
        awaitingTitle[id, default: []].append(n)
        guard first else { return }
        engines.engine?.loadDetail(.task(id))
        screen.schedule(after: Self.titleWaitSeconds, id: "title-" + id) { [weak self] in
            self?.titleArrived(for: id)
        }
    }

    /// The task's detail arrived (or the wait ended, or it does not exist): its toasts go out.
    func titleArrived(for id: String) {
        guard let waiting = awaitingTitle.removeValue(forKey: id) else { return }
        screen.cancelTimer(id: "title-" + id)
        for n in waiting { show(n, title: "a task") }
    }

    func toast(_ notice: NoticeLine) {
        if toasts.push(notice) { showToast() } else { chrome.set(\.toast, toasts.display) }
    }

    /// Shows the current toast for its time, then the next one, until none wait.
    private func showToast() {
        chrome.set(\.toast, toasts.display)
        screen.schedule(after: toasts.seconds, id: "toast") { [weak self] in
            guard let self else { return }
            if self.toasts.advance() != nil {
                self.showToast()
            } else {
                self.chrome.set(\.toast, nil)
                self.announced = []
            }
        }
    }

    func taskTitle(_ id: String) -> String? {
        if let t = hub.tasks.details[id] { return oneLine(t.displayTitle) }
        if let title = taskTitles.title(id) { return title }
        // A row made from a status event alone has no title: the detail is asked for instead.
        return hub.tasks.task(id: id)?.title.flatMap { $0.isEmpty ? nil : oneLine($0) }
    }

    /// `:notifications`: the recent ones, newest first, on top of the current pane.
    /// `o`: opens what the toast on screen names (the list when it counts several), else what
    /// the newest notification is about.
    func openLatestNotification() {
        if toasts.current != nil, announced.count > 1 { return showAll() }
        if toasts.current != nil, let one = announced.first { return open(one.link) }
        guard let newest = hub.notifications.items.last else {
            return toast(NoticeLine("no notifications yet", level: .muted))
        }
        open(newest.link)
    }
}

extension NotificationController {
    /// The keys this controller answers (`KeyMap.standard` composes them).
    nonisolated static let keyBindings: [KeyBinding] = [
        KeyBinding(
            [.char("o")], .request(.openLatestNotification), "open what the toast names (the list when several)",
            context: .global)
    ]
}
