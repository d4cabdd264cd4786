import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// The app and each pane kind declare their keys beside the code that answers them, and the
/// controllers theirs (`ControllerKeysTests`); `KeyMap.standard` is composed of the
/// declarations. These check that composing loses and doubles nothing, that no key means
/// two things in one context, and that every action a pane's context binds is one a fresh
/// pane of each kind that looks the context up answers.
@MainActor @Suite("Panes declare their keys beside their handlers")
struct PaneKeysTests {
    static let declarations: [(name: String, keys: [KeyBinding])] =
        [
            ("app", AppState.keyBindings), ("typing", AppState.typingKeyBindings), ("mouse", AppState.mouseBindings),
            ("lists", ListView.keyBindings), ("list panes", ListPane.keyBindings),
            ("task output", TaskOutputPane.keyBindings), ("home", HomePane.keyBindings),
            ("transcript", TranscriptPane.keyBindings), ("directive", DirectiveDetailPane.keyBindings),
            ("needs you", NeedsYouController.keyBindings),
        ] + ControllerKeysTests.declared.map { ($0.controller, $0.keys) }

    /// The contexts the app answers itself (`AppState`); every other is a pane's.
    static let appContexts: [KeyContext] = [.global, .textInput, .commandLine, .mouse]

    static func row(_ id: String) -> ListRow { ListRow(id: id, line: StyledLine(id), sortKeys: [id]) }

    /// A fresh pane of every kind that has keys, each in a state where its contexts are live
    /// and its keys have something to act on: rows to open, a sort to step to, a query kept,
    /// a live Home, the task that asked, the insecure-mode question asked.
    static func panes() -> [any Pane] {
        let rows = [row("t1"), row("t2")]
        let list = ListPaneViewModel(rows: rows, sorts: ["name"])
        var tasks = ListPane(id: .tasks, model: list, contexts: [.taskList, .list, .listOrder])
        tasks.update(list)
        let lines = (0..<40).map { RenderedLine(text: "line \($0)") }
        let output = TaskOutputPane(model: TaskOutputViewModel(taskID: "t1", title: "T", lines: lines))
        var searched = output
        _ = searched.handle(.filter)
        _ = searched.edit(.insert("7"))
        _ = searched.edit(.submit)
        var grep = GrepPane(pattern: "line")
        let hit = OutputSearchHit(taskID: "t1", lineNumber: 3, seq: 1, line: "a line", lastActive: nil)
        grep.update(.from([hit], pattern: "line", tasks: [:], now: MeshFixture.now, clock: .zero))
        var home = HomePane()
        home.model.mesh = HomeMeshModel.from(MeshFixture.hub(), now: MeshFixture.now)
        var signIn = OnboardingModel(server: "http://mesh.example:8080")
        signIn.confirmInsecureFor = "mesh.example"
        return [
            tasks, ListPane(id: .daemons, model: list), NotificationsPane(rows: rows, links: ["t1": .task("t1")]),
            PickerPane(owner: .tasks, title: "contract", choices: [("c1", "Mesh")], current: nil),
            ContractDetailPane(
                model: ContractDetailModel(
                    id: "c1", name: "Mesh", phase: "", status: ContractStatus(rawValue: "active"), tasks: rows)),
            grep, output, searched, home,
            TranscriptPane(
                model: TranscriptViewModel(
                    sessionID: "l1", title: "Standup", entries: [.init(time: "", speaker: "A", text: "line")])),
            DirectiveDetailPane(model: DirectiveDetailModel(id: "r7", title: "Ship", status: "active", taskID: "t1")),
            OnboardingPane(model: signIn),
        ]
    }

    static func contexts(of pane: any Pane) -> [KeyContext] { pane.keyContexts + pane.typingContexts }

