import CBuildInfoShim
import MakimaKit

/// The version and the commit `--version` names.
enum BuildInfo {
    static var commit: String { String(cString: mk_build_commit()) }

    static var versionLine: String {
        let c = commit
        return "makima-tui \(MakimaVersion.current) (" + (c.isEmpty ? "commit unknown" : "commit \(c)") + ")"
    }
}
