import Foundation

/// One list of one kind, as asked for: the cache keys its snapshot by it, the refresh
/// coordinator de-duplicates in-flight requests by it, and the stores file results under it.
/// A kind makes its queries (`ListKind.query`); the constructors the dashboard uses
/// (`.daemons`, `.contracts(status:)`, …) sit beside each kind's entry in `Lists/Kinds`.
public struct ListQuery: Hashable, Sendable, CustomStringConvertible {
    /// The kind of list: its endpoint, its decoding, its cache rows, its store.
    public let kind: any AnyListKind
    /// The cache key of the query's snapshot, and what tells two queries of a kind apart.
    public let description: String
    /// The parameters sent with the request, in order; nil values are not sent.
    let parameters: [ListParameter]
    /// How many pages a fetch reads: a list asked for with its own limit is one page, the
    /// others are read whole (within `ListPaging`'s bounds), so counts made from them are right.
    public let maxPages: Int

    init(kind: any AnyListKind, description: String, parameters: [ListParameter], maxPages: Int) {
        self.kind = kind
        self.description = description
        self.parameters = parameters
        self.maxPages = maxPages
    }

    /// The request that answers the query (the first page of it).
    public var endpoint: Endpoint { kind.endpoint(for: self) }

    /// The value of a parameter the query was made with (nil: not sent).
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    public static func == (a: ListQuery, b: ListQuery) -> Bool {
        a.kind.name == b.kind.name && a.description == b.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind.name)
        hasher.combine(description)
    }
}

/// One query parameter: its name on the wire and its value (nil: left out of the request).
public struct ListParameter: Hashable, Sendable {
    public let name: String
    public let value: String?

    public init(_ name: String, _ value: String?) {
        self.name = name
        self.value = value
    }
}
