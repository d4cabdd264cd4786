import Foundation

/// Builds API URLs. Path segments and query values from callers (ids from the server, filters
/// from the user) are percent-encoded so they can never add a segment, a query or a fragment.
enum APIURL {
    private static let unreserved: CharacterSet = {
        var s = CharacterSet()
        s.insert(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return s
    }()

    static func encode(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// A path segment: as `encode`, and `.`/`..` spelled out so no one can climb the path.
    static func encodeSegment(_ s: String) -> String {
        if !s.isEmpty && s.allSatisfy({ $0 == "." }) { return String(repeating: "%2E", count: s.count) }
        return encode(s)
    }

    /// `base` + `/`-joined encoded segments + `?k=v&…` (nil values dropped).
    static func make(base: URL, segments: [String], query: [(String, String?)] = []) -> URL {
        var s = base.absoluteString
        while s.hasSuffix("/") { s.removeLast() }
        for seg in segments { s += "/" + encodeSegment(seg) }
        let pairs = query.compactMap { k, v in v.map { encode(k) + "=" + encode($0) } }
        if !pairs.isEmpty { s += "?" + pairs.joined(separator: "&") }
        return URL(string: s)!
    }
}
