import Foundation
import MakimaKit

extension HomeMeshModel {
    /// One line of the MESHES// card.
    public struct MeshLine: Equatable, Sendable {
        public var name: String
        /// The mesh on screen (its numbers come from the stores the other cards read).
        public var shown = false
        /// nil: not read yet (or no key to read it with).
        public var reachable: Bool? = nil
        public var running: Int? = nil
        /// Tasks failed in the last hour (the shown mesh's: what its cache recorded).
        public var failedLastHour: Int? = nil
        public var questions: Int? = nil
        /// The figures counted from one page of more (drawn "50+").
        public var atLeast: Set<MeshFigure> = []
        /// "live", "12s ago", "unreachable · 3m", "no key stored", "reading …".
        public var freshness: String
        /// The role of the profile's mark (its accent, `ColorRole.mesh`); nil: it has no accent
        /// of its own, or it is past the marks' last place.
        public var mark: MeshMark? = nil
    }

    /// The MESHES// card's lines, one per stored profile when there are two or more (none
    /// otherwise: no card). The shown mesh's numbers are the other cards' (`summary`); the
    /// others' are their last background read (`MeshesStore`). A profile with an accent of
    /// its own has the mark of its place, which the palette draws in that accent.
    @MainActor
    static func meshLines(_ hub: StoreHub, summary: MeshSummary, now: Date) -> [MeshLine] {
        let store = hub.meshes
        guard store.profiles.count >= 2 else { return [] }
        return store.profiles.enumerated().map { place, p in
            var line = line(p, hub, summary: summary, now: now)
            line.mark = p.profile.accent == nil ? nil : MeshMark(place: place)
            return line
        }
    }

    /// One profile's line, without its mark.
    @MainActor
    static func line(_ p: MeshProfile, _ hub: StoreHub, summary: MeshSummary, now: Date) -> MeshLine {
        guard p.name == hub.meshes.shown else { return backgroundLine(p, hub.meshes.readings[p.name], now: now) }
        let link = hub.connection.link
        let fetched = hub.tasks.list(.init(status: .running)).fetchedAt
        return MeshLine(
            name: p.name, shown: true, reachable: link.isOnline, running: summary.runningTasks,
            questions: summary.pendingQuestions,
            freshness: link.isOnline
                ? "live" : fetched.map { shortAge(max(0, now.timeIntervalSince($0))) + " ago" } ?? "offline")
    }

    static func backgroundLine(_ p: MeshProfile, _ r: MeshesStore.Reading?, now: Date) -> MeshLine {
        guard p.keyStored else { return MeshLine(name: p.name, freshness: "no key stored") }
        guard let r else { return MeshLine(name: p.name, freshness: "reading …") }
        var line = MeshLine(
            name: p.name, reachable: r.reachable, running: r.glance?.running,
            failedLastHour: r.glance?.failedLastHour, questions: r.glance?.questions, atLeast: r.glance?.atLeast ?? [],
            freshness: "")
        if let since = r.failingSince {
            line.freshness = "unreachable · " + shortAge(max(0, now.timeIntervalSince(since)))
        } else if let at = r.answeredAt {
            line.freshness = shortAge(max(0, now.timeIntervalSince(at))) + " ago"
        }
        return line
    }
}
