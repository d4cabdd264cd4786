/// Opening a link from a task's output (`:open N`, a click) or the web settings page in the
/// operator's browser: `xdg-open URL` through the program's `ChildLauncher` (clean
/// environment, no descriptor of ours, one child at a time, killed after `timeout`).
///
/// Only `http` and `https` are opened (`ExternalLink`): xdg-open hands any other scheme to
/// whatever program the desktop registered for it, and those act on what the link says:
/// `mailto:…?attach=` makes a mail client attach a local file (the stored key among them) to a
/// draft, `file:` opens local files (a `.desktop` file runs its command), `javascript:` and
/// custom schemes start handlers with arguments of the server's choosing. A web page is the
/// one thing a link from a task may lead to; anything else is refused with its scheme named.
public struct LinkOpener: Sendable {
    /// What became of an asked opening.
    public enum Outcome: Sendable, Equatable {
        /// Handed to xdg-open (it starts when the children before it are done).
        case opening
        /// The same link is already being opened (or waits to be): not opened twice.
        case alreadyOpening
        /// Too many openings wait: this one is dropped.
        case busy
        /// Not a web link: its scheme (letters, digits, `+-.`, short), or "" when it has none.
        case refused(scheme: String)
        /// A web link `ExternalLink.clean` does not let out (a control or space in it, no host,
        /// too long).
        case malformed
        /// No xdg-open on the PATH.
        case noOpener
    }

    /// Seconds xdg-open is given; past them it (and what it started) is killed.
    public static let timeout = 10.0

    public let launcher: ChildLauncher

    public init(launcher: ChildLauncher) { self.launcher = launcher }

    public func open(_ url: String) -> Outcome {
        let scheme = ExternalLink.scheme(of: url) ?? ""
        guard ExternalLink.allowedSchemes.contains(scheme.lowercased()) else { return .refused(scheme: scheme) }
        guard let clean = ExternalLink.clean(url) else { return .malformed }
        guard let opener = launcher.executable("xdg-open") else { return .noOpener }
        switch launcher.submit(key: "open " + clean, .init(opener, [clean], timeout: Self.timeout)) {
        case .queued: return .opening
        case .coalesced: return .alreadyOpening
        case .dropped, .stopped: return .busy
        }
    }
}

/// Which URLs leave the client, and in what form: to the browser (`LinkOpener`) or as a
/// terminal hyperlink (OSC 8, which the terminal opens the same way). One rule for both.
public enum ExternalLink {
    /// The schemes that are opened; why only these: `LinkOpener`.
    public static let allowedSchemes: Set<String> = ["http", "https"]
    /// Longer URLs are not opened or linked: terminals cap what they keep (VTE at 2083 bytes),
    /// and a cut URL would lead somewhere else.
    public static let maximumBytes = 2048

    /// The URL as it may leave, or nil if it may not: `http://` or `https://` and a host part,
    /// no control byte of any kind (ESC, BEL, C1: no ST or BEL can end an OSC early) and no
    /// space, bytes outside printable ASCII percent-encoded, at most `maximumBytes` encoded.
    /// The URL is server text: it is refused whole rather than repaired.
    public static func clean(_ url: String) -> String? {
        guard let scheme = scheme(of: url), allowedSchemes.contains(scheme.lowercased()),
            url.utf8.dropFirst(scheme.utf8.count + 1).starts(with: "//".utf8),
            url.utf8.count > scheme.utf8.count + 3
        else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(url.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for b in url.utf8 {
            switch b {
            case 0x21...0x7E: out.append(b)
            case 0x00...0x20, 0x7F: return nil  // controls, and a space no URL holds unencoded
            default: out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]  // UTF-8, C1 included
            }
            if out.count > maximumBytes { return nil }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The scheme before the first `:` (RFC 3986: a letter, then letters, digits, `+`, `-`,
    /// `.`), at most 32 characters, so it can be named in a toast; nil when `url` has none.
    public static func scheme(of url: String) -> String? {
        var scheme = ""
        for c in url.unicodeScalars {
            if c == ":" { return scheme.isEmpty ? nil : scheme }
            let letter = ("a"..."z").contains(c) || ("A"..."Z").contains(c)
            let other = ("0"..."9").contains(c) || c == "+" || c == "-" || c == "."
            guard letter || (!scheme.isEmpty && other), scheme.count < 32 else { return nil }
            scheme.unicodeScalars.append(c)
        }
        return nil
    }
}
