/// How often the UI thread runs posted jobs while they keep coming: at most one turn of them
/// every `interval`. At an agent's pace the engine posts a hundred times a second, each post
/// a wake of the UI thread and a drain of a few events; paced, what arrives meanwhile waits
/// in the outbox (which then wakes nobody) and one drain takes it all, within a key's frame
/// so nothing drawn is later for it. Keys are read at once, whatever the pace.
struct JobPace {
    static let interval = 1.0 / 30
    private var lastRun = -Double.infinity

    func isDue(now: Double) -> Bool { now - lastRun >= Self.interval }

    mutating func ran(at now: Double) { lastRun = now }

    /// When jobs still waiting are due (nil when none waits).
    func deadline(pending: Bool) -> Double? { pending ? lastRun + Self.interval : nil }
}
