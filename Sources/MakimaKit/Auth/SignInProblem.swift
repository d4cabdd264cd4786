import Foundation

/// Why signing in (onboarding, `login`, a re-entered key, key rotation) did not work, in words
/// a person can act on. Onboarding stays on the step the problem belongs to (`step`).
public enum SignInProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// The address cannot be a server URL (the reason says why).
    case invalidAddress(String)
    /// Plain http:// to a host that is not loopback: allowed only once the user confirms
    /// insecure mode (`allowInsecureHTTP: true`).
    case insecureHTTPNeedsConfirmation(host: String)
    case unreachable(host: String, reason: String)
    case certificateInvalid(host: String, reason: String)
    case notMakimaServer(host: String, reason: String)
    /// A bare `host:port` was tried as https and the server speaks plain HTTP there.
    case plainHTTPOnly(host: String, loopback: Bool)
    /// The key as typed is not a Makima key (prefix, length, characters).
    case invalidKey(String)
    case wrongKey
    case keyRevoked
    /// The server answered with an error that is none of the above (5xx, …).
    case server(String)
    /// The key or config file could not be written (nothing was changed).
    case local(String)
    /// The key in use comes from MAKIMA_API_KEY: nothing on disk to rotate or remove.
    case keyFromEnvironment

    public enum Step: Sendable, Equatable { case server, key }

    /// The onboarding step that can fix the problem.
    public var step: Step {
        switch self {
        case .invalidAddress, .insecureHTTPNeedsConfirmation, .unreachable, .certificateInvalid, .notMakimaServer,
            .plainHTTPOnly:
            return .server
        case .invalidKey, .wrongKey, .keyRevoked, .server, .local, .keyFromEnvironment: return .key
        }
    }

    public var description: String {
        switch self {
        case .invalidAddress(let why): return why
        case .insecureHTTPNeedsConfirmation(let host):
            return "\(host) is not on this machine and plain http:// would send the key unencrypted; "
                + "use https:// or confirm insecure mode"
        case .unreachable(let host, let reason): return "cannot reach \(host): \(reason)"
        case .certificateInvalid(let host, let reason):
            return "the TLS certificate of \(host) is not valid (\(reason))"
        case .notMakimaServer(let host, let reason): return "\(host) does not look like a Makima server (\(reason))"
        case .plainHTTPOnly(let host, let loopback):
            return "\(host) answers plain HTTP, not HTTPS: use http://\(host)"
                + (loopback
                    ? "" : " (not on this machine: that also needs --allow-insecure-http, or Ctrl-Y at sign-in)")
        case .invalidKey(let why): return "not an API key: \(why)"
        case .wrongKey: return "the server did not accept this key; check that it was copied whole"
        case .keyRevoked: return "this key has been revoked; make a new one in the web settings"
        case .server(let message): return message
        case .local(let message): return message
        case .keyFromEnvironment:
            return "the key comes from MAKIMA_API_KEY; change it there (nothing is stored to rotate or remove)"
        }
    }

    /// The problem an error from an address check or a request stands for. `revoked` is what
    /// the server said in a 401 (see `SignInProbe`), when that was read.
    public static func classify(_ error: Error, host: String, revoked: Bool = false) -> SignInProblem {
        switch error {
        case let p as SignInProblem: return p
        case let e as ServerURLError:
            if case .insecureHTTPRefused(let h) = e { return .insecureHTTPNeedsConfirmation(host: h) }
            return .invalidAddress(e.description)
        case let e as ConfigError:
            if e == .keyFromEnvironment { return .keyFromEnvironment }
            return .local(e.description)
        case let e as APIError:
            switch e {
            case .unauthorized: return revoked ? .keyRevoked : .wrongKey
            case .transport(let reason):
                return isCertificateFailure(reason)
                    ? .certificateInvalid(host: host, reason: reason) : .unreachable(host: host, reason: reason)
            case .insecureHTTPRefused(let h): return .insecureHTTPNeedsConfirmation(host: h)
            case .notFound: return .notMakimaServer(host: host, reason: "the Makima API is not there (HTTP 404)")
            case .decoding(let m): return .notMakimaServer(host: host, reason: m)
            default: return .server(e.description)
            }
        default:
            return .server(String(describing: error))
        }
    }

    /// libcurl reports certificate failures only in words ("SSL certificate problem: …",
    /// "SSL: no alternative certificate subject name matches …", "SSL peer certificate … was
    /// not OK"); the error code is not kept by the transport.
    static func isCertificateFailure(_ reason: String) -> Bool {
        let r = reason.lowercased()
        return r.contains("certificate") || r.contains("ssl peer")
    }
}
