import Foundation
import MakimaKit
import Testing

@testable import MakimaTUI

/// Every server time a pane shows is read on our clock, and the offset is said where it
/// matters (SYSTEM//, Settings), with a server an hour behind and one two days ahead.
@MainActor
@Suite struct LocalClockDisplayTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test(arguments: [-3_720.0, 2 * 86_400.0])
    func theStatusRuleShowsOurTime(serverOffset: TimeInterval) {
        let ours = Date(timeIntervalSince1970: 1_796_159_610)  // 21:13:30 UTC
        var buffer = TaskOutputBuffer()
        buffer.append([
            TaskEvent(
                eventID: 1, taskID: "t", seq: 1, type: .status, ts: ours.addingTimeInterval(serverOffset),
                payload: .status(status: .completed, previous: .running, reason: nil))
        ])
        var doc = OutputDocument(timeZone: utc, serverClock: ClockOffset(seconds: serverOffset))
        doc.append(buffer.lines[0], index: 0)
        doc.settle()
        let rule = doc.shown(open: nil).lines.map(\.text).first { $0.contains("STATUS COMPLETED") }
        #expect(rule?.contains("STATUS COMPLETED · 21:13:30") == true, "\(rule ?? "no rule")")
    }

    @Test(arguments: [-3_720.0, 2 * 86_400.0])
    func agesAreMeasuredOnOurClock(serverOffset: TimeInterval) {
        let now = Date()
        let hub = StoreHub()
        hub.apply(.serverClock(ClockOffset(seconds: serverOffset)))
        // A heartbeat 12 s ago, stamped on the server's clock.
        let beat = now.addingTimeInterval(serverOffset - 12)
        hub.apply(
            .list(
                .daemons, .daemons([Daemon(id: "d1", hostname: "kestrel", status: .online, lastHeartbeat: beat)]),
                fetchedAt: now, fromCache: false))
        let row = ListPaneModels.daemons(hub, now: now).window.row(0).line.text
        #expect(row.contains("♥ 12s ago"), "\(row)")
    }

    @Test func systemAndSettingsSayTheOffsetPastTheThreshold() {
        let hub = StoreHub()
        #expect(StatusRow.serverClock(hub.connection) == nil)
        hub.apply(.serverClock(ClockOffset(seconds: -25)))
        #expect(StatusRow.serverClock(hub.connection) == nil)
        hub.apply(.serverClock(ClockOffset(seconds: -3_720)))
        #expect(StatusRow.serverClock(hub.connection) == StatusRow("Server clock", "1 h 02 m behind", .warn))
        hub.apply(.serverClock(ClockOffset(seconds: 2 * 86_400 + 60)))
        #expect(StatusRow.serverClock(hub.connection)?.value == "2 d 00 h ahead")

        var home = HomeViewModel(statusRows: [StatusRow("Network", "ONLINE", .ok)])
        home.setStatusRow("Server clock", StatusRow.serverClock(hub.connection))
        #expect(home.statusRows.map(\.label) == ["Network", "Server clock"])
        home.setStatusRow("Server clock", nil)
        #expect(home.statusRows.map(\.label) == ["Network"])

        var facts = SettingsFacts(
            server: "http://127.0.0.1", maskedKey: "mk_••••1234", keySource: "config", cachePath: "none",
            version: "0", connection: "ONLINE")
        #expect(!facts.model.window.rows.contains { $0.line.text.contains("SERVER CLOCK") })
        facts.serverClock = ClockOffset(seconds: -3_720)
        let row = facts.model.window.rows.first { $0.line.text.contains("SERVER CLOCK") }?.line.text
        #expect(row?.contains("1 h 02 m behind") == true, "\(row ?? "no row")")
    }

    @Test func transcriptTimesAreOurs() {
        let ours = Date(timeIntervalSince1970: 1_796_159_610)
        let offset = ClockOffset(seconds: -3_600)
        let session = ListenSession(
            id: "l1", title: nil, startedAt: ours.addingTimeInterval(-3_600),
            transcript: [TranscriptLine(speaker: "a", text: "hi", at: ours.addingTimeInterval(-3_600))])
        let model = TranscriptViewModel.from(session, now: ours, clock: offset, timeZone: utc)
        #expect(model.entries.first?.time == "21:13:30")
        #expect(model.title == "session of 2026-12-01 21:13")
        #expect(model.detail.hasPrefix("started 0s ago"))
    }
}
