import Foundation
import MakimaKit
import Observation

/// The task whose output is on screen, and its lines converted so far.
struct OutputView {
    let taskID: String
    var lines: TaskOutputLines
    /// The plan rendered for the header section, kept until the plan text changes.
    var plan: (source: String, lines: [RenderedLine]) = ("", [])
    /// Opened from a `:grep` hit: the pattern and line to put the view on, once shown.
    var seek: (pattern: String, line: String)?
}

/// The task output view, one concern of the dashboard: the task on screen and its lines
/// converted so far, opening it (cached output first), its model built from the stores like
/// any detail pane's (its `Routes` entry, through the `.detail` binding: rebuilt before the
/// next frame when what it read changed), older output on demand (`+OlderOutput`) and
/// `:grep` (`+Grep`), whose hits open it. `LiveDashboard` holds one.
@MainActor @Observable
final class TaskOutputController {
    /// The task whose output is on screen (nil: the view is not shown). Not observed: the
    /// build itself keeps its converted lines here. Its `didSet` does not read `oldValue`, so
    /// a build changes the converted lines in place (with `oldValue` kept alive, each build
    /// copied every line converted so far).
    @ObservationIgnored var view: OutputView? {
        didSet {
            guard view?.taskID != readingTask else { return }
            readingTask = view?.taskID
            hub.tasks.endReading(except: readingTask)
        }
    }
    /// The task of `view` at its last change: older output read for any other is let go.
    @ObservationIgnored private var readingTask: String?
    /// The view was opened with no output held and waits for the engine's first answer (the
    /// history after the cache, or a refused key): it says "loading output…" until then.
    /// Observed: the view's model reads it.
    var historyLoading = false

    let hub: StoreHub
    @ObservationIgnored let chrome: ChromeStore
    @ObservationIgnored unowned let screen: any PaneStackEditing & TimerScheduling
    @ObservationIgnored unowned let engines: any EngineSource
    @ObservationIgnored let bus: UIBus
    @ObservationIgnored let glyphs: Glyphs
    /// Opens a task's view (a grep hit) through its route (`NavigationController.open`).
    @ObservationIgnored let open: (DeepLink) -> Void
    /// Puts a pane on top (`NavigationController.show`: the output view, the grep results).
    @ObservationIgnored let show: (any Pane) -> Void
    /// A task's title as the notifications know it (`NotificationController.taskTitle`).
    @ObservationIgnored let taskTitle: (String) -> String?
    @ObservationIgnored let now: () -> Date

    init(
        hub: StoreHub, chrome: ChromeStore, screen: any PaneStackEditing & TimerScheduling, engines: any EngineSource,
        bus: UIBus, glyphs: Glyphs, open: @escaping (DeepLink) -> Void, show: @escaping (any Pane) -> Void,
        taskTitle: @escaping (String) -> String?,
        now: @escaping () -> Date
    ) {
        self.hub = hub
        self.chrome = chrome
        self.screen = screen
        self.engines = engines
        self.bus = bus
        self.glyphs = glyphs
        self.open = open
        self.show = show
        self.taskTitle = taskTitle
        self.now = now
    }

    /// Pushes the output view of a task: cached output at once, then the task's detail, and
    /// the rest of its history from the server.
    func openTask(_ id: String) {
        guard let engine = engines.engine else { return }
        let held = hub.tasks.outputs[id]
        hub.tasks.keepOutput(of: id)
        if held == nil || (held!.droppedLines == 0 && (held!.firstSeq ?? Int.max) > 1) {
            let cached = engine.cachedOutput(taskID: id)
            if !cached.isEmpty { hub.apply(.olderOutput(taskID: id, events: cached)) }
        }
        view = OutputView(
            taskID: id, lines: TaskOutputLines(glyphs: glyphs, serverClock: hub.connection.serverClock))
        // History after what the cache holds comes through the engine, like live events: in
        // order, into the cache, and never twice.
        historyLoading = (hub.tasks.outputs[id]?.lineCount ?? 0) == 0
        engine.follow(taskID: id)
        screen.cancelTimer(id: "poll")
        show(TaskOutputPane(model: viewModel()))
        engine.loadDetail(.task(id))
    }

    /// The engine answered for `id` (its history, or not at all): the view stops waiting.
    func historyArrived(for id: String?) {
        guard historyLoading, id == nil || id == view?.taskID else { return }
        historyLoading = false
    }

    /// Builds the view's model from the stores and hands it to the pane: its `Destinations`
    /// entry runs it inside the `.detail` binding's tracking, so what it reads here (the task's
    /// output and detail, the names in its header, `historyLoading`, the connection's access)
    /// is what marks it for the next build. Only lines new since the last build are converted
    /// (`TaskOutputLines`).
    func rebuild() {
        guard let id = view?.taskID else { return }
        let model = viewModel()
        screen.updatePanes {
            $0.update(.taskOutput, as: TaskOutputPane.self) { pane in if pane.model.taskID == id { pane.update(model) }
            }
        }
        seekGrepHit()
    }

    private func viewModel() -> TaskOutputViewModel {
        guard let id = view?.taskID else { return TaskOutputViewModel(taskID: "", title: "") }
        let task = hub.tasks.task(id: id)
        let buffer = hub.tasks.outputs[id] ?? TaskOutputBuffer()
        // Read inside tracking: a view opened before the server's clock was measured (a deep
        // link at start-up) renders again, its status rules on our clock.
        let clock = hub.connection.serverClock
        if let shown = view?.lines.serverClock, shown != clock {
            view?.lines = TaskOutputLines(glyphs: glyphs, serverClock: clock)
        }
        let lines = view?.lines.shownLines(of: buffer) ?? []
        let note =
            historyLoading
            ? "loading output…" : (engines.unauthorized ? LiveDashboard.refusedKey : "no output yet")
        var model = TaskOutputViewModel(
            taskID: id, title: taskTitle(id) ?? TaskLookup.title(id, task, in: hub),
            status: buffer.status ?? task?.status,
            shown: lines, firstLineNumber: view?.lines.firstLineNumber ?? 0, note: note)
        model.links = view?.lines.linkURLs ?? []
        if let converted = view?.lines { model.adopt(converted) }
        if let task {
            model.facts = facts(of: task)
            if view?.plan.source != task.plan {
                view?.plan = (task.plan, TaskPlan.render(task.plan, glyphs: glyphs))
            }
            model.plan = view?.plan.lines ?? []
        }
        return model
    }

    /// The header's facts, with names from the stores where they are known.
    private func facts(of task: MeshTask) -> TaskFacts {
        let daemon = task.daemonID.map { id in hub.daemons.list.items.first { $0.id == id }?.hostname ?? id }
        let contract = task.contractID.map { id in
            hub.contracts.details[id]?.name
                ?? hub.contracts.lists.values.lazy.compactMap { $0.items.first { $0.id == id }?.name }.first ?? id
        }
        return TaskFacts(
            daemon: daemon, contract: contract, created: task.createdAt, updated: task.updatedAt,
            completed: task.completedAt, parent: task.parentID.map { taskTitle($0) ?? $0 },
            serverClock: hub.connection.serverClock)
    }

}
