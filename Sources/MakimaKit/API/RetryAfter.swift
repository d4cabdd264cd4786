import Foundation

/// The `Retry-After` header of a 429 or 503 (RFC 9110 10.2.3): delay-seconds or an HTTP-date.
/// The value comes from the server, so it is bounded: nothing negative, nothing past a day,
/// and an unreadable value counts as absent.
public enum RetryAfter {
    public static let maxSeconds: TimeInterval = 86_400

    public static func seconds(_ raw: String?, now: Date = Date()) -> TimeInterval? {
        guard let raw = raw?.trimmingCharacters(in: .whitespaces), !raw.isEmpty, raw.count <= 64 else { return nil }
        if raw.allSatisfy({ $0.isASCII && $0.isNumber }) {
            // More than 9 digits is already past the cap; don't let Int parsing overflow.
            guard raw.count <= 9, let n = Int(raw) else { return maxSeconds }
            return min(TimeInterval(n), maxSeconds)
        }
        // A formatter per call: the header is rare, and DateFormatter is not thread-safe.
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = f.date(from: raw) else { return nil }
        return min(max(0, date.timeIntervalSince(now)), maxSeconds)
    }
}
