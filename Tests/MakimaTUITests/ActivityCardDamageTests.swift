import Foundation
import TestSupport
import Testing

@testable import MakimaKit
@testable import MakimaTUI

/// Home's ACTIVITY// card drawn from a real cache file whose per-minute counts were damaged
/// with raw SQL, read the way the dashboard reads it at start and at every Home poll
/// (`CacheStore.activity`, then `ActivityCard.card`): counts that overflowed when summed
/// ended every dashboard start with "arithmetic overflow".
struct ActivityCardDamageTests {
    @Test func theCardFromADamagedCacheShowsTheSaneMinutesOnly() throws {
        let dir = TempDirectory()
        let file = URL(fileURLWithPath: dir.sub("profile/cache.sqlite"))
        let now = Date()
        let minute = ActivityMinute.minute(of: now)
        try CacheStore.open(file: file, now: now).store.close()
        let raw = try SQLiteDatabase(path: file.path)
        try raw.exec(
            """
            INSERT INTO activity_minutes (minute, output, completed, failed, daemons_online) VALUES
                (\(minute - 1), 9223372036854775807, 9223372036854775807, 9223372036854775807, 9223372036854775807),
                (\(minute - 2), 9223372036854775807, -9223372036854775808, 'many', 1.5e300),
                (\(minute - 3), 6, 2, 1, 4);
            """)
        raw.close()
        let store = try CacheStore.open(file: file, now: now).store
        defer { store.close() }
        let card = ActivityCard.card(try store.activity(hours: 24, now: now), width: 90, glyphs: .unicode)
        #expect(card.accessory == "6 out · 1h")
        #expect(card.rows.map { $0.right?.text } == ["max 2", "max 1", "max 6", "max 4"])
    }
}
