import Foundation

/// Why a background read of a mesh failed, in words cleaned where they arrive.
public struct MeshReadFailure: Error, Sendable, Equatable {
    public var message: String
    public init(_ message: String) { self.message = message }

    public init(_ error: Error) {
        if let failure = error as? MeshReadFailure {
            self = failure
        } else {
            self.init(UntrustedText.clean(MeshFetcher.classify(error).message))
        }
    }
}

/// Reads the meshes not on screen, one after the other on one thread of its own (no curses,
/// no store): each with one light request a minute, asking for its figures in turn
/// (`MeshFigure`), a failing one backed off up to 15 minutes (`MeshSchedule`),
/// each with its own stored key to its own server only (`MeshProfiles.client`), every request
/// with short timeouts and a bounded answer (`MeshReading.transport`). A dead or hostile
/// server delays only the other background reads, never the mesh on screen, whose engine has
/// threads of its own. Each read's outcome goes to `deliver` (on the reader's thread).
///
/// The time source is injected (`clock`); `poke()` makes the thread look at it again, so a
/// test moves its clock and pokes instead of waiting a minute.
///
/// `@unchecked Sendable`: every mutable field is read and written under `condition`.
public final class BackgroundMeshReader: @unchecked Sendable {
    public struct Report: Sendable {
        public var name: String
        /// What the read answered (reachable and fresh or not) is the mesh's state now,
        /// whichever figure it asked for.
        public var outcome: Result<MeshReading, MeshReadFailure>

        public init(name: String, outcome: Result<MeshReading, MeshReadFailure>) {
            self.name = name
            self.outcome = outcome
        }
    }

    public typealias Read = @Sendable (MeshProfile, MeshFigure) throws -> MeshReading

    private let condition = NSCondition()
    private var targets: [String: MeshProfile] = [:]
    private var schedule: MeshSchedule
    private var stopped = false
    private var started = false
    private let clock: @Sendable () -> Date
    private let pace: TimeInterval
    private let read: Read
    private let deliver: @Sendable (Report) -> Void

    public init(
        clock: @escaping @Sendable () -> Date = { Date() }, pace: TimeInterval = MeshSchedule.defaultPace,
        read: @escaping Read, deliver: @escaping @Sendable (Report) -> Void
    ) {
        self.clock = clock
        self.pace = pace
        self.read = read
        self.deliver = deliver
        schedule = MeshSchedule(names: [], now: clock(), pace: pace)
    }

    /// Reads with each profile's own stored key from `credentials`.
    public convenience init(
        credentials: CredentialStore, clock: @escaping @Sendable () -> Date = { Date() },
        pace: TimeInterval = MeshSchedule.defaultPace, deliver: @escaping @Sendable (Report) -> Void
    ) {
        self.init(
            clock: clock, pace: pace,
            read: { mesh, figure in
                // A client per read: its `ServerClock` measures this answer only.
                let client = try MeshProfiles.client(
                    for: mesh.profile, credentials: credentials, transport: MeshReading.transport)
                return try MeshReading.read(figure, using: client, now: clock)
            }, deliver: deliver)
    }

    /// The most meshes read in the background (the first ones with a stored key, in the
    /// config's order): each read adds its key to `ArrivalMask`, which keeps 64.
    public static let maxMeshes = 48

    /// The meshes to read from now on (those with a stored key): a mesh read already keeps
    /// its turn and backoff, a new one is read at once, one dropped is no longer read (a read
    /// of it under way is not delivered).
    public func setTargets(_ meshes: [MeshProfile]) {
        condition.lock()
        defer { condition.unlock() }
        let kept = Array(meshes.filter(\.keyStored).prefix(Self.maxMeshes))
        let old = schedule
        schedule = MeshSchedule(names: kept.map(\.name), now: clock(), pace: pace)
        schedule.carry(from: old)
        targets = Dictionary(kept.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        condition.broadcast()
    }

    /// Starts the thread (once).
    public func start() {
        condition.lock()
        defer { condition.unlock() }
        guard !started, !stopped else { return }
        started = true
        let thread = Thread { [self] in run() }
        thread.name = "makima-meshes"
        thread.start()
    }

    /// The thread ends after the read under way (bounded by the timeouts), delivering nothing more.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Look at the clock again now (tests that moved theirs).
    public func poke() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while let (mesh, figure) = nextDue() {
            let outcome: Result<MeshReading, MeshReadFailure>
            do { outcome = .success(try read(mesh, figure)) } catch { outcome = .failure(MeshReadFailure(error)) }
            condition.lock()
            let current = !stopped && targets[mesh.name] == mesh
            if current {
                schedule.record(mesh.name, answered: (try? outcome.get()) != nil, now: clock())
            }
            condition.unlock()
            if current { deliver(Report(name: mesh.name, outcome: outcome)) }
        }
    }

    /// Waits until a mesh is due, and says which figure to read (nil: stopped).
    private func nextDue() -> (MeshProfile, MeshFigure)? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            if let next = schedule.next, let mesh = targets[next.name] {
                let wait = next.at.timeIntervalSince(clock())
                if wait <= 0 { return (mesh, next.figure) }
                _ = condition.wait(until: Date().addingTimeInterval(wait))
            } else {
                condition.wait()
            }
        }
        return nil
    }
}
