import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// The drill-down panes drawn into a cell buffer from stores filled as the engine fills them.
@MainActor @Suite("Detail panes: transcript, directive, contract, not found; breadcrumbs")
struct DetailPaneTests {
    let now = MeshFixture.now
    let utc = TimeZone(identifier: "UTC")!

    func draw(_ pane: inout some Pane, width: Int = 80, height: Int = 20) -> CellBuffer {
        var buffer = CellBuffer(width: width, height: height)
        pane.render(into: &buffer, region: buffer.bounds, context: RenderContext())
        return buffer
    }

    func session(lines: Int) -> ListenSession {
        var transcript: [TranscriptLine] = []
        for i in 0..<lines {
            let speaker = i % 2 == 0 ? "alice" : "bob"
            let text = i % 7 == 3 ? "line \(i) mentions the Migration plan" : "line \(i) is ordinary talk"
            transcript.append(TranscriptLine(speaker: speaker, text: text, at: now.addingTimeInterval(Double(i - 600))))
        }
        return ListenSession(
            id: "l9", title: nil, startedAt: now.addingTimeInterval(-600), endedAt: nil, transcript: transcript)
    }

    /// The request a key response carries, if any.
    func request(_ r: PaneResponse) -> DashboardRequest? {
        if case .request(let req) = r { return req }
        return nil
    }

    func handled(_ r: PaneResponse) -> Bool {
        if case .handled = r { return true }
        return false
    }

    @Test("transcript: an untitled session is named by its start time; each line shows time, speaker, text")
    func transcriptLayout() {
        let hub = StoreHub()
        hub.apply(.listenSession(session(lines: 3)))
        let model = TranscriptViewModel.from(hub, sessionID: "l9", now: now, timeZone: utc)
        #expect(model.title == "session of 2033-05-18 03:23")
        #expect(!model.title.contains("l9"))
        #expect(model.detail == "started 10m ago · live")
        var pane = TranscriptPane(model: model)
        let b = draw(&pane)
        #expect(b.trimmedLine(1).contains("session of 2033-05-18 03:23"))
        #expect(b.trimmedLine(3) == " 03:23:20  ALICE  line 0 is ordinary talk")
        #expect(b.trimmedLine(4) == " 03:23:21  BOB    line 1 is ordinary talk")
        #expect(pane.crumb == Crumb("LISTEN", "session of 2033-05-18 03:23"))
        // Before the detail arrives the list's row is shown with a loading note.
        let waiting = StoreHub()
        waiting.apply(
            .list(
                .listenSessions(limit: nil), .listenSessions([ListenSession(id: "l9", title: "Standup")]),
                fetchedAt: now, fromCache: false))
        #expect(TranscriptViewModel.from(waiting, sessionID: "l9", now: now).note == "loading transcript…")
    }

    @Test("transcript: long text wraps under its column; j/k and G scroll")
    func transcriptScroll() {
        var pane = TranscriptPane(model: .from(session(lines: 40), now: now, clock: .zero, timeZone: utc))
        var b = draw(&pane, width: 60, height: 12)
        #expect(b.trimmedLine(3).hasPrefix(" 03:23:20  ALICE"))
        _ = pane.handle(.moveDown)
        b = draw(&pane, width: 60, height: 12)
        #expect(b.trimmedLine(3).hasPrefix(" 03:23:21  BOB"))
        _ = pane.handle(.bottom)
        b = draw(&pane, width: 60, height: 12)
        #expect(b.trimmedLine(11).contains("line 39"))
        var long = TranscriptPane(
            model: TranscriptViewModel(
                sessionID: "x", title: "t",
                entries: [.init(time: "", speaker: "ann", text: String(repeating: "word ", count: 30))]))
        b = draw(&long, width: 40, height: 10)
        #expect(b.trimmedLine(3).hasPrefix(" ANN  word"))
        #expect(b.trimmedLine(4).hasPrefix("      word"), "continuation rows sit under the text column")
    }

