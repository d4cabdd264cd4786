import Foundation
import Testing

@testable import MakimaKit

/// Ids are tokens, checked where they are decoded: a server cannot forge `watch` lines or
/// links with an id that holds a newline, a space or an escape.
@Suite struct ResourceIDTests {
    static let forged = "t1\nmakima://task/fake\tTask failed\tDeploy prod"

    @Test(arguments: [
        "t1", "7", "-3", "3f2b8c1e-5a7d-4b0e-9c1a-2d3e4f5a6b7c", "task_01HZX.v2", "ns:task-9",
        String(repeating: "a", count: 128),
    ])
    func tokensAreIds(id: String) {
        #expect(ResourceID.isValid(id))
    }

    @Test(arguments: [
        forged, "", "t 1", "t1\r", "a\u{1B}[2J", "t/1", "t?x", "t#x", "ĝ", "t\u{200B}1", ".", "..", "%2e",
        String(repeating: "a", count: 129),
    ])
    func anythingElseIsNot(id: String) {
        #expect(!ResourceID.isValid(id))
    }

    @Test func aTaskWithAForgedIdIsDroppedFromItsList() throws {
        let json = try JSONSerialization.data(withJSONObject: [
            ["id": Self.forged, "status": "failed", "title": "x"], ["id": "t2", "status": "running"],
        ])
        let list = try MakimaJSON.decode(ListEnvelope<MeshTask>.self, from: json)
        #expect(list.items.map(\.id) == ["t2"])
        #expect(list.skipped == 1)
    }

    @Test func anEventForAForgedTaskIdIsRefusedSoItCannotNotify() throws {
        let event: [String: Any] = [
            "event_id": 9, "seq": 1, "task_id": Self.forged, "type": "task.status",
            "data": ["status": "failed"], "ts": "2030-01-01T00:00:00Z",
        ]
        let text = String(decoding: try JSONSerialization.data(withJSONObject: event), as: UTF8.self)
        #expect(throws: DecodingError.self) { try StreamMessage.decode(text) }
    }

    @Test func optionalIdsOutsideTheSetCountAsMissing() throws {
        let json = try JSONSerialization.data(withJSONObject: [
            "id": "c1", "name": "n", "phase": "p", "status": "active", "parent_id": "x\ny",
        ])
        #expect(try MakimaJSON.decode(Contract.self, from: json).id == "c1")
        let task = try JSONSerialization.data(withJSONObject: [
            "id": "t1", "status": "running", "contract_id": "c 1", "parent_id": "p\u{1B}1",
        ])
        let decoded = try MakimaJSON.decode(MeshTask.self, from: task)
        #expect(decoded.contractID == nil)
        #expect(decoded.parentID == nil)
    }

    @Test func deepLinksTakeOnlyIds() {
        let kinds: [DeepLink.Kind] = [.task, .directive]
        #expect(DeepLink("makima://task/3f2b-9", among: kinds) == .task("3f2b-9"))
        #expect(DeepLink("makima://task/t1%0Afake", among: kinds) == nil)
        #expect(DeepLink("makima://task/..", among: kinds) == nil)
        #expect(DeepLink("makima://directive/d\u{200B}1", among: kinds) == nil)
    }
}
