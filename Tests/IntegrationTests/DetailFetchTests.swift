import Foundation
import TestSupport
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// The fetch half of every destination, from the registry, against the dev server: a link
/// whose kind fetches its item alone is read from `{the kind's path}/{id}` by the sync engine
/// and posted as one `.detail` holding that item (which `StoreHub` keeps: DestinationRecipeTests); one found in its lists is not fetched; an
/// id the server does not have is said to be missing.
@Suite(.timeLimit(.minutes(2))) struct DetailFetchTests {
    /// The first update the engine posts that `match` accepts, within `timeout`.
    private func first(_ outbox: SyncOutbox, timeout: TimeInterval, _ match: (SyncUpdate) -> Bool) -> SyncUpdate? {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if let hit = outbox.wait(until: Date().addingTimeInterval(0.2)).first(where: match) { return hit }
        }
        return nil
    }

    /// The ids of a payload's items, whatever their type.
    private func ids(_ payload: ListPayload) -> [String] {
        (payload.items(as: (any Identifiable).self) ?? []).compactMap { $0.id as? String }
    }

    @Test func everyLinkKindThatFetchesAloneIsFetchedAndPostedAndAMissingOneIsSaid() throws {
        let server = try DevServer()
        let client = try server.client()
        let outbox = SyncOutbox()
        let engine = try SyncEngine(client: client, apiKey: server.apiKey, cache: nil, outbox: outbox)
        defer { engine.stop() }
        let fetcher = MeshFetcher(client: client)
        for link in Destinations.linkKinds {
            let kind = link.list
            let list = try fetcher.list(ListQuery(kind: kind, description: kind.name, parameters: [], maxPages: 1))
            let id = try #require(ids(list).first, "the dev server lists some \(kind.name)")
            engine.loadDetail(DeepLink(link, id))
            let answer = first(outbox, timeout: link.fetchedAlone ? 20 : 1) {
                if case .detail(let l, _) = $0 { l.kind == link } else { false }
            }
            guard link.fetchedAlone else {
                #expect(answer == nil, "\(link) is found in its lists: nothing is fetched")
                continue
            }
            guard case .detail(let l, let payload) = try #require(answer, "\(link) \(id)") else { return }
            #expect(l == DeepLink(link, id) && ids(payload) == [id], "\(link)")
            let missing = DeepLink(link, "no-such-\(kind.name)-1")
            engine.loadDetail(missing)
            let notFound = first(outbox, timeout: 20) {
                if case .detailNotFound(let l) = $0 { l == missing } else { false }
            }
            #expect(notFound != nil, "\(missing)")
        }
    }
}