    @Test("transcript: / search jumps to the first match, n and N step through, Esc clears")
    func transcriptSearch() {
        var pane = TranscriptPane(model: .from(session(lines: 40), now: now, clock: .zero, timeZone: utc))
        _ = draw(&pane, width: 70, height: 12)
        _ = pane.handle(.filter)
        #expect(pane.isEditingText)
        for c in "migration" { _ = pane.edit(.insert(c)) }
        _ = pane.edit(.submit)
        #expect(!pane.isEditingText)
        #expect(pane.matches == [3, 10, 17, 24, 31, 38])
        var b = draw(&pane, width: 70, height: 12)
        #expect(b.trimmedLine(0).contains("/migration 1/6"))
        _ = pane.handle(.searchNext)
        _ = pane.handle(.searchNext)
        _ = pane.handle(.searchNext)
        b = draw(&pane, width: 70, height: 12)
        #expect(b.trimmedLine(0).contains("/migration 4/6"))
        // The current match is in view and its occurrence drawn in bold reverse accent.
        guard let row = (3..<12).first(where: { b.trimmedLine($0).contains("line 24 ") }) else {
            Issue.record("match 24 not in view:\n\(b.lines.joined(separator: "\n"))")
            return
        }
        let x = b.line(row).cells(before: "Migration")
        #expect(b.style(atX: x, y: row) == TranscriptPane.currentHit)
        _ = pane.handle(.searchPrevious)
        #expect(pane.current == 2)
        _ = pane.handle(.searchPrevious)
        _ = pane.handle(.searchPrevious)
        _ = pane.handle(.searchPrevious)
        #expect(pane.current == 5, "N wraps from the first match to the last")
        #expect(handled(pane.handle(.dismiss)))
        #expect(pane.matches.isEmpty)
        #expect(!handled(pane.handle(.dismiss)), "a second Esc goes back")
        _ = pane.handle(.filter)
        for c in "zebra" { _ = pane.edit(.insert(c)) }
        _ = pane.edit(.submit)
        b = draw(&pane, width: 70, height: 12)
        #expect(b.trimmedLine(0).contains("no match for “zebra”"))
    }

    @Test("directive: status, the whole question, and the task that asked, which Enter opens")
    func directive() {
        let hub = MeshFixture.hub()
        let question =
            "May I run migration 0042 on production?\nIt locks the orders table for about 40 seconds, during which checkout is unavailable."
        hub.apply(
            .list(
                .directives(pendingOnly: false),
                .directives([
                    Directive(
                        id: "r7", title: "Ship payments", status: "active", hasPendingQuestion: true,
                        pendingQuestion: SupervisorQuestion(
                            id: "q", text: question, askedAt: now.addingTimeInterval(-120), taskID: "t1"))
                ]), fetchedAt: now, fromCache: false))
        #expect(DirectiveDetailModel.from(hub, id: "nope", now: now) == nil)
        let model = DirectiveDetailModel.from(hub, id: "r7", now: now)!
        #expect(model.taskTitle == "Add rate limiting" && model.taskStatus == .running)
        var pane = DirectiveDetailPane(model: model)
        let b = draw(&pane, width: 60, height: 24)
        let text = b.lines.joined(separator: "\n")
        #expect(text.contains("Ship payments"))
        #expect(text.contains("ACTIVE"))
        #expect(text.contains("asked 2m ago"))
        #expect(text.contains("May I run migration 0042 on production?"))
        #expect(text.contains("checkout is unavailable."), "the question is shown in full, wrapped")
        #expect(text.contains("Add rate limiting  RUNNING"))
        #expect(request(pane.handle(.open)) == .open(.task("t1")))
        #expect(pane.crumb == Crumb("DIRECTIVE", "Ship payments"))
    }

