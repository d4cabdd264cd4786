import Glibc

/// What the terminal can be sent, from the locale the environment sets.
///
/// The locale is never forced to UTF-8: a terminal whose locale is not UTF-8 (an 8-bit one, say
/// ISO 8859-1) reads each byte as a character, and the bytes of UTF-8 text then include C1
/// controls (`ĝ` is C4 9D, and 9D starts an OSC that can set the window title; other letters
/// clear the screen). On such a terminal the dashboard and every command print ASCII only,
/// everything else replaced (`AsciiFallback`). A terminal with no locale at all (`C`/`POSIX`)
/// gets ASCII too: set `LANG` (e.g. `C.UTF-8`) for the full drawing.
public enum TerminalLocale {
    /// Sets the locale from the environment; true when it is UTF-8 (else draw ASCII).
    @discardableResult
    public static func configure() -> Bool {
        setlocale(LC_ALL, "")
        return isUTF8
    }

    public static var isUTF8: Bool {
        guard let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        let name = String(cString: codeset).uppercased()
        return name == "UTF-8" || name == "UTF8"
    }

    /// `text` as this terminal can safely show it: unchanged under UTF-8, else ASCII only.
    public static func printable(_ text: String) -> String {
        isUTF8 ? text : AsciiFallback.text(text)
    }

    /// As `printable`, for JSON: escaped instead of replaced, so nothing is lost.
    public static func printableJSON(_ json: String) -> String {
        isUTF8 ? json : AsciiFallback.jsonEscaped(json)
    }
}