    @Test("the standard map is the declarations composed: every binding once, none lost, none added")
    func composedOfDeclarations() {
        let declared = Self.declarations.flatMap(\.keys)
        #expect(KeyMap.standard.bindings.count == declared.count)
        for (name, keys) in Self.declarations {
            #expect(!keys.isEmpty, "\(name)")
            for b in keys { #expect(KeyMap.standard.bindings.filter { $0 == b }.count == 1, "\(name): \(b.label)") }
        }
        #expect(KeyMap.standard.contexts == KeyMap.contextOrder)
    }

    @Test("no key is bound twice in one context; mouse entries have no keys, every other entry has one")
    func noConflicts() {
        for c in KeyMap.standard.contexts {
            var seen: [Key: String] = [:]
            for b in KeyMap.standard.bindings where b.context == c {
                #expect(b.keys.isEmpty == (c == .mouse), "\(c.title): \(b.label)")
                for k in b.keys {
                    #expect(seen[k] == nil, "\(c.title): \(k.label) is bound by \(seen[k] ?? "") and \(b.label)")
                    seen[k] = b.label
                }
            }
        }
    }

    @Test("every scrolling context binds the same scroll keys to the same actions")
    func scrollKeysAlike() {
        let keys: [Key] = [
            .char("j"), .down, .char("k"), .up, .char("g"), .home, .char("G"), .end, .pageUp, .ctrl("b"), .pageDown,
            .ctrl("f"),
        ]
        let actions: [KeyAction] = [
            .moveDown, .moveDown, .moveUp, .moveUp, .top, .top, .bottom, .bottom, .pageUp, .pageUp, .pageDown,
            .pageDown,
        ]
        for c in [KeyContext.list, .output, .transcript, .detail] {
            #expect(keys.map { KeyMap.standard.action(for: $0, in: [c]) } == actions, "\(c.title)")
        }
        #expect(KeyMap.standard.action(for: .char("F"), in: [.output]) == .bottom)
    }

    @Test("each action a pane's context binds, a fresh pane of every kind that looks it up answers")
    func paneActionsAnswered() {
        let panes = Self.panes()
        for c in KeyMap.standard.contexts where !Self.appContexts.contains(c) {
            let lookers = panes.indices.filter { Self.contexts(of: panes[$0]).contains(c) }
            #expect(!lookers.isEmpty, "no pane looks up \(c.title)")
            for b in KeyMap.standard.bindings where b.context == c {
                for i in lookers {
                    // A copy of the pane as made: each action meets it fresh.
                    var pane = panes[i]
                    let response = pane.handle(b.action)
                    // Esc with nothing of the pane's to close is the app's: it goes back.
                    if case .ignored = response, b.action != .dismiss {
                        Issue.record("\(type(of: pane)) ignores \(b.label) (\(c.title)): \(b.description)")
                    }
                }
            }
        }
    }

    @Test("every context a pane looks up has bindings, in a section of the help")
    func paneContextsDeclared() {
        for pane in Self.panes() {
            for c in Self.contexts(of: pane) {
                #expect(KeyMap.standard.bindings.contains { $0.context == c }, "\(type(of: pane)): \(c.title)")
                #expect(KeyMap.contextOrder.contains(c), "\(c.title)")
            }
        }
    }

    func app() -> AppState {
        AppState(masthead: MastheadModel(serverLabel: "makima.jp", version: "0.1.0", pill: .idle, clock: "12:00"))
    }

    @Test("each of the app's own keys changes the app; each typing key, with the command line open")
    func appKeysAnswered() throws {
        for b in AppState.keyBindings {
            var a = app()
            let key = try #require(b.keys.first)
            let changed = a.handle(key, now: 0)
            #expect(changed, "\(b.label): \(b.description)")
        }
        for b in AppState.typingKeyBindings {
            var a = app()
            a.handle(.char(":"), now: 0)
            a.handle(.char("t"), now: 0)
            let key = try #require(b.keys.first)
            let changed = a.handle(key, now: 0)
            #expect(changed, "\(b.label): \(b.description)")
        }
    }
}
