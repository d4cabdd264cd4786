import Foundation

/// `makima://{kind}/{id}`: where a notification (or the command line) sends the operator. The
/// kinds are the destinations (`ListKinds.destinations`: a kind of list whose items a link
/// names): `makima://task/{id}`, `makima://directive/{id}`, `makima://contract/{id}` and
/// `makima://listen/{id}` (a listen session's transcript).
public struct DeepLink: Sendable, Hashable, CustomStringConvertible {
    /// What a link names: the `{kind}` of `makima://{kind}/{id}` (`ItemLink.kind`).
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let task = Kind(rawValue: "task")
        public static let directive = Kind(rawValue: "directive")
        public static let contract = Kind(rawValue: "contract")
        public static let listen = Kind(rawValue: "listen")
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

    /// A link of a known kind (a destination's) with a valid id; anything else is nil.
    public init?(_ raw: String) {
        let s = raw.trimmingCharacters(in: .whitespaces)
        let prefix = "makima://"
        guard s.lowercased().hasPrefix(prefix) else { return nil }
        let parts = s.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        let id = String(parts[1])
        let kind = Kind(rawValue: parts[0].lowercased())
        guard ResourceID.isValid(id), ListKinds.destinations[kind] != nil else { return nil }
        self.init(kind, id)
    }

    public var description: String { "makima://\(kind.rawValue)/\(id)" }
}
