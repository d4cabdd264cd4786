/// Refuses header names and values that could split or smuggle a header (CR, LF, NUL), even
/// though `APIKey` already restricts its characters: the transport does not trust its callers.
enum HeaderGuard {
    static func check(_ headers: [(name: String, value: String)]) throws(APIError) {
        for h in headers {
            guard !h.name.isEmpty, h.name.unicodeScalars.allSatisfy(isTokenCharacter) else {
                throw .invalidRequest("header name '\(UntrustedText.clean(h.name).prefix(40))' is not a valid token")
            }
            try checkValue(h.value, name: h.name)
        }
    }

    static func checkValue(_ value: String, name: String) throws(APIError) {
        if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            throw .invalidRequest("header \(name) holds CR, LF or NUL (header injection)")
        }
    }

    private static func isTokenCharacter(_ v: Unicode.Scalar) -> Bool {
        (v >= "a" && v <= "z") || (v >= "A" && v <= "Z") || (v >= "0" && v <= "9")
            || "!#$%&'*+-.^_`|~".unicodeScalars.contains(v)
    }
}
