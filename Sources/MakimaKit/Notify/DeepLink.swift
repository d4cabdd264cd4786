import Foundation

/// `makima://{kind}/{id}`: where a notification (or the command line) sends the operator.
/// Each kind names one item of a kind of list, and is declared beside that kind
/// (`Lists/Kinds`): `makima://task/{id}`, `makima://directive/{id}`, `makima://contract/{id}`
/// and `makima://listen/{id}` (a listen session's transcript). Which kinds a link may have
/// is the app's to say (its destinations); a string is parsed among them
/// (`init?(_:among:)`).
public struct DeepLink: Sendable, Hashable, CustomStringConvertible {
    /// What a link names: the `{kind}` of `makima://{kind}/{id}`, the kind of list whose items
    /// it names and how one is fetched. That list kind is how the sync engine fetches the item
    /// (`SyncEngine.loadDetail`) and where `StoreHub` keeps it (the kind's store's details);
    /// no registry is read. Two kinds are one when their names are.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        /// The kind of list whose items links of this kind name.
        public let list: any AnyListKind
        /// True: the item is fetched alone (`GET {the list kind's path}/{id}`); false: the
        /// kind's lists hold it and nothing is fetched.
        public let fetchedAlone: Bool

        public init(_ rawValue: String, naming list: any AnyListKind, fetchedAlone: Bool) {
            self.rawValue = rawValue
            self.list = list
            self.fetchedAlone = fetchedAlone
        }

        public var description: String { rawValue }
        public static func == (a: Kind, b: Kind) -> Bool { a.rawValue == b.rawValue }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    }

    public let kind: Kind
    public let id: String

    public init(_ kind: Kind, _ id: String) {
        self.kind = kind
        self.id = id
    }

    public static func task(_ id: String) -> DeepLink { DeepLink(.task, id) }
    public static func directive(_ id: String) -> DeepLink { DeepLink(.directive, id) }
    public static func contract(_ id: String) -> DeepLink { DeepLink(.contract, id) }
    public static func listen(_ id: String) -> DeepLink { DeepLink(.listen, id) }

    /// The id, when the link is of `kind`.
    public func id(ifKind kind: Kind) -> String? { self.kind == kind ? id : nil }

    /// A link of one of `kinds` with a valid id; anything else is nil.
    public init?(_ raw: String, among kinds: some Sequence<Kind>) {
        let s = raw.trimmingCharacters(in: .whitespaces)
        let prefix = "makima://"
        guard s.lowercased().hasPrefix(prefix) else { return nil }
        let parts = s.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        let id = String(parts[1])
        let name = parts[0].lowercased()
        guard ResourceID.isValid(id), let kind = kinds.first(where: { $0.rawValue == name }) else { return nil }
        self.init(kind, id)
    }

    public var description: String { "makima://\(kind.rawValue)/\(id)" }
}
