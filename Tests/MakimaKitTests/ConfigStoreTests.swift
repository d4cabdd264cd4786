import Foundation
import TestSupport
import Testing

@testable import MakimaKit

@Suite struct ConfigStoreTests {
    @Test func roundTripsProfilesActiveIDAndUnknownSettings() throws {
        let tmp = TempDirectory()
        let store = ConfigStore(location: ConfigLocation(directory: tmp.sub("c")))
        #expect(try store.load() == AppConfig())
        let p1 = try ServerProfile(label: "prod", server: "makima.jp")
        let p2 = try ServerProfile(
            server: "http://127.0.0.1:8787", lastConnected: Date(timeIntervalSince1970: 1_800_000_000.25))
        var config = AppConfig(
            activeProfileID: p2.id, profiles: [p1, p2],
            settings: ["future": .object(["x": .array([.number(1), .null])])])
        config.theme = "makima"
        try store.save(config)
        let back = try store.load()
        #expect(back == config)
        #expect(back.activeProfile == p2)
        #expect(back.theme == "makima")
        let text = try String(contentsOfFile: store.location.configFile, encoding: .utf8)
        #expect(text.contains("\"base_url\" : \"https://makima.jp\""))
        #expect(text.contains("active_profile_id"))
    }

    @Test func anUnreadableConfigIsReportedAndMovedAsideNotOverwritten() throws {
        let tmp = TempDirectory()
        let location = ConfigLocation(directory: tmp.path)
        let store = ConfigStore(location: location)
        let broken = "{\"profiles\": [{\"id\": 12}]}"
        try broken.write(toFile: location.configFile, atomically: false, encoding: .utf8)
        #expect { try store.load() } throws: { e in
            guard case .unreadable(let path, let reason) = e as? ConfigError else { return false }
            return path == location.configFile && reason.contains("profiles[0]")
        }
        try store.save(AppConfig())
        #expect(try store.load() == AppConfig())
        let aside = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter {
            $0.hasPrefix("config.json.unreadable-")
        }
        #expect(aside.count == 1)
        #expect(try String(contentsOfFile: tmp.sub(aside[0]), encoding: .utf8) == broken)
    }

    @Test func locationFollowsFlagThenEnvironmentThenXDGThenHome() {
        #expect(ConfigLocation.resolve(explicit: "/x/", environment: ["MAKIMA_CONFIG_DIR": "/y"]).directory == "/x")
        #expect(
            ConfigLocation.resolve(environment: ["MAKIMA_CONFIG_DIR": "/y", "XDG_CONFIG_HOME": "/z"]).directory == "/y")
        #expect(
            ConfigLocation.resolve(environment: ["XDG_CONFIG_HOME": "/z", "HOME": "/h"]).directory == "/z/makima-tui")
        #expect(
            ConfigLocation.resolve(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]).directory
                == "/h/.config/makima-tui")
        #expect(ConfigLocation.resolve(environment: ["HOME": "/h"]).directory == "/h/.config/makima-tui")
        #expect(ConfigLocation.resolve(explicit: "~/m", environment: ["HOME": "/h"]).directory == "/h/m")
    }
}
