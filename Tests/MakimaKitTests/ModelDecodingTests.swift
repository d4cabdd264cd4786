import Foundation
import Testing
@testable import MakimaKit

@Suite struct ModelDecodingTests {
    @Test func daemonKeepsUnknownStatusAndToleratesNulls() throws {
        let json = #"[{"id": 7, "hostname": null, "status": "DRAINING", "extra": {"x": 1}}, {"id": "d2", "status": "online", "last_heartbeat": "2026-11-29T17:08:24.5+09:00"}]"#
        let list = try MakimaJSON.decode(ListEnvelope<Daemon>.self, from: Data(json.utf8))
        #expect(list.items.count == 2)
        #expect(list.items[0].id == "7")
        #expect(list.items[0].status.rawValue == "draining")
        #expect(list.items[0].status.isOnline == false)
        #expect(list.items[0].hostname == nil)
        #expect(list.items[1].status == .online)
        #expect(list.items[1].lastHeartbeat == Date(timeIntervalSince1970: 1_795_939_704.5))
    }
}
