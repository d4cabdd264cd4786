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
        try HeaderGuard.check(request.headers)
        try HeaderGuard.checkValue(userAgent, name: "User-Agent")
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidRequest("only http and https URLs are fetched")
        }
        let url = request.url.absoluteString
        guard !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw .invalidRequest("the URL holds spaces or control characters")
        }
        let route: ConnectionRoute
        do { route = try ConnectionRoute.plan(for: request.url, proxies: configuration.proxies) } catch {
            throw .invalidRequest(error.description)
        }
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
        var lines = ["Accept: application/json"]
        if request.method != .get {
            // No 100-continue round trip; no form content type for an empty body (curl's default).
            lines.append("Expect:")
            if !request.headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                lines.append(request.body == nil ? "Content-Type:" : "Content-Type: application/json")
            }
        }
        lines += request.headers.map { "\($0.name): \($0.value)" }
        for line in lines { headerList = curl_slist_append(headerList, line) }

        let context = Unmanaged.passUnretained(transfer).toOpaque()
        var setup = [
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
            mk_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList),
            mk_curl_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            mk_curl_setopt_write(handle, Transfer.onBody, context),
            mk_curl_setopt_header(handle, Transfer.onHeader, context),
            // Called while connecting too (body callbacks are not): a cancel stops a handshake.
            mk_curl_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
            mk_curl_setopt_ptr(
                handle, CURLOPT_XFERINFOFUNCTION, unsafeBitCast(Transfer.onProgress, to: UnsafeMutableRawPointer.self)),
            mk_curl_setopt_ptr(handle, CURLOPT_XFERINFODATA, context),
        ]
        let (routed, resolveList) = route.apply(to: handle)
        defer { curl_slist_free_all(resolveList) }
        setup.append(routed)
        switch request.method {
        case .get:
            setup.append(mk_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
        case .post:
            setup.append(mk_curl_setopt_long(handle, CURLOPT_POST, 1))
        default:
            setup.append(mk_curl_setopt_str(handle, CURLOPT_CUSTOMREQUEST, request.method.rawValue))
        }
        let body = request.body ?? (request.method == .get ? nil : Data())
        if let body {
            setup.append(mk_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, body.count))
            setup.append(
                body.withUnsafeBytes { raw in
                    // COPYPOSTFIELDS copies the bytes, so the buffer need not outlive this call.
                    mk_curl_setopt_ptr(
                        handle, CURLOPT_COPYPOSTFIELDS,
                        UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(errorBuffer)))
                })
        }
        if let failed = setup.first(where: { $0 != CURLE_OK }) {
            throw .transport("curl set-up failed: \(Curl.message(failed))")
        }

        let code = curl_easy_perform(handle)
        if code != CURLE_OK {
            if transfer.tooLarge || code == CURLE_FILESIZE_EXCEEDED {
                throw .responseTooLarge(limit: configuration.maxResponseBytes)
            }
            if transfer.cancelled { throw .transport("cancelled") }
            let detail = String(cString: errorBuffer)
            throw .transport(UntrustedText.clean(detail.isEmpty ? Curl.message(code) : detail))
        }
        var status = 0
        _ = mk_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        return HTTPResponse(status: status, headers: transfer.headers, body: transfer.body)
    }
}

/// What the curl callbacks fill in during one transfer (touched only by the transfer's thread).
private final class Transfer {
    var body = Data()
    var headers: [String: String] = [:]
    var tooLarge = false
    var cancelled = false
    let limit: Int
    let cancellation: CancellationFlag

    init(limit: Int, cancellation: CancellationFlag) {
        self.limit = limit
        self.cancellation = cancellation
    }

    /// Returning fewer bytes than offered makes curl abort with CURLE_WRITE_ERROR.
    static let onBody: mk_curl_data_cb = { ptr, size, count, context in
        let t = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
        let n = size * count
        if t.cancellation.isCancelled {
            t.cancelled = true
            return 0
        }
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
            context, _, _, _, _ in
            let t = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            guard t.cancellation.isCancelled else { return 0 }
            t.cancelled = true
            return 1
        }

    static let onHeader: mk_curl_data_cb = { ptr, size, count, context in
        let t = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
        let n = size * count
        if t.cancellation.isCancelled {
            t.cancelled = true
            return 0
        }
        guard let ptr, n > 0 else { return n }
        let line = String(decoding: UnsafeRawBufferPointer(start: ptr, count: n), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            t.headers = [:]  // a new response (after 100 Continue): forget the previous headers
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            t.headers[name] = UntrustedText.clean(value)
        }
        return n
    }
}
