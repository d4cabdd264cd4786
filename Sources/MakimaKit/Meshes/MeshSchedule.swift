import Foundation

/// When each mesh not on screen is read next: once a `pace` after a read that answered, and
/// after a failure 1, 2, 4, 8 then 15 minutes (`backoff`), so a dead server costs one attempt
/// a quarter of an hour at most. Pure: the reader passes the time in, tests pass theirs.
public struct MeshSchedule: Sendable, Equatable {
    public static let pace: TimeInterval = 60
    public static let longestBackoff: TimeInterval = 15 * 60

    /// Next read per mesh name.
    public private(set) var due: [String: Date] = [:]
    /// Failures in a row per mesh name.
    public private(set) var failures: [String: Int] = [:]
    /// The order names were given in: ties are read in it.
    private var order: [String] = []

    /// Every mesh is due at once: the card fills as soon as the reader starts.
    public init(names: [String], now: Date) {
        for name in names where due[name] == nil {
            due[name] = now
            order.append(name)
        }
    }

    /// How long to wait after `count` failures in a row (0: none, the pace).
    public static func delay(afterFailures count: Int) -> TimeInterval {
        guard count > 0 else { return pace }
        // 2^(count-1) minutes, capped before it can overflow.
        let minutes = Double(1 << min(count - 1, 10))
        return min(longestBackoff, minutes * 60)
    }

    /// The mesh to read next and when (nil: none).
    public var next: (name: String, at: Date)? {
        var best: (name: String, at: Date)?
        for name in order {
            guard let at = due[name] else { continue }
            if best == nil || at < best!.at { best = (name, at) }
        }
        return best
    }

    /// A read of `name` ended at `now`: the next one is a pace, or the backoff, later.
    public mutating func record(_ name: String, answered: Bool, now: Date) {
        guard due[name] != nil else { return }
        let n = answered ? 0 : min((failures[name] ?? 0) + 1, 1_000)
        failures[name] = n
        due[name] = now.addingTimeInterval(Self.delay(afterFailures: n))
    }
}

extension MeshSchedule {
    /// Keeps the turns and backoffs `old` had for the names both know.
    public mutating func carry(from old: MeshSchedule) {
        for name in order {
            if let at = old.due[name] { due[name] = at }
            if let n = old.failures[name] { failures[name] = n }
        }
    }
}
