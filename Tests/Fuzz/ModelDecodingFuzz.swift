import Foundation
import MakimaKit

/// Every REST model, as a list (bare or wrapped) and as a single object. Invariants: decoding
/// never traps, and no string anywhere in a decoded value (names, titles, plans, transcripts,
/// ids, statuses) holds a terminal control: each is cleaned where it is decoded.
enum ModelDecodingFuzz {
    static func check(_ bytes: [UInt8]) -> String? {
        let data = Data(bytes)
        for decode in decoders {
            guard let value = decode(data) else { continue }
            if let problem = firstDirtyString(in: value, path: "\(type(of: value))") { return problem }
        }
        return nil
    }

    private static let decoders: [@Sendable (Data) -> Any?] = [
        { try? MakimaJSON.decode(ListEnvelope<MeshTask>.self, from: $0) },
        { try? MakimaJSON.decode(ListEnvelope<Contract>.self, from: $0) },
        { try? MakimaJSON.decode(ListEnvelope<Daemon>.self, from: $0) },
        { try? MakimaJSON.decode(ListEnvelope<Directive>.self, from: $0) },
        { try? MakimaJSON.decode(ListEnvelope<ListenSession>.self, from: $0) },
        { try? MakimaJSON.decode(ListEnvelope<APIKeyInfo>.self, from: $0) },
        { try? MakimaJSON.decode(MeshTask.self, from: $0) },
        { try? MakimaJSON.decode(Contract.self, from: $0) },
        { try? MakimaJSON.decode(Directive.self, from: $0) },
        { try? MakimaJSON.decode(ListenSession.self, from: $0) },
    ]

    /// Walks the value with reflection, so a field added to a model is checked without an edit here.
    private static func firstDirtyString(in value: Any, path: String, depth: Int = 0) -> String? {
        if let s = value as? String {
            return Invariant.firstControl(in: s).map { "\(path) holds \($0): \(Invariant.excerpt(s))" }
        }
        guard depth < 64 else { return nil }
        for (index, child) in Mirror(reflecting: value).children.enumerated() {
            let name = child.label ?? "[\(index)]"
            if let problem = firstDirtyString(in: child.value, path: path + "." + name, depth: depth + 1) {
                return problem
            }
        }
        return nil
    }
}
