import Foundation

/// Lists (stored and read through their `ListKind`): `replace` swaps one collection's
/// snapshot in a single transaction (a reader or a crash sees the old list or the new one,
/// never a mix); `load` returns it with its fetch time, or nil if it was never fetched.
extension CacheStore {
    /// When each cached collection was fetched, by collection key (`CacheCollection.key(query:)`).
    public func collectionFetchTimes() throws(CacheError) -> [String: Date] {
        try withDatabase { db in
            try db.prepare("SELECT key, fetched_at FROM collections").keyedByText { $0.date(1) }
        }
    }

    /// `whole`: the list was asked for without a filter (nil: when `query` is empty).
    func replace<Item: Encodable & Identifiable>(
        _ items: [Item], in collection: CacheCollection, query: String,
        fetchedAt: Date, whole: Bool? = nil
    ) throws(CacheError) where Item.ID == String {
        let key = collection.key(query: query)
        let encoder = MakimaJSON.encoder()
        var rows: [(id: String, json: String)] = []
        rows.reserveCapacity(items.count)
        // One snapshot keeps to a quarter of the cap (about 19,000 tasks at the standard
        // 64 MB): pruning removes events only, so a list larger than the cap would otherwise
        // hold the file over it for good. The items past that are not cached.
        let budget = retention.maxBytes / 4
        var bytes = 0
        for item in items {
            let json = try Self.encodeJSON(item, with: encoder)
            bytes += json.utf8.count
            if bytes > budget { break }
            rows.append((item.id, json))
        }
        try withDatabase { db in
            try db.transaction {
                let delete = try db.prepare("DELETE FROM list_items WHERE collection = ?1")
                try delete.bind(key, at: 1)
                try delete.step()
                let insert = try db.prepare(
                    "INSERT INTO list_items (collection, position, id, json, kind) VALUES (?1, ?2, ?3, ?4, ?5)")
                for (position, row) in rows.enumerated() {
                    try insert.run(key, position, row.id, row.json, collection.name)
                }
                let stamp = try db.prepare("INSERT OR REPLACE INTO collections (key, fetched_at) VALUES (?1, ?2)")
                try stamp.bind(key, at: 1)
                try stamp.bind(fetchedAt.timeIntervalSince1970, at: 2)
                try stamp.step()
            }
        }
        // What was cut at the budget is not cached, so not counted either.
        try recordListSideTables(Array(items.prefix(rows.count)), whole: whole ?? query.isEmpty, fetchedAt: fetchedAt)
    }

    func load<Item: Decodable & Sendable>(
        _ type: Item.Type, from collection: CacheCollection,
        query: String
    ) throws(CacheError) -> CacheSnapshot<Item>? {
        let key = collection.key(query: query)
        let stored: (rows: [String], fetchedAt: Date)? = try withDatabase { db in
            let stamp = try db.prepare("SELECT fetched_at FROM collections WHERE key = ?1")
            try stamp.bind(key, at: 1)
            // A fetch time that is not a time reads as never fetched.
            guard try stamp.step(), let fetchedAt = stamp.date(0) else { return nil }
            let select = try db.prepare("SELECT json FROM list_items WHERE collection = ?1 ORDER BY position")
            try select.bind(key, at: 1)
            var rows: [String] = []
            while try select.step() { rows.append(select.text(0) ?? "") }
            return (rows, fetchedAt)
        }
        guard let stored else { return nil }
        let decoded = Self.decodeRows(Item.self, stored.rows)
        return CacheSnapshot(
            items: decoded.items, fetchedAt: stored.fetchedAt, skipped: decoded.skipped)
    }

    /// Pass one encoder for a whole batch: making a JSONEncoder costs more than using it.
    static func encodeJSON(_ value: some Encodable, with encoder: JSONEncoder = MakimaJSON.encoder()) throws(CacheError)
        -> String
    {
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw CacheError.encoding(String(describing: error))
        }
    }

    /// Decodes stored JSON rows with the same tolerant decoder the network uses, in one pass;
    /// a row that no longer decodes is skipped and counted.
    static func decodeRows<Item: Decodable & Sendable>(_ type: Item.Type, _ rows: [String]) -> (
        items: [Item], skipped: Int
    ) {
        guard !rows.isEmpty else { return ([], 0) }
        let array = "[" + rows.joined(separator: ",") + "]"
        if let list = try? MakimaJSON.decode(ListEnvelope<Item>.self, from: Data(array.utf8)) {
            return (list.items, list.skipped)
        }
        // Some row is not even JSON: decode one by one.
        let items = rows.compactMap { try? MakimaJSON.decode(Item.self, from: Data($0.utf8)) }
        return (items, rows.count - items.count)
    }

    /// What a saved list also feeds: the activity history (daemons online, from the whole list
    /// only, not a filtered one).
    private func recordListSideTables<Item>(_ items: [Item], whole: Bool, fetchedAt: Date) throws(CacheError) {
        if whole, let daemons = items as? [Daemon] {
            try recordDaemonsOnline(daemons.count { $0.status.isOnline }, at: fetchedAt)
        }
    }
}
