import Foundation

/// Limits for one HTTP exchange. TLS verification is not a setting: it is always on.
public struct HTTPConfiguration: Sendable, Equatable {
    public var connectTimeout: Duration
    public var totalTimeout: Duration
    /// Largest response body accepted (after decompression); more is `APIError.responseTooLarge`.
    public var maxResponseBytes: Int
    /// The proxy variables (the environment's by default); see `ConnectionRoute`.
    public var proxies: ProxySettings

    public static let defaultMaxResponseBytes = 16 * 1024 * 1024

    public init(
        connectTimeout: Duration = .seconds(10), totalTimeout: Duration = .seconds(30),
        maxResponseBytes: Int = HTTPConfiguration.defaultMaxResponseBytes, proxies: ProxySettings = .fromProcess()
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxResponseBytes = maxResponseBytes
        self.proxies = proxies
    }

    var connectTimeoutMilliseconds: Int { Self.milliseconds(connectTimeout) }
    var totalTimeoutMilliseconds: Int { Self.milliseconds(totalTimeout) }

    private static func milliseconds(_ d: Duration) -> Int {
        let (s, atto) = d.components
        return max(1, Int(s) * 1000 + Int(atto / 1_000_000_000_000_000))
    }
}

public enum HTTPMethod: String, Sendable {
    case get = "GET"
    case post = "POST"
    case delete = "DELETE"
    case put = "PUT"
    case patch = "PATCH"
}

public struct HTTPRequest: Sendable {
    public var method: HTTPMethod
    public var url: URL
    /// Extra headers, in order. Names and values are checked for CR, LF and NUL before sending.
    public var headers: [(name: String, value: String)]
    public var body: Data?

    public init(method: HTTPMethod = .get, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names lowercased; a repeated header keeps its last value.
    public var headers: [String: String]
    public var body: Data
    /// When the request was sent and its `Date` header read, on this machine's clock (nil
    /// without a `Date` header): the span the server wrote its time in (`ServerClock`).
    public var dateSpan: (sent: Date, read: Date)?

    public init(status: Int, headers: [String: String], body: Data, dateSpan: (sent: Date, read: Date)? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.dateSpan = dateSpan
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
}
