import CCurlShim
import Foundation

/// How libcurl reaches a server, decided in one place for REST (`HTTPTransport`) and the
/// WebSocket (`WebSocketTransport`) so the two can never disagree:
///
/// - Loopback hosts are never proxied, and loopback *names* (`localhost`, `localhost.`,
///   `*.localhost`) are resolved here to 127.0.0.1 and ::1 (`CURLOPT_RESOLVE`), never through
///   DNS: they are what allows plain http and skips the proxy, so a resolver must not be able
///   to send them elsewhere.
/// - Other hosts use the proxy the environment names, unless `no_proxy` exempts them.
/// - Plain http through a proxy is refused: the proxy would read the API key in the request
///   (REST) or the upgrade (WebSocket, even inside a CONNECT tunnel). https through a proxy is a
///   CONNECT tunnel the proxy cannot read.
struct ConnectionRoute: Equatable {
    /// The proxy URL, or nil to connect directly (a proxy in the environment is then ignored).
    var proxy: String?
    /// `CURLOPT_RESOLVE` entries (`host:port:addresses`).
    var resolve: [String]

    /// Why a URL may not be fetched the way the environment would have it.
    struct Refusal: Error, Equatable, CustomStringConvertible {
        let host: String
        let proxy: String
        var description: String {
            "plain http:// to \(host) through the proxy \(ConnectionRoute.proxyHost(proxy)) is refused: the proxy would "
                + "read the API key (use https://, or list the host in no_proxy)"
        }
    }

    static func plan(scheme rawScheme: String, host rawHost: String, port: Int?, proxies: ProxySettings)
        throws(Refusal) -> ConnectionRoute
    {
        let scheme = rawScheme.lowercased()
        let host = rawHost.lowercased()
        if ServerURL.isLoopback(host: host) {
            let isName = host.contains(where: \.isLetter) && !host.hasPrefix("[") && !host.contains(":")
            let portNumber = port ?? (scheme == "https" ? 443 : 80)
            return ConnectionRoute(proxy: nil, resolve: isName ? ["\(host):\(portNumber):127.0.0.1,[::1]"] : [])
        }
        guard let proxy = proxies.proxy(scheme: scheme, host: host) else {
            return ConnectionRoute(proxy: nil, resolve: [])
        }
        if scheme != "https" { throw Refusal(host: host, proxy: proxy) }
        return ConnectionRoute(proxy: proxy, resolve: [])
    }

    static func plan(for url: URL, proxies: ProxySettings) throws(Refusal) -> ConnectionRoute {
        try plan(scheme: url.scheme ?? "", host: url.host ?? "", port: url.port, proxies: proxies)
    }

    /// Sets the proxy and resolve options on `handle`. The returned list must outlive the
    /// transfer (free it with `curl_slist_free_all` after `curl_easy_perform`).
    func apply(to handle: UnsafeMutableRawPointer) -> (CURLcode, UnsafeMutablePointer<curl_slist>?) {
        var list: UnsafeMutablePointer<curl_slist>?
        for entry in resolve { list = curl_slist_append(list, entry) }
        // An empty CURLOPT_PROXY turns off the environment's proxy for this handle.
        var rc = mk_curl_setopt_str(handle, CURLOPT_PROXY, proxy ?? "")
        if rc == CURLE_OK, proxy == nil { rc = mk_curl_setopt_str(handle, CURLOPT_NOPROXY, "*") }
        if rc == CURLE_OK, list != nil { rc = mk_curl_setopt_slist(handle, CURLOPT_RESOLVE, list) }
        return (rc, list)
    }

    /// The proxy's host and port only: a proxy URL may hold a user name and password.
    static func proxyHost(_ proxy: String) -> String {
        let withScheme = proxy.contains("://") ? proxy : "http://" + proxy
        guard let parts = URLComponents(string: withScheme), let host = parts.host else { return "(unparsable)" }
        return UntrustedText.clean(parts.port.map { "\(host):\($0)" } ?? host)
    }
}
