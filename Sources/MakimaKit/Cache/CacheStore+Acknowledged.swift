import Foundation

extension CacheStore {
    /// How many acknowledgements are kept: past it the oldest go (an item that old has long
    /// left the list; at worst it is shown once more).
    public static let acknowledgedKept = 2_000

    /// Every acknowledged needs-you item (`NeedsYouItem.id`) and when, newest first. A row
    /// whose time is not a number is damaged and skipped.
    public func acknowledged() throws(CacheError) -> [String: Date] {
        try withDatabase { db in
            let select = try db.prepare("SELECT item, at FROM acknowledged ORDER BY at DESC LIMIT ?1")
            try select.bind(Self.acknowledgedKept, at: 1)
            var kept: [String: Date] = [:]
            while try select.step() {
                let at = select.double(1)
                guard let item = select.text(0), !item.isEmpty, item.utf8.count <= NeedsYouItem.longestID,
                    at.isFinite
                else { continue }
                kept[item] = Date(timeIntervalSince1970: at)
            }
            return kept
        }
    }

    /// Records acknowledgements (`at` nil: forgets them, an item that came back to life, such as a
    /// failed task run again) and keeps the newest `acknowledgedKept`.
    public func setAcknowledged(_ changes: [(item: String, at: Date?)]) throws(CacheError) {
        guard !changes.isEmpty else { return }
        try withDatabase { db in
            try db.transaction {
                let upsert = try db.prepare(
                    "INSERT INTO acknowledged (item, at) VALUES (?1, ?2) ON CONFLICT (item) DO UPDATE SET at = excluded.at"
                )
                let forget = try db.prepare("DELETE FROM acknowledged WHERE item = ?1")
                for change in changes {
                    if let at = change.at {
                        try upsert.run(change.item, at.timeIntervalSince1970)
                    } else {
                        try forget.run(change.item)
                    }
                }
                let trim = try db.prepare(
                    "DELETE FROM acknowledged WHERE item NOT IN (SELECT item FROM acknowledged ORDER BY at DESC LIMIT ?1)"
                )
                try trim.run(Self.acknowledgedKept)
            }
        }
    }
}
