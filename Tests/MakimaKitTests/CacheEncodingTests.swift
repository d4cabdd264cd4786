import Foundation
import Testing

@testable import MakimaKit

/// The cache stores models in their wire shape, which the tolerant decoder reads back.
@Suite struct CacheEncodingTests {
    private func object(_ json: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    @Test func storedJSONUsesTheServersKeysAndTimestamps() throws {
        let task = try object(try CacheStore.encodeJSON(CacheFixtures.tasks[0]))
        #expect(
            Set(task.keys) == [
                "id", "contract_id", "parent_id", "title", "plan", "status", "daemon_id", "created_at", "updated_at",
            ])
        #expect(task["created_at"] as? String == "2026-11-29T08:08:24.000Z")
        #expect(task["status"] as? String == "running")

        let directive = try object(try CacheStore.encodeJSON(CacheFixtures.directives[0]))
        #expect(directive["has_pending_question"] as? Bool == true)
        let question = try #require(directive["pending_question"] as? [String: Any])
        #expect(Set(question.keys) == ["id", "text", "asked_at", "task_id"])

        let session = try object(try CacheStore.encodeJSON(CacheFixtures.sessionDetail))
        let lines = try #require(session["transcript"] as? [[String: Any]])
        #expect(lines.count == 2)
        #expect(lines[1]["speaker"] == nil)

        let daemon = try object(try CacheStore.encodeJSON(CacheFixtures.daemons[0]))
        #expect(daemon["max_concurrent_tasks"] as? Int == 4)
        #expect(daemon["last_heartbeat"] as? String == "2026-11-29T08:08:24.000Z")
        let contract = try object(try CacheStore.encodeJSON(CacheFixtures.contracts[0]))
        #expect(contract["autonomous_loop"] as? Bool == true)
    }

    /// RFC3339.format is written by hand (for speed); it must say what ISO8601DateFormatter says.
    @Test func timestampsFormatLikeFoundationAndParseBack() throws {
        let foundation = ISO8601DateFormatter()
        foundation.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SystemRandomNumberGenerator()
        // Whole milliseconds (halfway cases round differently by a float's last bit).
        let samples =
            [0, 1_795_939_704_000, 1_795_939_704_999, 951_782_400_123, -1_500, 253_402_300_799_999]
            + (0..<500).map { _ in Int64.random(in: -2_000_000_000_000...4_000_000_000_000, using: &generator) }
        for millis in samples {
            let date = Date(timeIntervalSince1970: Double(millis) / 1_000)
            let ours = RFC3339.format(date)
            #expect(ours == foundation.string(from: date))
            let parsed = try #require(RFC3339.parse(ours))
            #expect(abs(parsed.timeIntervalSince(date)) < 0.000_5)
        }
    }
}
