import Foundation

/// When each mesh not on screen is read next, and which of its figures (`MeshFigure`, in
/// turn): once a `pace` after a read that answered, and after a failure 1, 2, 4, 8 then 15
/// minutes (`backoff`), so a dead server costs one request a quarter of an hour at most. Pure:
/// the reader passes the time in, tests pass theirs.
public struct MeshSchedule: Sendable, Equatable {
    /// A minute between reads unless `MAKIMA_MESH_PACE` says otherwise (`pace(setting:)`).
    public static let defaultPace: TimeInterval = 60
    public static let paceVariable = "MAKIMA_MESH_PACE"
    /// The pace an operator may set: never faster than every 10 s (a mesh is not to be polled
    /// hard by a dashboard that is not showing it), never slower than an hour.
    public static let paceRange: ClosedRange<TimeInterval> = 10...3600
    public static let longestBackoff: TimeInterval = 15 * 60

    /// Seconds between reads of one mesh after a read that answered.
    public let pace: TimeInterval

    /// Next read per mesh name.
    public private(set) var due: [String: Date] = [:]
    /// Failures in a row per mesh name.
    public private(set) var failures: [String: Int] = [:]
    /// The figure each mesh's next read asks for (none yet: the first).
    public private(set) var figures: [String: MeshFigure] = [:]
    /// The order names were given in: ties are read in it.
    private var order: [String] = []

    /// Every mesh is due at once: the card fills as soon as the reader starts.
    public init(names: [String], now: Date, pace: TimeInterval = MeshSchedule.defaultPace) {
        self.pace = pace
        for name in names where due[name] == nil {
            due[name] = now
            order.append(name)
        }
    }

    /// How long to wait after `count` failures in a row (0: none, the pace).
    public static func delay(afterFailures count: Int, pace: TimeInterval = defaultPace) -> TimeInterval {
        guard count > 0 else { return pace }
        // 2^(count-1) minutes, capped before it can overflow; never sooner than the pace.
        let minutes = Double(1 << min(count - 1, 10))
        return min(longestBackoff, max(pace, minutes * 60))
    }

    /// The pace `MAKIMA_MESH_PACE` asks for, in whole seconds, held to `paceRange`; the
    /// default for anything else (unset, empty, not a number).
    public static func pace(setting: String?) -> TimeInterval {
        guard let setting, let seconds = Int(setting.trimmingCharacters(in: .whitespaces)) else {
            return defaultPace
        }
        return min(max(TimeInterval(seconds), paceRange.lowerBound), paceRange.upperBound)
    }

    /// The mesh to read next, when, and the figure to ask it for (nil: none).
    public var next: (name: String, at: Date, figure: MeshFigure)? {
        var best: (name: String, at: Date)?
        for name in order {
            guard let at = due[name] else { continue }
            if best == nil || at < best!.at { best = (name, at) }
        }
        return best.map { ($0.name, $0.at, figures[$0.name] ?? .first) }
    }

    /// A read of `name` ended at `now`: the next one is a pace, or the backoff, later, and
    /// asks for the next figure either way (a figure its server fails to give does not hold
    /// the others back).
    public mutating func record(_ name: String, answered: Bool, now: Date) {
        guard due[name] != nil else { return }
        let n = answered ? 0 : min((failures[name] ?? 0) + 1, 1_000)
        failures[name] = n
        due[name] = now.addingTimeInterval(Self.delay(afterFailures: n, pace: pace))
        figures[name] = (figures[name] ?? .first).following
    }
}

extension MeshSchedule {
    /// Keeps the turns, backoffs and figures `old` had for the names both know.
    public mutating func carry(from old: MeshSchedule) {
        for name in order {
            if let at = old.due[name] { due[name] = at }
            if let n = old.failures[name] { failures[name] = n }
            if let f = old.figures[name] { figures[name] = f }
        }
    }
}
