import Foundation

/// Why a server address was not accepted. Messages are written for the person who typed it.
public enum ServerURLError: Error, Equatable, Sendable, CustomStringConvertible {
    case empty
    case invalid(String)
    case unsupportedScheme(String)
    case insecureHTTPRefused(host: String)

    public var description: String {
        switch self {
        case .empty: return "server URL is empty"
        case .invalid(let why): return "server URL is not valid: \(why)"
        case .unsupportedScheme(let s): return "server URL scheme '\(s)' is not supported (use https:// or http://)"
        case .insecureHTTPRefused(let host):
            return
                "plain http:// is refused for \(host) (not a loopback host); use https:// or pass --allow-insecure-http"
        }
    }
}

/// Turns what a person typed into the canonical base URL of a Makima server.
///
/// Rules: surrounding whitespace trimmed; `https://` added when no scheme is given; scheme and
/// host lowercased; trailing slashes, query and fragment are not allowed to linger (slashes are
/// stripped, a query, fragment or user info is an error: none has a meaning for a base URL).
/// Plain `http://` is accepted only for loopback hosts unless `allowInsecureHTTP` is set.
/// An international host name is accepted and kept (and shown) as punycode.
public enum ServerURL {
    public static func normalize(_ raw: String, allowInsecureHTTP: Bool = false) throws(ServerURLError) -> URL {
        let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { throw .empty }
        if let bad = trimmed.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\\" }) {
            throw .invalid(
                bad == " "
                    ? "it contains a space"
                    : "it contains a character that is not allowed (U+\(String(bad.value, radix: 16, uppercase: true)))"
            )
        }
        let withScheme = try asciiHost(in: trimmed.contains("://") ? trimmed : "https://" + trimmed)
        guard var comps = URLComponents(string: withScheme) else { throw .invalid("it is not a URL") }
        guard let scheme = comps.scheme?.lowercased() else { throw .invalid("it has no scheme") }
        guard scheme == "https" || scheme == "http" else { throw .unsupportedScheme(scheme) }
        // The host as sent (punycode stays punycode: `host` would decode it back to Unicode).
        guard let rawHost = comps.encodedHost, !rawHost.isEmpty else { throw .invalid("it has no host") }
        if comps.user != nil || comps.password != nil {
            throw .invalid("user names or passwords do not belong in the server URL")
        }
        if comps.query != nil { throw .invalid("a query (?…) does not belong in the server URL") }
        if comps.fragment != nil { throw .invalid("a fragment (#…) does not belong in the server URL") }
        let host = rawHost.lowercased()
        guard isValidHost(host) else { throw .invalid("'\(host)' is not a host name") }
        try checkPort(comps, in: withScheme)
        if scheme == "http" && !allowInsecureHTTP && !isLoopback(host: host) {
            throw .insecureHTTPRefused(host: host)
        }
        comps.scheme = scheme
        comps.encodedHost = host
        var path = comps.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        comps.percentEncodedPath = path
        guard let url = comps.url else { throw .invalid("it is not a URL") }
        return url
    }

    /// The port as typed: digits only, 1 to 65535. URLComponents gives no port at all for one
    /// too large for an Int, so the text is checked rather than the number.
    private static func checkPort(_ comps: URLComponents, in url: String) throws(ServerURLError) {
        guard let range = comps.rangeOfPort else { return }
        let text = url[range]
        guard !text.isEmpty, text.count <= 5, text.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(text),
            (1...65535).contains(port)
        else { throw .invalid("port \(text.prefix(12)) is out of range (1 to 65535)") }
    }

    /// `url` with its host in ASCII: an international name (`bücher.example`) becomes its
    /// punycode (`xn--bcher-kva.example`), and a punycode label must decode (`IDNA`). A host
    /// holding a character that draws nothing (a zero-width space) is refused, not mapped away.
    private static func asciiHost(in url: String) throws(ServerURLError) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostStart = authority.lastIndex(of: "@").map { authority.index(after: $0) } ?? authority.startIndex
        let hostAndPort = authority[hostStart...]
        if hostAndPort.hasPrefix("[") { return url }
        let host = hostAndPort.prefix { $0 != ":" }
        let isPunycode = host.lowercased().split(separator: ".").contains { $0.hasPrefix("xn--") }
        guard host.unicodeScalars.contains(where: { !$0.isASCII }) || isPunycode else { return url }
        if let hidden = host.unicodeScalars.first(where: SecretMask.drawsNothing) {
            throw .invalid(
                "the host holds an invisible character (U+\(String(hidden.value, radix: 16, uppercase: true)))")
        }
        switch IDNA.toASCII(String(host)) {
        case .success(let ascii): return url.replacingCharacters(in: host.startIndex..<host.endIndex, with: ascii)
        case .failure(let why): throw .invalid("'\(host)' is not a valid international domain name (\(why.reason))")
        }
    }

    /// 127.0.0.0/8, ::1, localhost and names under it (with or without the trailing dot) are
    /// loopback. The transports resolve these names themselves, never through DNS
    /// (`ConnectionRoute`), so a resolver cannot send "loopback" traffic elsewhere.
    public static func isLoopback(host raw: String) -> Bool {
        var host = raw.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        if name == "localhost" || (name.hasSuffix(".localhost") && !name.hasPrefix(".")) { return true }
        if host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        let octets = parts.compactMap { p -> Int? in
            guard !p.isEmpty, p.count <= 3, p.allSatisfy(\.isASCII), let n = Int(p), (0...255).contains(n) else {
                return nil
            }
            return n
        }
        return octets.count == 4 && octets[0] == 127
    }

    /// A DNS name, an IPv4 address, or a bracketed IPv6 literal (URLComponents keeps the brackets).
    private static func isValidHost(_ host: String) -> Bool {
        if host.hasPrefix("[") {
            return host.hasSuffix("]")
                && host.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        guard host.count <= 253 else { return false }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        for (i, label) in labels.enumerated() {
            if label.isEmpty { if i == labels.count - 1 && i > 0 { continue } else { return false } }
            guard label.count <= 63, !label.hasPrefix("-"), !label.hasSuffix("-") else { return false }
            guard
                label.unicodeScalars.allSatisfy({
                    ($0 >= "a" && $0 <= "z") || ($0 >= "0" && $0 <= "9") || $0 == "-" || $0 == "_"
                })
            else { return false }
        }
        return true
    }
}
