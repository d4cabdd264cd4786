import CCurlShim
import Foundation

/// An HTTP-date (RFC 9110 5.6.7: `Sun, 06 Nov 1994 08:49:37 GMT` and the two obsolete forms),
/// read by libcurl's own parser (`curl_getdate`, thread-safe and allocation-free: a `Date`
/// header arrives with every response, where a `DateFormatter` per call would cost more than
/// the rest of reading the headers). Whole seconds only, as the format has.
public enum HTTPDate {
    /// Longer than any HTTP-date: a longer header is not one.
    static let maxLength = 64

    public static func parse(_ raw: String?) -> Date? {
        guard let raw = raw?.trimmingCharacters(in: .whitespaces), !raw.isEmpty, raw.utf8.count <= maxLength,
            raw.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { return nil }
        let seconds = curl_getdate(raw, nil)
        // -1 is curl's "unreadable" (and one second before 1970, which no server means).
        guard seconds != -1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
