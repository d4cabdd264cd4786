import MakimaKit

/// What the dashboard is started with.
struct DashboardOptions: Sendable {
    var global: GlobalOptions
    /// `makima://task/{id}` or `makima://directive/{id}` given on the command line.
    var deepLink: String?
}

/// Opens the full-screen dashboard. Placeholder until the TUI is wired in.
func launchDashboard(options: DashboardOptions) -> Int32 {
    Console.out("makima-tui \(MakimaVersion.current): the dashboard is not wired in yet (try `makima-tui status`)")
    return ExitCode.ok.rawValue
}
