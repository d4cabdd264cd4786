import Foundation
import MakimaKit

/// config.json as read (`ConfigStore.load` decodes it so): a hand-edited or restored file is
/// input like any other. Invariants: decoding never traps; every profile of a config that
/// decodes has a name the shells may complete (the name rules, or its server's own host) and
/// no terminal control in it; the config survives encode → decode unchanged; an error's text,
/// which is printed, holds no control.
enum ConfigFuzz {
    static func check(_ bytes: [UInt8]) -> String? {
        let config: AppConfig
        do {
            config = try MakimaJSON.decoder().decode(AppConfig.self, from: Data(bytes))
        } catch {
            let shown = String(describing: APIError.describe(error, decoding: AppConfig.self))
            if let bad = Invariant.firstControl(in: shown) {
                return "error text holds \(bad): \(Invariant.excerpt(shown))"
            }
            return nil
        }
        for p in config.profiles {
            if p.label != ServerProfile.defaultLabel(for: p.baseURL), let problem = ProfileName.problem(p.label) {
                return "a profile named \(Invariant.excerpt(p.label)) was accepted: \(problem)"
            }
            if let bad = Invariant.firstControl(in: p.label) { return "a label holds \(bad)" }
        }
        let encoder = MakimaJSON.encoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let written = try? encoder.encode(config) else { return "a decoded config does not encode" }
        guard let again = try? MakimaJSON.decoder().decode(AppConfig.self, from: written) else {
            return "encode(config) does not decode: \(Invariant.excerpt(String(decoding: written, as: UTF8.self)))"
        }
        return again == config ? nil : "decode(encode(config)) differs"
    }
}

/// A response's `Date` header, read against this machine's clock (`ServerClock`): whatever a
/// server sends (1970, 9999, garbage, a header of megabytes) the estimate stays a finite offset
/// within `ClockOffset.bound`, and a time read through it is finite, so no age is negative
/// by more than the bound or overflows.
enum DateHeaderFuzz {
    static func check(_ bytes: [UInt8]) -> String? {
        let raw = String(decoding: bytes.prefix(4_096), as: UTF8.self)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        if let date = HTTPDate.parse(raw), !date.timeIntervalSince1970.isFinite { return "a date that is not finite" }
        let clock = ServerClock(now: { now })
        for header in raw.split(separator: "\n", omittingEmptySubsequences: false).prefix(16) {
            clock.noteDateHeader(String(header), sent: now, received: now.addingTimeInterval(0.2))
        }
        let offset = clock.offset
        guard offset.seconds.isFinite, abs(offset.seconds) <= ClockOffset.bound else {
            return "an offset out of bounds: \(offset.seconds) from \(Invariant.excerpt(raw))"
        }
        let local = offset.local(now)
        guard local.timeIntervalSince1970.isFinite, abs(local.timeIntervalSince(now)) <= ClockOffset.bound else {
            return "a time read through the offset is \(local)"
        }
        return nil
    }
}
