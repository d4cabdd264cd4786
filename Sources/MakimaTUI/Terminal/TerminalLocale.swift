import Glibc

/// ncurses draws every non-ASCII cell blank unless the C locale is UTF-8.
public enum TerminalLocale {
    /// Sets the locale from the environment; if that is not UTF-8, tries `C.UTF-8`.
    /// Returns true when the locale ends up UTF-8 (else draw ASCII fallbacks).
    @discardableResult
    public static func configure() -> Bool {
        setlocale(LC_ALL, "")
        if isUTF8 { return true }
        if setlocale(LC_ALL, "C.UTF-8") != nil, isUTF8 { return true }
        return false
    }

    public static var isUTF8: Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }
}
