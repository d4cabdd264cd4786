import Foundation

/// The blocking fetches the sync engine runs on its own threads, by query.
public struct MeshFetcher: Sendable {
    public let client: APIClient

    public init(client: APIClient) { self.client = client }

    /// Every page of the query's list, each handed to `sink` as it arrives (by default the
    /// kind's `ListCollector`), bounded by `maxBytes` (see `ListPaging`).
    public func list(_ query: ListQuery, maxBytes: Int = ListPaging.maxBytes, into sink: (any ListSink)? = nil) throws
        -> ListPayload
    {
        try query.kind.fetch(query, maxBytes: maxBytes, with: client, into: sink ?? query.kind.collector())
    }

    public func outputPage(taskID: String, afterSeq: Int, limit: Int) throws -> TaskOutputPage {
        try client.getBlocking(TaskOutputPage.self, .taskOutput(id: taskID, afterSeq: afterSeq, limit: limit))
    }

    public func task(id: String) throws -> MeshTask { try client.getBlocking(MeshTask.self, .task(id: id)) }

    /// The item `link` names, fetched alone, when its kind says it is
    /// (`DeepLink.Kind.fetchedAlone`); nil for a link whose item is found in its lists.
    public func detail(_ link: DeepLink) throws -> ListPayload? {
        guard link.kind.fetchedAlone else { return nil }
        return try link.kind.list.fetchDetail(id: link.id, with: client, cache: nil)
    }

    /// How a failed fetch is shown, and whether it means the key was refused.
    public static func classify(_ error: Error) -> RefreshCoordinator.Failure {
        if let api = error as? APIError {
            return .init(message: api.description, isUnauthorized: api.isUnauthorized, retryAfter: api.retryAfter)
        }
        return .init(message: String(describing: error), isUnauthorized: false)
    }
}
