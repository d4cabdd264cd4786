import MakimaKit

/// `UntrustedText`, through which every server string passes. Invariants: the output holds no
/// control a terminal could act on (with `cleanKeepingSGR`, only normalised `ESC [ digits;… m`,
/// tabs, and an unfinished colour sequence at the end; see `Invariant.firstControl`);
/// cleaning is idempotent; the byte and string entry points agree; stripping the kept SGR
/// gives exactly what `clean` gives.
enum SanitizerFuzz {
    static func check(_ bytes: [UInt8]) -> String? {
        let raw = String(decoding: bytes, as: UTF8.self)
        let plain = UntrustedText.clean(raw)
        if let bad = Invariant.firstControl(in: plain) { return "clean left \(bad): \(Invariant.excerpt(plain))" }
        if UntrustedText.clean(plain) != plain { return "clean is not idempotent: \(Invariant.excerpt(plain))" }
        if UntrustedText.clean(bytes: bytes) != plain { return "clean(bytes:) differs from clean(String)" }

        let coloured = UntrustedText.cleanKeepingSGR(raw)
        if let bad = Invariant.firstControl(in: coloured, keptSGR: true) {
            return "cleanKeepingSGR left \(bad): \(Invariant.excerpt(coloured))"
        }
        if UntrustedText.cleanKeepingSGR(coloured) != coloured { return "cleanKeepingSGR is not idempotent" }
        let stripped = UntrustedText.stripSGR(coloured)
        if stripped != plain { return "stripSGR(cleanKeepingSGR) differs from clean: \(Invariant.excerpt(stripped))" }
        return nil
    }
}
