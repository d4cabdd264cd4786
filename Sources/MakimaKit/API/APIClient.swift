import Foundation

/// The Makima REST API for one server profile and key.
///
/// Every call runs its request on a new dedicated `Thread` (the blocking libcurl transfer never
/// touches the cooperative pool or the caller's thread) and resumes the caller when done.
/// Cancelling the calling task resumes it at once with `CancellationError`; the transfer stops
/// at its next callback or at the timeout. Calls throw `APIError` (or `CancellationError`).
/// A `.unauthorized` error should be reported to `AuthStore.handleUnauthorized()` by whoever
/// drives the UI.
public final class APIClient: Sendable {
    public let profile: ServerProfile
    public let transport: HTTPTransport
    /// The server's clock against ours, measured from every response's `Date` header (and, by
    /// the sync engine, from live events).
    public let serverClock: ServerClock
    private let key: APIKey
    /// Stops this client's blocking transfers (`sendBlocking`) at their next callback when set.
    private let blockingCancellation: CancellationFlag?

    public init(
        profile: ServerProfile, key: APIKey, transport: HTTPTransport = HTTPTransport(),
        serverClock: ServerClock = ServerClock(), blockingCancellation: CancellationFlag? = nil
    ) {
        self.profile = profile
        self.key = key
        self.blockingCancellation = blockingCancellation
        self.transport = transport
        self.serverClock = serverClock
        // From here on the key is masked in any server text that holds it.
        ArrivalMask.add(key)
    }

    /// This client, its blocking transfers stopped when `flag` is cancelled: for a group of
    /// blocking reads on threads of their own that must all end when one fails.
    public func cancelled(by flag: CancellationFlag) -> APIClient {
        APIClient(
            profile: profile, key: key, transport: transport, serverClock: serverClock, blockingCancellation: flag)
    }

    /// Sends `method` to `<api base>/<segments…>?query` with the key header and maps the status.
    /// A 2xx response is returned as is; anything else is thrown as `APIError`.
    public func send(
        _ method: HTTPMethod, _ segments: [String], query: [(String, String?)] = [],
        body: Data? = nil, base: URL? = nil
    ) async throws -> HTTPResponse {
        let request = try makeRequest(method, segments, query: query, body: body, base: base)
        return try checked(try await Self.run(request, on: transport))
    }

    /// As `send`, but performed on the calling thread: for the sync engine's own threads only
    /// (never the UI thread or the cooperative pool).
    public func sendBlocking(
        _ method: HTTPMethod, _ segments: [String], query: [(String, String?)] = [],
        body: Data? = nil, base: URL? = nil
    ) throws -> HTTPResponse {
        let request = try makeRequest(method, segments, query: query, body: body, base: base)
        return try checked(try transport.perform(request, cancellation: blockingCancellation))
    }

    /// `get` of an `Endpoint`.
    public func get<T: Decodable>(_ type: T.Type, _ endpoint: Endpoint, base: URL? = nil) async throws -> T {
        try await get(type, endpoint.segments, query: endpoint.query, base: base)
    }

    /// As `get`, on the calling thread (see `sendBlocking`).
    public func getBlocking<T: Decodable>(_ type: T.Type, _ endpoint: Endpoint) throws -> T {
        try decode(type, from: try sendBlocking(.get, endpoint.segments, query: endpoint.query).body)
    }

    private func makeRequest(
        _ method: HTTPMethod, _ segments: [String], query: [(String, String?)],
        body: Data?, base: URL?
    ) throws -> HTTPRequest {
        if profile.baseURL.scheme == "http" && !profile.allowInsecureHTTP && !profile.isLoopback {
            throw APIError.insecureHTTPRefused(host: profile.baseURL.host ?? "")
        }
        if segments.contains(where: \.isEmpty) { throw APIError.invalidRequest("an empty id in the path") }
        let url = APIURL.make(base: base ?? profile.apiBaseURL, segments: segments, query: query)
        return HTTPRequest(method: method, url: url, headers: [("x-makima-api-key", key.secret)], body: body)
    }

    /// Measures the clock on every answer (an error's `Date` is as good), then maps the status.
    private func checked(_ response: HTTPResponse) throws -> HTTPResponse {
        if let span = response.dateSpan {
            serverClock.noteDateHeader(response.headers["date"], sent: span.sent, received: span.read)
        }
        if let error = Self.error(for: response, masking: key) { throw error.redacting(key) }
        return response
    }

    /// GET and decode with the tolerant decoder; decoding failures name the field.
    public func get<T: Decodable>(
        _ type: T.Type, _ segments: [String], query: [(String, String?)] = [],
        base: URL? = nil
    ) async throws -> T {
        let response = try await send(.get, segments, query: query, base: base)
        return try decode(type, from: response.body)
    }

    func decode<T: Decodable>(_ type: T.Type, from body: Data) throws -> T {
        do { return try MakimaJSON.decode(type, from: body) } catch {
            throw APIError.describe(error, decoding: type, masking: key).redacting(key)
        }
    }

    /// The error a response stands for, or nil for 2xx; `key` is masked in the server's message.
    public static func error(for response: HTTPResponse, masking key: APIKey? = nil) -> APIError? {
        switch response.status {
        case 200..<300: return nil
        case 401, 403: return .unauthorized(status: response.status)
        case 404: return .notFound
        case 429, 503:
            let message = APIError.serverMessage(from: response.body, masking: key)
            guard let after = RetryAfter.seconds(response.headers["retry-after"]) else {
                return .http(status: response.status, message: message)
            }
            return .throttled(status: response.status, retryAfter: after, message: message)
        default:
            return .http(status: response.status, message: APIError.serverMessage(from: response.body, masking: key))
        }
    }

    /// Runs one blocking transfer on a dedicated thread and awaits it.
    public static func run(_ request: HTTPRequest, on transport: HTTPTransport) async throws -> HTTPResponse {
        try Task.checkCancellation()
        let flag = CancellationFlag()
        let once = ResumeOnce<HTTPResponse>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                once.attach(continuation)
                let worker = Thread {
                    let result: Result<HTTPResponse, Error>
                    do { result = .success(try transport.perform(request, cancellation: flag)) } catch {
                        result = .failure(error)
                    }
                    once.resume(with: result)
                }
                worker.name = "makima-http"
                worker.start()
            }
        } onCancel: {
            flag.cancel()
            once.resume(with: .failure(CancellationError()))
        }
    }
}
