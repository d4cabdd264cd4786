import MakimaKit

/// What the command line documents besides its commands and options, described once for
/// `--help` and the man page: the environment it reads and the files it keeps.
enum CommandReference {
    struct Entry {
        let name: String
        let meaning: String
    }

    static let summary = "terminal dashboard for a Makima mesh"

    static let environment: [Entry] = [
        Entry(name: "MAKIMA_SERVER_URL", meaning: "server for this run, instead of the stored one"),
        Entry(name: "MAKIMA_API_KEY", meaning: "API key for this run only; never stored, never shown"),
        Entry(name: "MAKIMA_PROFILE", meaning: "stored profile for this run (as --profile)"),
        Entry(name: "MAKIMA_CONFIG_DIR", meaning: "configuration directory (as --config-dir)"),
        Entry(name: "MAKIMA_CACHE_DIR", meaning: "where the offline caches are kept"),
        Entry(name: "MAKIMA_THEME", meaning: "dashboard theme (as --theme)"),
        Entry(
            name: MeshSchedule.paceVariable,
            meaning: "seconds between background reads of each mesh not on screen (10 to 3600; 60)"),
        Entry(name: "MAKIMA_HYPERLINKS", meaning: "1 or 0: write output links as terminal hyperlinks (OSC 8) or not"),
        Entry(name: "NO_COLOR", meaning: "no colours, attributes only (as --color never)"),
        Entry(name: "XDG_CONFIG_HOME, XDG_CACHE_HOME", meaning: "base directories (default ~/.config, ~/.cache)"),
    ]

    static let files: [Entry] = [
        Entry(name: "$XDG_CONFIG_HOME/makima-tui/config.json", meaning: "profiles and settings"),
        Entry(
            name: "$XDG_CONFIG_HOME/makima-tui/credentials/",
            meaning: "one API key file per profile, mode 0600"),
        Entry(
            name: "$XDG_CACHE_HOME/makima-tui/<server>/cache.sqlite",
            meaning: "the offline cache of one server (SQLite): lists, task output, activity"),
        Entry(
            name: "<prefix>/share/makima-tui/Themes/",
            meaning: "theme files (.theme) besides the built-in makima, high-contrast and light"),
    ]
}
