import CCurlShim
import Foundation

/// One blocking HTTP exchange over libcurl. `perform` blocks its thread for up to the total
/// timeout: call it on a dedicated `Thread` (APIClient does), never on the cooperative pool or
/// the UI thread.
///
/// Fixed policy: TLS peer and host verification always on; redirects never followed (a custom
/// header such as the API key would follow them to another host; a 3xx is an error); only
/// http and https; proxies and loopback names as `ConnectionRoute` decides (shared with the
/// WebSocket); `Accept: application/json`; User-Agent `makima-tui/<version>`. Every transfer
/// is registered with `NetworkShutdown`, which can cancel it and waits for it at exit.
public struct HTTPTransport: Sendable {
    public var configuration: HTTPConfiguration
    public var userAgent: String

    public init(
        configuration: HTTPConfiguration = HTTPConfiguration(),
        userAgent: String = "makima-tui/\(MakimaVersion.current)"
    ) {
        self.configuration = configuration
        self.userAgent = userAgent
    }

    public func perform(_ request: HTTPRequest, cancellation: CancellationFlag? = nil) throws(APIError) -> HTTPResponse
    {
        let (url, route) = try checked(request)
        let flag = cancellation ?? CancellationFlag()
        guard let ticket = TransferRegistry.shared.enter(flag) else { throw .transport("cancelled: shutting down") }
        defer { TransferRegistry.shared.leave(ticket) }
        if flag.isCancelled { throw .transport("cancelled") }
        Curl.initializeOnce()
        guard let handle = curl_easy_init() else { throw .transport("could not create a curl handle") }
        defer { curl_easy_cleanup(handle) }

        let transfer = Transfer(limit: configuration.maxResponseBytes, cancellation: flag)
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for line in Self.headerLines(for: request) { headerList = curl_slist_append(headerList, line) }

        var setup = setPolicy(on: handle, url: url, headers: headerList, errorBuffer: errorBuffer, transfer: transfer)
        let (routed, resolveList) = route.apply(to: handle)
        defer { curl_slist_free_all(resolveList) }
        setup.append(routed)
        setup += Self.setMethod(of: request, on: handle, spareBytes: errorBuffer)
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            throw .transport("curl set-up failed: \(Curl.message(failed))")
        }

