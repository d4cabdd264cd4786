import Foundation
import MakimaKit

extension HomeMeshModel {
    /// Home's cards from the stores: the numbers are `MeshSummary(hub)` (the rule `status`
    /// uses too), with how current each section is. Pure: the same hub and `now` give the same model.
    @MainActor
    public static func from(_ hub: StoreHub, now: Date) -> HomeMeshModel {
        let summary = MeshSummary(hub)
        var m = HomeMeshModel()

        m.daemonsOnline = summary.daemonsOnline
        m.daemonsOffline = summary.daemonsOffline
        m.offlineHosts = hub.daemons.list.items.filter { !$0.status.isOnline }.map { oneLine($0.hostname ?? $0.id) }
        // Offline ones first: they are what the operator looks for. Home shows as many as fit.
        m.daemonLines = hub.daemons.list.items.enumerated().sorted { a, b in
            a.element.status.isOnline == b.element.status.isOnline ? a.offset < b.offset : !a.element.status.isOnline
        }.prefix(Self.cardRows).map {
            DaemonLine(
                id: $0.element.id, host: oneLine($0.element.hostname ?? $0.element.id), status: $0.element.status)
        }
        m.daemons = .of(hub.daemons.list, now: now)

        m.runningCount = summary.runningTasks
        m.recentTasks = hub.tasks.recent(Self.cardRows).map {
            TaskLine(id: $0.id, title: TaskLookup.title($0.id, $0, in: hub), status: $0.status)
        }
        m.tasks = .of(hub.tasks.list(.init(status: .running)), now: now)

        m.activeContractsCount = summary.activeContracts
        m.topContracts = hub.contracts.active
            .sorted { ($0.updatedAt ?? .distantPast) > ($1.updatedAt ?? .distantPast) }
            .prefix(Self.cardRows).map { ContractLine(name: oneLine($0.name), phase: oneLine($0.phase), id: $0.id) }
        let activeList = hub.contracts.lists[.contracts(status: .active)]
        m.contracts = .of(
            activeList.map { $0.hasLoaded ? $0 : hub.contracts.list(nil) } ?? hub.contracts.list(nil), now: now)

        m.pendingQuestions = hub.directives.pendingQuestions.map {
            QuestionLine(
                directive: oneLine($0.title),
                question: oneLine($0.pendingQuestion?.text ?? "(the question text was not sent)"), directiveID: $0.id)
        }
        let dir = hub.directives
        m.directives = .of(dir.pending.hasLoaded || !dir.list.hasLoaded ? dir.pending : dir.list, now: now)

        if let l = summary.latestListenSession {
            m.latestListen = listenLine(l, now: now, clock: hub.connection.serverClock, preview: true)
        }
        m.olderListen = hub.listen.list.items.filter { $0.id != summary.latestListenSession?.id }
            .prefix(Self.cardRows).map { listenLine($0, now: now, clock: hub.connection.serverClock, preview: false) }
        m.listen = .of(
            hub.listen.latest.hasLoaded || !hub.listen.list.hasLoaded ? hub.listen.latest : hub.listen.list, now: now)

        m.meshes = meshLines(hub, summary: summary, now: now)
        let waiting = hub.needsYou.items
        m.needsYouCount = waiting.count
        m.needsYou = waiting.prefix(Self.needsYouShown).map { item in
            NeedsYouLine(
                id: item.id, kind: item.kind, label: item.label, text: item.text,
                age: item.since.map { shortAge(max(0, now.timeIntervalSince($0))) } ?? "")
        }
        m.summary = summaryLine([m.daemons, m.tasks, m.contracts, m.directives, m.listen])
        return m
    }

    /// The most rows a Home card is given from its list (the layout shows as many as fit).
    static let cardRows = 12

    static func listenLine(_ l: ListenSession, now: Date, clock: ClockOffset, preview: Bool) -> ListenLine {
        ListenLine(
            title: ListenTitle.of(l, clock: clock),
            started: l.startedAt.map { "started " + ago($0, now: now, clock: clock) } ?? "",
            preview: preview ? oneLine(l.transcriptPreview ?? "") : "", id: l.id)
    }

    /// The worst state among the sections, said once under the badge.
    static func summaryLine(_ sections: [Freshness]) -> NoticeLine? {
        for s in sections {
            if case .failed(nil, let message) = s {
                return NoticeLine("cannot load from the server: \(message)", level: .danger)
            }
        }
        for s in sections {
            if case .failed(let age?, let message) = s {
                return NoticeLine("showing data from \(age) ago; the last refresh failed: \(message)", level: .warn)
            }
        }
        for s in sections {
            if case .stale(let age) = s {
                return NoticeLine("cached data from \(age) ago; waiting for the server", level: .warn)
            }
        }
        return nil
    }
}
