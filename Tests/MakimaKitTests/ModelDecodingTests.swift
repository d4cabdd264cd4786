import Foundation
import Testing

@testable import MakimaKit

@Suite struct ModelDecodingTests {
    @Test func daemonKeepsUnknownStatusAndToleratesNulls() throws {
        let json =
            #"[{"id": 7, "hostname": null, "status": "DRAINING", "extra": {"x": 1}}, {"id": "d2", "status": "online", "last_heartbeat": "2026-11-29T17:08:24.5+09:00"}]"#
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

/// Decoding every model from the shapes a server may send (docs/api.md, "Decoding").
@Suite struct ModelShapeTests {
    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try MakimaJSON.decode(type, from: Data(json.utf8))
    }

    /// The APIError a body would produce, as the client reports it.
    func decodingError<T: Decodable>(_ type: T.Type, _ json: String) -> String? {
        do {
            _ = try decode(type, json)
            return nil
        } catch { return APIError.describe(error, decoding: type).description }
    }

    @Test(arguments: [
        #"[{"id":"a"},{"id":"b"}]"#,
        #"{"items":[{"id":"a"},{"id":"b"}]}"#,
        #"{"data":[{"id":"a"},{"id":"b"}],"total":2}"#,
        #"{"results":[{"id":"a"},{"id":"b"}]}"#,
    ])
    func listsComeBareOrWrapped(json: String) throws {
        let list = try decode(ListEnvelope<Contract>.self, json)
        #expect(list.items.map(\.id) == ["a", "b"])
        #expect(list.skipped == 0)
    }

    @Test func badListElementsAreSkippedAndCounted() throws {
        let list = try decode(
            ListEnvelope<MeshTask>.self, #"{"items":[{"id":1,"status":"running"},{"status":"x"},42,null,{"id":"t3"}]}"#)
        #expect(list.items.map(\.id) == ["1", "t3"])
        #expect(list.skipped == 3)
        #expect(list.items[1].status.rawValue == "unknown")
    }

    @Test func aListThatIsNeitherIsAnErrorNamingItems() {
        let message = decodingError(ListEnvelope<Daemon>.self, #"{"things":[]}"#)
        #expect(message?.contains("'items'") == true)
    }

    @Test func contractToleratesNullsAndUnknownStatus() throws {
        let c = try decode(
            Contract.self,
            #"{"id":12,"name":null,"phase":"Review","status":"ON_HOLD","autonomous_loop":1,"description":null,"updated_at":"2026-01-02T03:04:05Z","new_field":[1]}"#
        )
        #expect(c.id == "12")
        #expect(c.name == "12")
        #expect(c.status.rawValue == "on_hold")
        #expect(c.status != .active)
        #expect(c.autonomousLoop)
        #expect(c.description == nil)
        #expect(c.updatedAt == Date(timeIntervalSince1970: 1_767_323_045))
    }

    @Test(arguments: [
        ("2026-01-02T03:04:05Z", 1_767_323_045.0),
        ("2026-01-02T03:04:05.250Z", 1_767_323_045.25),
        ("2026-01-02T03:04:05.123456789Z", 1_767_323_045.123456789),
        ("2026-01-02T12:04:05+09:00", 1_767_323_045.0),
        ("2026-01-01T21:34:05.5-05:30", 1_767_323_045.5),
        ("2026-01-02 03:04:05z", 1_767_323_045.0),
    ])
    func timestampsInRFC3339Variants(raw: String, seconds: Double) throws {
        let t = try decode(MeshTask.self, #"{"id":"t","status":"running","updated_at":"\#(raw)"}"#)
        let got = try #require(t.updatedAt).timeIntervalSince1970
        #expect(abs(got - seconds) < 0.000_01)
    }

    // Year 0000 and instants past 9999-12-31 (a leap second or an offset carrying into year
    // 10000) cannot be written back by `RFC3339.format`, so the cache would lose them.
    @Test(arguments: [
        "2026-01-02", "yesterday", "2026-13-02T03:04:05Z", "2026-01-02T03:04:05", "1767323045",
        "0000-01-01T00:00:00Z", "9999-12-31T23:59:60.999999Z", "9999-12-31T23:59:59-00:01",
    ])
    func badTimestampsBecomeNilNotErrors(raw: String) throws {
        let t = try decode(MeshTask.self, #"{"id":"t","status":"running","created_at":"\#(raw)","updated_at":12345}"#)
        #expect(t.createdAt == nil)
        #expect(t.updatedAt == nil)
    }

    // Old dates too: they are proleptic Gregorian both ways (not Julian before 1582).
    @Test(arguments: [
        "0001-01-01T00:00:00.000Z", "1000-03-01T12:00:00.000Z", "1582-10-10T00:00:00.000Z", "1600-02-29T00:00:00.000Z",
        "9999-12-31T23:59:59.999Z", "2026-11-29T08:08:24.123Z",
    ])
    func timestampsAtTheEdgesOfTheRangeRoundTrip(raw: String) throws {
        let date = try #require(RFC3339.parse(raw))
        #expect(RFC3339.format(date) == raw)
        #expect(RFC3339.parse(RFC3339.format(date)) == date)
    }

    @Test func taskWithNumericIDsAndUnknownStatus() throws {
        let t = try decode(
            MeshTask.self,
            #"{"id":9007199254740991,"contract_id":5,"parent_id":null,"daemon_id":"d1","status":"Paused","plan":"\n\n## Build it\nmore"}"#
        )
        #expect(t.id == "9007199254740991")
        #expect(t.contractID == "5")
        #expect(t.parentID == nil)
        #expect(t.status.rawValue == "paused")
        #expect(!t.status.isFinal)
        #expect(t.displayTitle == "Build it")
    }

    @Test(arguments: [
        (#"{"status":"running"}"#, "missing field 'id'"),
        (#"{"id":{"x":1},"status":"running"}"#, "field 'id'"),
        (#"{"id":[1],"status":"running"}"#, "field 'id'"),
    ])
    func wrongOrMissingIDsNameTheField(json: String, expected: String) {
        let message = decodingError(MeshTask.self, json)
        #expect(message?.contains(expected) == true, "got \(message ?? "no error")")
    }

    @Test func directiveWithAndWithoutPendingQuestion() throws {
        let list = try decode(
            ListEnvelope<Directive>.self,
            #"""
            [{"id":"d1","title":"Ship \u001b[2Jit","status":"waiting","has_pending_question":true,
              "pending_question":{"id":3,"text":"Deploy now?","asked_at":"2026-01-02T03:04:05Z","task_id":77}},
             {"id":"d2","title":null,"status":null,"has_pending_question":false,"pending_question":null},
             {"id":"d3","pending_question":{"id":"q","text":"Continue?"}}]
            """#)
        #expect(list.items.count == 3)
        let d1 = list.items[0]
        #expect(d1.title == "Ship it")
        #expect(
            d1.pendingQuestion
                == SupervisorQuestion(
                    id: "3", text: "Deploy now?", askedAt: Date(timeIntervalSince1970: 1_767_323_045), taskID: "77"))
        #expect(list.items[1].title == "d2")
        #expect(list.items[1].status == "unknown")
        #expect(!list.items[1].hasPendingQuestion)
        #expect(list.items[2].hasPendingQuestion, "a question implies the flag when the flag is missing")
    }

    @Test func listenSessionSummaryAndDetail() throws {
        let summary = try decode(
            ListenSession.self,
            #"{"id":4,"title":null,"started_at":"2026-01-02T03:04:05Z","ended_at":null,"transcript_preview":"hello\u0007"}"#
        )
        #expect(summary.id == "4")
        #expect(summary.transcriptPreview == "hello")
        #expect(summary.transcript == nil)
        let detail = try decode(
            ListenSession.self,
            #"{"id":"s","started_at":"2026-01-02T03:04:05Z","transcript":[{"speaker":"op","text":"hi","at":"2026-01-02T03:04:06Z"},{"text":"no speaker"},7,{"speaker":"x"}]}"#
        )
        #expect(detail.transcript?.map(\.text) == ["hi", "no speaker"])
        #expect(detail.transcript?.first?.speaker == "op")
    }

    @Test func apiKeysRotatedKeyAndHealth() throws {
        let keys = try decode(
            ListEnvelope<APIKeyInfo>.self,
            #"{"items":[{"id":1,"prefix":"mk_ab","name":null,"created_at":"2026-01-02T03:04:05Z","last_used_at":null}]}"#
        )
        #expect(keys.items.first?.id == "1")
        #expect(keys.items.first?.prefix == "mk_ab")
        #expect(keys.items.first?.lastUsedAt == nil)
        let rotated = try decode(RotatedKey.self, #"{"key":"mk_fresh_key_0042","id":9}"#)
        #expect(rotated.key.secret == "mk_fresh_key_0042")
        #expect(rotated.id == "9")
        let message = decodingError(RotatedKey.self, #"{"key":"not-a-key"}"#)
        #expect(message?.contains("'key'") == true)
    }

    @Test func daemonNumbersMayComeAsStringsOrFloats() throws {
        let d = try decode(
            Daemon.self, #"{"id":"d","status":"BUSY","running_tasks":"3","max_concurrent_tasks":4.0,"version":7}"#)
        #expect(d.status == .busy)
        #expect(d.status.isOnline)
        #expect(d.runningTasks == 3)
        #expect(d.maxConcurrentTasks == 4)
        #expect(d.version == nil, "a version of the wrong type is dropped, not fatal")
    }

    @Test func taskOutputPageKeepsGoodEventsAndCountsBadOnes() throws {
        let page = try decode(
            TaskOutputPage.self,
            #"""
            {"items":[
              {"event_id":1,"task_id":7,"seq":1,"type":"task.output","ts":"2026-01-02T03:04:05.5Z","data":{"text":"\u001b[1;31mred\u001b[0m \u001b]8;;x\u0007link","stream":"tool"}},
              {"event_id":2,"task_id":"7","seq":2,"type":"task.status","data":{"status":"completed","previous":"running"}},
              {"event_id":3,"task_id":"7","seq":3,"type":"task.brand_new","data":{}},
              {"event_id":"x","task_id":"7","seq":4,"type":"task.output","data":{"text":"y"}},
              {"event_id":5,"task_id":"7","seq":0,"type":"task.output","data":{"text":"y"}},
              {"event_id":6,"task_id":"7","seq":6,"type":"task.output","data":{}}
            ],"next_after_seq":6}
            """#)
        #expect(page.events.map(\.seq) == [1, 2, 3])
        #expect(page.skipped == 3)
        #expect(page.nextAfterSeq == 6)
        #expect(page.events[0].taskID == "7")
        #expect(page.events[0].payload == .output(text: "\u{1B}[1;31mred\u{1B}[0m link", stream: "tool"))
        #expect(page.events[1].payload == .status(status: .completed, previous: .running, reason: nil))
        #expect(page.events[2].payload == .unknown)
        #expect(page.events[2].type.rawValue == "task.brand_new")
    }

    @Test(arguments: [
        (#"{"task_id":"7","seq":1,"type":"task.output","data":{"text":"a"}}"#, "event_id"),
        (#"{"event_id":1,"task_id":"7","seq":"one","type":"task.output","data":{"text":"a"}}"#, "seq"),
        (#"{"event_id":1,"task_id":"7","seq":1,"type":5,"data":{"text":"a"}}"#, "type"),
        (#"{"event_id":1,"task_id":"7","seq":1,"type":"task.output","data":{"text":5}}"#, "text"),
        (#"{"event_id":1,"task_id":"7","seq":1,"type":"task.supervisor_question","data":{}}"#, "text"),
    ])
    func eventErrorsNameTheField(json: String, field: String) {
        let message = decodingError(TaskEvent.self, json)
        #expect(message?.contains(field) == true, "got \(message ?? "no error")")
    }
}