        let sent = Date()
        let code = curl_easy_perform(handle)
        if code != CURLE_OK { throw failure(code, transfer: transfer, errorBuffer: errorBuffer) }
        var status = 0
        _ = mk_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(
            status: status, headers: transfer.headers, body: transfer.body,
            dateSpan: transfer.dateReadAt.map { (sent, $0) })
    }

    /// The request's URL as curl takes it, and its route, once the request is known to be one
    /// this transport sends: safe headers, http or https, no spaces or control characters.
    private func checked(_ request: HTTPRequest) throws(APIError) -> (url: String, route: ConnectionRoute) {
        try HeaderGuard.check(request.headers)
        try HeaderGuard.checkValue(userAgent, name: "User-Agent")
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidRequest("only http and https URLs are fetched")
        }
        let url = request.url.absoluteString
        guard !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw .invalidRequest("the URL holds spaces or control characters")
        }
        do { return (url, try ConnectionRoute.plan(for: request.url, proxies: configuration.proxies)) } catch {
            throw .invalidRequest(error.description)
        }
    }

    /// `Accept`, the request's own headers, and for a request with a body no 100-continue
    /// round trip and no form content type for an empty body (curl's default).
    private static func headerLines(for request: HTTPRequest) -> [String] {
        var lines = ["Accept: application/json"]
        if request.method != .get {
            lines.append("Expect:")
            if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                lines.append(request.body == nil ? "Content-Type:" : "Content-Type: application/json")
            }
        }
        return lines + request.headers.map { "\($0.name): \($0.value)" }
    }

    /// The fixed policy (see the type's comment), the limits, and the callbacks that fill
    /// `transfer`; one result per option.
    private func setPolicy(
        on handle: UnsafeMutableRawPointer, url: String, headers: UnsafeMutablePointer<curl_slist>?,
        errorBuffer: UnsafeMutablePointer<CChar>, transfer: Transfer
    ) -> [CURLcode] {
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        return [
            mk_curl_setopt_str(handle, CURLOPT_URL, url),
            mk_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            mk_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            mk_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
            mk_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            mk_curl_setopt_str(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            mk_curl_setopt_str(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            mk_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, configuration.connectTimeoutMilliseconds),
            mk_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, configuration.totalTimeoutMilliseconds),
            mk_curl_setopt_long(handle, CURLOPT_MAXFILESIZE, configuration.maxResponseBytes),
            mk_curl_setopt_str(handle, CURLOPT_USERAGENT, userAgent),
            mk_curl_setopt_str(handle, CURLOPT_ACCEPT_ENCODING, ""),
            mk_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headers),
            mk_curl_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            mk_curl_setopt_write(handle, Transfer.onBody, context),
            mk_curl_setopt_header(handle, Transfer.onHeader, context),
            // Called while connecting too (body callbacks are not): a cancel stops a handshake.
            mk_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
            mk_curl_setopt_ptr(
                handle, CURLOPT_XFERINFOFUNCTION, unsafeBitCast(Transfer.onProgress, to: UnsafeMutableRawPointer.self)),
            mk_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, context),
        ]
    }

    /// The method, and the body (an empty one for a request other than GET that has none).
    /// `spareBytes` stands in for the bytes of an empty body (curl copies none of them).
    private static func setMethod(
        of request: HTTPRequest, on handle: UnsafeMutableRawPointer, spareBytes: UnsafeMutablePointer<CChar>
    ) -> [CURLcode] {
        var setup: [CURLcode]
        switch request.method {
        case .get: setup = [mk_curl_setopt_long(handle, CURLOPT_HTTPGET, 1)]
        case .post: setup = [mk_curl_setopt_long(handle, CURLOPT_POST, 1)]
        default: setup = [mk_curl_setopt_str(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue)]
        }
        guard let body = request.body ?? (request.method == .get ? nil : Data()) else { return setup }
        setup.append(mk_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count))
        setup.append(
            body.withUnsafeBytes { raw in
                // COPYPOSTFIELDS copies the bytes, so the buffer need not outlive this call.
                mk_curl_setopt_ptr(
                    handle, CURLOPT_COPYPOSTFIELDS,
                    UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(spareBytes)))
            })
        return setup
    }

    /// The error a failed `curl_easy_perform` is reported as.
    private func failure(_ code: CURLcode, transfer: Transfer, errorBuffer: UnsafeMutablePointer<CChar>) -> APIError {
        if transfer.tooLarge || code == CURLE_FILESIZE_EXCEEDED {
            return .responseTooLarge(limit: configuration.maxResponseBytes)
        }
        if transfer.cancelled { return .transport("cancelled") }
        let detail = String(cString: errorBuffer)
        return .transport(UntrustedText.clean(detail.isEmpty ? Curl.message(code) : detail))
    }
}

/// What the curl callbacks fill in during one transfer (touched only by the transfer's thread).
private final class Transfer {
    var body = Data()
    var headers: [String: String] = [:]
    /// When the `Date` header was read (the server's clock is measured against it).
    var dateReadAt: Date?
    var tooLarge = false
    var cancelled = false
    let limit: Int
    let cancellation: CancellationFlag

    init(limit: Int, cancellation: CancellationFlag) {
        self.limit = limit
        self.cancellation = cancellation
    }

    /// The transfer a callback's context points to, or nil (noting it) once it is cancelled.
    private static func uncancelled(_ context: UnsafeMutableRawPointer?) -> Transfer? {
        let t = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
        if t.cancellation.isCancelled {
            t.cancelled = true
            return nil
        }
        return t
    }

    /// Returning fewer bytes than offered makes curl abort with CURLE_WRITE_ERROR.
    static let onBody: mk_curl_data_cb = { ptr, size, count, context in
        let n = size * count
        guard let t = Transfer.uncancelled(context) else { return 0 }
        if t.body.count + n > t.limit {
            t.tooLarge = true
            return 0
        }
        if let ptr, n > 0 { t.body.append(UnsafeRawPointer(ptr).assumingMemoryBound(to: UInt8.self), count: n) }
        return n
    }

    /// Non-zero aborts the transfer (CURLE_ABORTED_BY_CALLBACK).
    static let onProgress:
        @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> Int32 = {
            context, _, _, _, _ in Transfer.uncancelled(context) == nil ? 1 : 0
        }

    static let onHeader: mk_curl_data_cb = { ptr, size, count, context in
        let n = size * count
        guard let t = Transfer.uncancelled(context) else { return 0 }
        guard let ptr, n > 0 else { return n }
        let line = String(decoding: UnsafeRawBufferPointer(start: ptr, count: n), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            t.headers = [:]  // a new response (after 100 Continue): forget the previous headers
            t.dateReadAt = nil
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            t.headers[name] = UntrustedText.clean(value)
            if name == "date" { t.dateReadAt = Date() }
        }
        return n
    }
}
