import Foundation
import Testing

@testable import MakimaKit
@testable import MakimaTUI

@Suite("Live binding: keys to requests, banner and toasts, pill, tmux")
struct LiveBindingTests {
    func app() -> AppState {
        AppState(
            masthead: MastheadModel(serverLabel: "127.0.0.1:8787", version: "0.1.0", pill: .online, clock: "12:00"))
    }

    @Test("keys the data layer acts on become requests: panes shown, r, R, Enter on a row, f")
    func requests() {
        var a = app()
        a.handle(.char("3"), now: 0)
        #expect(a.takeRequests() == [.paneShown(.tasks)])
        a.stack.update(.tasks, as: ListPane.self) {
            $0.update(ListPaneViewModel(rows: [ListRow(id: "t-1", line: StyledLine("build"))]))
        }
        a.handle(.char("r"), now: 0)
        a.handle(.char("R"), now: 0)
        a.handle(.enter, now: 0)
        a.handle(.char("f"), now: 0)
        #expect(a.takeRequests() == [.refresh, .reconnect, .openRow(pane: .tasks, rowID: "t-1"), .nextFilter(.tasks)])
        #expect(a.takeRequests().isEmpty)
        a.handle(.char("q"), now: 0)
        #expect(a.takeRequests() == [.paneShown(.home)])
        a.handle(.char(":"), now: 0)
        for c in "dae" { a.handle(.char(c), now: 0) }
        a.handle(.enter, now: 0)
        #expect(a.takeRequests() == [.paneShown(.daemons)])
    }

    @Test("Enter on an empty list asks for nothing; typing r in a filter is text")
    func noRequests() {
        var a = app()
        a.handle(.char("2"), now: 0)
        _ = a.takeRequests()
        a.handle(.enter, now: 0)
        a.handle(.char("/"), now: 0)
        a.handle(.char("r"), now: 0)
        #expect(a.takeRequests().isEmpty)
    }

    @Test("the output pane scrolls with its own keys; q goes back to the list it came from")
    func outputPaneKeys() {
        var a = app()
        a.handle(.char("3"), now: 0)
        a.stack.push(
            TaskOutputPane(
                model: TaskOutputViewModel(
                    taskID: "t", title: "x", lines: (0..<50).map { RenderedLine(text: "l\($0)") })))
        _ = a.takeRequests()
        a.handle(.char("k"), now: 0)
        #expect((a.stack.top as? TaskOutputPane)?.following == false)
        a.handle(.char("G"), now: 0)
        #expect((a.stack.top as? TaskOutputPane)?.following == true)
        #expect(a.footerHints.contains { $0.action == .bottom && $0.hint == "follow" })
        a.handle(.char("q"), now: 0)
        #expect(a.stack.top is ListPane)
        #expect(a.takeRequests() == [.paneShown(.tasks)])
    }

    @Test("a banner sits under NAV// and a toast above the footer; the pane gets the rows between")
    func bannerAndToast() {
        var a = app()
        a.banner = NoticeLine("the server refused the API key — run `makima-tui login`", level: .danger)
        a.toast = NoticeLine("Task failed: build", level: .danger)
        let b = a.render(width: 80, height: 24)
        #expect(b.trimmedLine(2) == " ● the server refused the API key — run `makima-tui login`")
        #expect(b.style(atX: 3, y: 2).fg == .danger)
        #expect(b.trimmedLine(22) == " ● Task failed: build")
        #expect(b.trimmedLine(23).hasPrefix(" ? help"))
        #expect(b.line(3).contains("·"))  // Home starts below the banner
    }

    @Test("toasts show one at a time, counting those waiting; old ones are dropped past the limit")
    func toastQueue() {
        var q = ToastQueue()
        let first = q.push(NoticeLine("a", level: .ok))
        let second = q.push(NoticeLine("b", level: .warn))
        #expect(first && !second)
        #expect(q.display == NoticeLine("a  (+1 more)", level: .ok))
        #expect(q.seconds == 2)
        let next = q.advance()
        #expect(next == NoticeLine("b", level: .warn))
        #expect(q.display == NoticeLine("b", level: .warn))
        #expect(q.seconds == 5)
        let none = q.advance()
        #expect(none == nil && q.display == nil)
        for i in 0..<20 { _ = q.push(NoticeLine("n\(i)", level: .muted)) }
        #expect(q.display?.text == "n0  (+\(ToastQueue.limit) more)")
        let n = MeshNotification(
            id: EventIdentity(taskID: "t", seq: 1), kind: .taskFailed, title: "Task failed", body: "Build\nthe thing",
            link: .task("t"), at: Date())
        #expect(ToastQueue.notice(for: n) == NoticeLine("Task failed: Build the thing", level: .danger))
    }

    @Test("the pill follows the connection status; an offline retry time becomes whole seconds")
    func pill() {
        let now = Date(timeIntervalSince1970: 1000)
        #expect(ConnectionPillState(.idle, now: now) == .idle)
        #expect(ConnectionPillState(ConnectionStatus(phase: .connecting), now: now) == .connecting)
        #expect(ConnectionPillState(ConnectionStatus(phase: .online), now: now) == .online)
        #expect(
            ConnectionPillState(ConnectionStatus(phase: .offline(nextRetry: now.addingTimeInterval(12.2))), now: now)
                == .offline(secondsToRetry: 13))
        #expect(
            ConnectionPillState(ConnectionStatus(phase: .offline(nextRetry: now.addingTimeInterval(-3))), now: now)
                == .offline(secondsToRetry: 0))
        #expect(
            ConnectionPillState(ConnectionStatus(phase: .offline(nextRetry: nil), unauthorized: true), now: now)
                == .offline(secondsToRetry: nil))
    }
}
