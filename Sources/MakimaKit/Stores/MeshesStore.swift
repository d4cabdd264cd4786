import Foundation
import Observation

/// The stored profiles and what the background reads last said of each mesh not on screen
/// (the MESHES// card and Settings › PROFILES read it). The mesh on screen has no entry
/// here: its line comes from the other stores.
@MainActor @Observable
public final class MeshesStore {
    /// The last background read of one mesh.
    public struct Reading: Equatable, Sendable {
        /// The numbers of the last read that answered (nil: none yet).
        public var glance: MeshGlance?
        /// When a read last answered.
        public var answeredAt: Date?
        /// Since when reads fail (nil: the last one answered), and why.
        public var failingSince: Date?
        public var problem: String?

        public init() {}

        public var reachable: Bool? { failingSince != nil ? false : (answeredAt != nil ? true : nil) }
    }

    /// Every stored profile, in the config's order.
    public var profiles: [MeshProfile] = []
    /// The profile on screen (nil: the server in use is no stored profile).
    public var shown: String?
    public private(set) var readings: [String: Reading] = [:]

    public init() {}

    public func answered(_ name: String, _ glance: MeshGlance, at now: Date) {
        var r = readings[name] ?? Reading()
        r.glance = glance
        r.answeredAt = now
        r.failingSince = nil
        r.problem = nil
        readings[name] = r
    }

    public func failed(_ name: String, _ problem: String, at now: Date) {
        var r = readings[name] ?? Reading()
        r.failingSince = r.failingSince ?? now
        r.problem = problem
        readings[name] = r
    }

    /// `name` is on screen now: its old background reading is not shown any more.
    public func show(_ name: String?) {
        shown = name
        if let name { readings[name] = nil }
    }
}
