import CCurlShim

/// International domain names (IDNA 2008 with the Unicode TR46 mappings), through libidn2:
/// `bücher.example` is `xn--bcher-kva.example` on the wire and on screen (a name in punycode
/// cannot hide a look-alike letter). libidn2 converts from UTF-8 whatever the locale.
enum IDNA {
    /// Why a name is not a valid domain name, in libidn2's words.
    struct Refusal: Error {
        let reason: String
    }

    /// The ASCII (punycode) form of `host`, or why it is not a valid domain name. ASCII
    /// labels pass through unchanged except `xn--` ones, which must decode.
    static func toASCII(_ host: String) -> Result<String, Refusal> {
        var status: Int32 = 0
        guard let out = mk_idn2_to_ascii(host, &status) else {
            return .failure(Refusal(reason: String(cString: mk_idn2_strerror(status))))
        }
        defer { mk_idn2_free(out) }
        return .success(String(cString: out))
    }
}
