import Foundation
import MakimaKit

/// What the transcript viewer shows: one listen session's lines, already on one line each and
/// with their times formatted. Server text was cleaned at decode time.
public struct TranscriptViewModel: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        /// `13:02:11`, or "" when the server gave no time.
        public var time: String
        /// "" when the server gave no speaker.
        public var speaker: String
        public var text: String
    }

    public var sessionID: String
    public var title: String
    /// `started 3h ago · ended 2h ago`, `started 4m ago · live`.
    public var detail = ""
    public var entries: [Entry] = []
    /// Said when there are no lines (loading, or none).
    public var note: String?
}

/// How a listen session is named on screen: its title, else when it started on our clock
/// (never a raw id).
public enum ListenTitle {
    public static func of(_ session: ListenSession, clock: ClockOffset, timeZone: TimeZone = .current) -> String {
        if let t = session.title?.trimmingCharacters(in: .whitespaces), !t.isEmpty { return oneLine(t) }
        guard let start = session.startedAt else { return "untitled session" }
        return "session of " + stamp(clock.local(start), timeZone: timeZone)
    }

    /// `2026-11-30 13:02`.
    static func stamp(_ date: Date, timeZone: TimeZone) -> String {
        let c = calendar(timeZone).dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }

    /// `13:02:11`.
    static func clock(_ date: Date, timeZone: TimeZone) -> String {
        let c = calendar(timeZone).dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    private static func calendar(_ timeZone: TimeZone) -> Calendar {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = timeZone
        return cal
    }
}

extension TranscriptViewModel {
    /// The viewer's model from the stores: the session's detail (with its transcript) once
    /// fetched, else what the list knows while the detail loads.
    @MainActor
    public static func from(_ hub: StoreHub, sessionID: String, now: Date, timeZone: TimeZone = .current)
        -> TranscriptViewModel
    {
        let session =
            hub.listen.details[sessionID] ?? hub.listen.list.items.first { $0.id == sessionID }
            ?? hub.listen.latest.items.first { $0.id == sessionID }
        guard let session else { return TranscriptViewModel(sessionID: sessionID, title: "session", note: "loading…") }
        return from(session, now: now, clock: hub.connection.serverClock, timeZone: timeZone)
    }

    /// Every time in it is the server's, read on our clock through `clock`.
    public static func from(_ session: ListenSession, now: Date, clock: ClockOffset, timeZone: TimeZone = .current)
        -> TranscriptViewModel
    {
        var detail: [String] = []
        if let s = session.startedAt { detail.append("started " + ago(s, now: now, clock: clock)) }
        if let e = session.endedAt {
            detail.append("ended " + ago(e, now: now, clock: clock))
        } else {
            detail.append("live")
        }
        let entries = (session.transcript ?? []).map { line in
            Entry(
                time: line.at.map { ListenTitle.clock(clock.local($0), timeZone: timeZone) } ?? "",
                speaker: oneLine(line.speaker ?? ""), text: oneLine(line.text))
        }
        let note: String? =
            session.transcript == nil ? "loading transcript…" : (entries.isEmpty ? "no lines in this session" : nil)
        return TranscriptViewModel(
            sessionID: session.id, title: ListenTitle.of(session, clock: clock, timeZone: timeZone),
            detail: detail.joined(separator: " · "), entries: entries, note: note)
    }
}