    @Test("contract: fields, ages, its tasks status-coloured newest first; Enter opens the task")
    func contract() {
        let hub = StoreHub()
        hub.apply(
            .list(
                .contracts(status: nil),
                .contracts([
                    Contract(
                        id: "c1", name: "Mesh scheduler", phase: "executing", status: .active, autonomousLoop: true,
                        description: "Schedule work across the mesh.", createdAt: now.addingTimeInterval(-86400 * 2),
                        updatedAt: now.addingTimeInterval(-300))
                ]), fetchedAt: now, fromCache: false))
        let tasks = [
            MeshTask(
                id: "t1", contractID: "c1", title: "Old failed", status: .failed,
                createdAt: now.addingTimeInterval(-900)),
            MeshTask(
                id: "t2", contractID: "c1", title: "Cache heartbeats", status: .running,
                createdAt: now.addingTimeInterval(-60)),
            MeshTask(
                id: "t3", contractID: "c1", title: "Middle done", status: .completed,
                createdAt: now.addingTimeInterval(-300)),
        ]
        // The whole list first: a whole list arriving later says which tasks are gone.
        hub.apply(
            .list(
                .tasks(status: nil, contractID: nil),
                .tasks([MeshTask(id: "x", contractID: "other", title: "Not ours", status: .running)]), fetchedAt: now,
                fromCache: false))
        hub.apply(.list(ContractDetailModel.tasksQuery("c1"), .tasks(tasks), fetchedAt: now, fromCache: false))
        let model = ContractDetailModel.from(hub, id: "c1", now: now)!
        #expect(model.tasks.map(\.id) == ["t2", "t3", "t1"])
        var pane = ContractDetailPane(model: model)
        let b = draw(&pane, width: 80, height: 20)
        let text = b.lines.joined(separator: "\n")
        #expect(text.contains("Mesh scheduler"))
        #expect(text.contains("ACTIVE · PHASE EXECUTING · AUTONOMOUS LOOP ON"))
        #expect(text.contains("created 2d ago · updated 5m ago"))
        #expect(text.contains("Schedule work across the mesh."))
        #expect(!text.contains("Not ours"))
        let y = b.lines.firstIndex { $0.contains("FAILED") }!
        #expect(b.style(atX: b.line(y).cells(before: "FAILED"), y: y) == StatusStyle.taskStyle(.failed))
        #expect(request(pane.handle(.open)) == .open(.task("t2")))
        _ = pane.handle(.moveDown)
        #expect(request(pane.handle(.open)) == .open(.task("t3")))
        #expect(pane.crumb == Crumb("CONTRACT", "Mesh scheduler"))
        #expect(ContractDetailModel.from(hub, id: "missing", now: now) == nil)
    }

    @Test("not found: names the kind and the id")
    func notFound() {
        var pane: some Pane = NotFoundPane(section: .directives, kind: "directive", objectID: "dir-404")
        let text = draw(&pane).lines.joined(separator: "\n")
        #expect(text.contains("DIRECTIVE NOT FOUND"))
        #expect(text.contains("dir-404"))
    }

    @Test("breadcrumbs: the path with ›, shortened from the left when narrow, counted in cells")
    func breadcrumbs() {
        let path = [Crumb("HOME"), Crumb("CONTRACT", "Mesh scheduler"), Crumb("TASK", "Cache heartbeats")]
        let full = NavStrip.pathLine(path, width: 100, glyphs: .unicode)
        #expect(full.text == "NAV// │ HOME › CONTRACT Mesh scheduler › TASK Cache heartbeats")
        let last = full.spans.last!
        #expect(last.style.attributes.contains(.reverse))
        let narrow = NavStrip.pathLine(path, width: 48, glyphs: .unicode)
        #expect(narrow.text == "NAV// │ … › TASK Cache heartbeats")
        let tiny = NavStrip.pathLine(path, width: 20, glyphs: .unicode)
        #expect(tiny.width <= 20 && tiny.text.hasPrefix("NAV// │ … › TASK"), "\(tiny.text)")
        let wide = NavStrip.pathLine(
            [Crumb("HOME"), Crumb("CONTRACT", "決済フロー移行"), Crumb("TASK", "リトライ")], width: 52, glyphs: .unicode)
        #expect(wide.width == 51)
        #expect(wide.text == "NAV// │ … › CONTRACT 決済フロー移行 › TASK リトライ")
        #expect(NavStrip.pathLine(path, width: 100, glyphs: .ascii).text.contains("HOME > CONTRACT"))
    }

