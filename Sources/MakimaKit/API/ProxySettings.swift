import Foundation

/// The proxy variables libcurl would read from the environment (`http_proxy`, `https_proxy`,
/// `all_proxy`, `no_proxy`), read once so that REST and the WebSocket follow one policy
/// (`ConnectionRoute`) instead of each letting libcurl decide on its own.
///
/// As in libcurl, plain-http requests read only the lowercase `http_proxy` (an upper-case
/// `HTTP_PROXY` can be set by a CGI request header); the other names are read in either case,
/// lowercase first.
public struct ProxySettings: Sendable, Equatable {
    public var httpProxy: String?
    public var httpsProxy: String?
    public var allProxy: String?
    /// Comma- or space-separated host names, domains (`.example.com` or `example.com`), IP
    /// addresses and IPv4 ranges (`10.0.0.0/8`); `*` alone means no proxy for any host.
    public var noProxy: String?

    public init(httpProxy: String? = nil, httpsProxy: String? = nil, allProxy: String? = nil, noProxy: String? = nil) {
        self.httpProxy = httpProxy
        self.httpsProxy = httpsProxy
        self.allProxy = allProxy
        self.noProxy = noProxy
    }

    /// No proxy for anything.
    public static let none = ProxySettings()

    public static func from(environment env: [String: String]) -> ProxySettings {
        func read(_ names: String...) -> String? {
            for name in names {
                if let v = env[name]?.trimmingCharacters(in: .whitespaces), !v.isEmpty { return v }
            }
            return nil
        }
        return ProxySettings(
            httpProxy: read("http_proxy"), httpsProxy: read("https_proxy", "HTTPS_PROXY"),
            allProxy: read("all_proxy", "ALL_PROXY"), noProxy: read("no_proxy", "NO_PROXY"))
    }

    /// This process's environment.
    public static func fromProcess() -> ProxySettings { from(environment: ProcessInfo.processInfo.environment) }

    /// The proxy for a URL of `scheme` to `host`, before the loopback rule: nil when none is
    /// set or `no_proxy` names the host.
    func proxy(scheme: String, host: String) -> String? {
        let chosen = (scheme == "https" ? httpsProxy : httpProxy) ?? allProxy
        guard let chosen else { return nil }
        return Self.isExempt(host: host, noProxy: noProxy ?? "") ? nil : chosen
    }

    /// libcurl's `no_proxy` matching: an entry matches the host itself or any name under it.
    static func isExempt(host raw: String, noProxy: String) -> Bool {
        var host = raw.lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        while host.hasSuffix(".") { host.removeLast() }
        let entries = noProxy.lowercased().split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" })
        for entry in entries.map(String.init) {
            if entry == "*" { return true }
            if entry.contains("/") {
                if IPv4Range(entry)?.contains(host) == true { return true }
                continue
            }
            var name = entry
            if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
            while name.hasPrefix(".") { name.removeFirst() }
            while name.hasSuffix(".") { name.removeLast() }
            guard !name.isEmpty else { continue }
            if host == name || host.hasSuffix("." + name) { return true }
        }
        return false
    }
}

/// An IPv4 range in CIDR form, as `no_proxy` may list one.
private struct IPv4Range {
    let network: UInt32
    let mask: UInt32

    init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let bits = Int(parts[1]), (0...32).contains(bits),
            let address = Self.parse(String(parts[0]))
        else { return nil }
        mask = bits == 0 ? 0 : UInt32.max << UInt32(32 - bits)
        network = address & mask
    }

    func contains(_ host: String) -> Bool {
        guard let address = Self.parse(host) else { return false }
        return address & mask == network
    }

    static func parse(_ s: String) -> UInt32? {
        let octets = s.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return nil }
        var value: UInt32 = 0
        for octet in octets {
            guard !octet.isEmpty, octet.count <= 3, octet.allSatisfy(\.isASCII), let n = UInt32(octet), n <= 255 else {
                return nil
            }
            value = value << 8 | n
        }
        return value
    }
}