    @Test("status styles: every task, daemon and contract status has its own attribute set (NO_COLOR)")
    func statusAttributes() {
        let tasks: [TaskStatus] = [.running, .completed, .failed, .cancelled, .pending]
        #expect(Set(tasks.map { StatusStyle.taskStyle($0).attributes }).count == tasks.count)
        #expect(StatusStyle.taskStyle(.queued).attributes == StatusStyle.taskStyle(.pending).attributes)
        let daemons: [DaemonStatus] = [.online, .busy, .offline, DaemonStatus(rawValue: "draining")]
        #expect(Set(daemons.map { StatusStyle.daemonStyle($0).attributes }).count == daemons.count)
        let contracts: [ContractStatus] = [.active, .completed, .archived]
        #expect(Set(contracts.map { StatusStyle.contractStyle($0).attributes }).count == contracts.count)
    }
}

extension String {
    /// Cells before the first `needle` (ASCII prefix in these tests).
    func cells(before needle: String) -> Int {
        guard let r = range(of: needle) else { return -1 }
        return CellWidth.of(String(self[..<r.lowerBound]))
    }
}

@Suite("Command line starts empty")
struct CommandLineResetTests {
    @Test("a failed :rot leaves an empty prompt with the message; the next command runs on its own")
    func failedCommandClears() {
        var a = AppState(masthead: MastheadModel(serverLabel: "x", version: "0", pill: .idle, clock: "12:00"))
        for c in ":rot" { a.handle(.char(c), now: 0) }
        a.handle(.enter, now: 0)
        #expect(a.commandLine?.text == "")
        #expect(a.commandLine?.message == "unknown pane “rot”")
        #expect(a.render(width: 80, height: 24).trimmedLine(23).contains("unknown pane “rot”"))
        for c in "con" { a.handle(.char(c), now: 0) }
        #expect(a.commandLine?.text == "con")
        a.handle(.enter, now: 0)
        #expect(a.commandLine == nil)
        #expect(a.stack.top.id == .contracts)
        a.handle(.char(":"), now: 0)
        #expect(a.commandLine?.text == "")
    }
}

@MainActor @Suite("Notifications list")
struct NotificationsPaneTests {
    @Test(":notifications lists the recent ones newest first; Enter opens what the selected one is about")
    func listAndOpen() {
        let hub = StoreHub()
        let t0 = MeshFixture.now
        hub.apply(
            .notifications([
                MeshNotification(
                    id: EventIdentity(taskID: "t", seq: 1), kind: .taskCompleted, title: "Task completed",
                    body: "Cache heartbeats", link: .task("t1"),
                    at: t0),
                MeshNotification(
                    id: EventIdentity(taskID: "t", seq: 2), kind: .supervisorQuestion, title: "Supervisor question",
                    body: "May I?",
                    link: .directive("r1"), at: t0.addingTimeInterval(5)),
            ]))
        let (rows, links) = NotificationsPane.model(hub, now: t0, timeZone: TimeZone(identifier: "UTC")!)
        var pane = NotificationsPane(rows: rows, links: links)
        var b = CellBuffer(width: 80, height: 10)
        pane.render(into: &b, region: b.bounds, context: RenderContext())
        #expect(b.trimmedLine(2).contains("SUPERVISOR QUESTION") && b.trimmedLine(2).contains("May I?"))
        #expect(b.trimmedLine(3).contains("TASK COMPLETED") && b.trimmedLine(3).contains("Cache heartbeats"))
        if case .request(.open(let link)) = pane.handle(.open) {
            #expect(link == .directive("r1"))
        } else {
            Issue.record("Enter opens")
        }
        _ = pane.handle(.moveDown)
        if case .request(.open(let link)) = pane.handle(.open) {
            #expect(link == .task("t1"))
        } else {
            Issue.record("Enter opens")
        }

        var a = AppState(masthead: MastheadModel(serverLabel: "x", version: "0", pill: .idle, clock: "12:00"))
        for c in ":notif" { a.handle(.char(c), now: 0) }
        a.handle(.tab, now: 0)
        #expect(a.commandLine?.text == "notifications")
        a.handle(.enter, now: 0)
        #expect(a.takeRequests().contains(.showNotifications))
        a.handle(.char("o"), now: 0)
        #expect(a.takeRequests() == [.openLatestNotification])
    }
}
