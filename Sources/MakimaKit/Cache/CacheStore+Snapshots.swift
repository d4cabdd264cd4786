import Foundation

/// Lists: each `replace…` swaps one collection's snapshot in a single transaction (a reader or
/// a crash sees the old list or the new one, never a mix); each `load…` returns it with its
/// fetch time, or nil if it was never fetched.
extension CacheStore {
    public func replaceDaemons(_ items: [Daemon], fetchedAt: Date, query: String = "") throws(CacheError) {
        try replace(items, in: .daemons, query: query, fetchedAt: fetchedAt)
        // The whole list (not a filtered one) is the activity history's daemons online.
        if query.isEmpty { try recordDaemonsOnline(items.count { $0.status.isOnline }, at: fetchedAt) }
    }
    public func loadDaemons(query: String = "") throws(CacheError) -> CacheSnapshot<Daemon>? {
        try load(Daemon.self, from: .daemons, query: query)
    }

    public func replaceContracts(_ items: [Contract], fetchedAt: Date, query: String = "") throws(CacheError) {
        try replace(items, in: .contracts, query: query, fetchedAt: fetchedAt)
    }
    public func loadContracts(query: String = "") throws(CacheError) -> CacheSnapshot<Contract>? {
        try load(Contract.self, from: .contracts, query: query)
    }

    public func replaceTasks(_ items: [MeshTask], fetchedAt: Date, query: String = "") throws(CacheError) {
        try replace(items, in: .tasks, query: query, fetchedAt: fetchedAt)
        try indexTaskTitles(items)
    }
    public func loadTasks(query: String = "") throws(CacheError) -> CacheSnapshot<MeshTask>? {
        try load(MeshTask.self, from: .tasks, query: query)
    }

    public func replaceDirectives(_ items: [Directive], fetchedAt: Date, query: String = "") throws(CacheError) {
        try replace(items, in: .directives, query: query, fetchedAt: fetchedAt)
    }
    public func loadDirectives(query: String = "") throws(CacheError) -> CacheSnapshot<Directive>? {
        try load(Directive.self, from: .directives, query: query)
    }

    public func replaceListenSessions(_ items: [ListenSession], fetchedAt: Date, query: String = "") throws(CacheError)
    {
        try replace(items, in: .listenSessions, query: query, fetchedAt: fetchedAt)
    }
    public func loadListenSessions(query: String = "") throws(CacheError) -> CacheSnapshot<ListenSession>? {
        try load(ListenSession.self, from: .listenSessions, query: query)
    }

    /// Keeps a session as `GET /listen/sessions/{id}` returned it, transcript included.
    public func saveListenSessionDetail(_ session: ListenSession, fetchedAt: Date) throws(CacheError) {
        let json = try Self.encodeJSON(session)
        try withDatabase { db in
            let upsert = try db.prepare(
                "INSERT OR REPLACE INTO listen_transcripts (session_id, fetched_at, json) VALUES (?1, ?2, ?3)")
            try upsert.bind(session.id, at: 1)
            try upsert.bind(fetchedAt.timeIntervalSince1970, at: 2)
            try upsert.bind(json, at: 3)
            try upsert.step()
        }
    }

    public func loadListenSessionDetail(id: String) throws(CacheError) -> CachedValue<ListenSession>? {
        let row: (json: String, fetchedAt: Double)? = try withDatabase { db in
            let select = try db.prepare("SELECT json, fetched_at FROM listen_transcripts WHERE session_id = ?1")
            try select.bind(id, at: 1)
            guard try select.step(), let json = select.text(0) else { return nil }
            return (json, select.double(1))
        }
        guard let row, let session = try? MakimaJSON.decode(ListenSession.self, from: Data(row.json.utf8)) else {
            return nil
        }
        return CachedValue(value: session, fetchedAt: Date(timeIntervalSince1970: row.fetchedAt))
    }

    /// A task by id from whichever cached task list was fetched most recently (for a
    /// `makima://task/{id}` link opened before the first refresh).
    public func loadTask(id: String) throws(CacheError) -> CachedValue<MeshTask>? {
        let row: (json: String, fetchedAt: Double)? = try withDatabase { db in
            let select = try db.prepare(
                """
                SELECT t.json, c.fetched_at FROM tasks t JOIN collections c ON c.key = t.collection
                WHERE t.id = ?1 ORDER BY c.fetched_at DESC LIMIT 1
                """)
            try select.bind(id, at: 1)
            guard try select.step(), let json = select.text(0) else { return nil }
            return (json, select.double(1))
        }
        guard let row, let task = try? MakimaJSON.decode(MeshTask.self, from: Data(row.json.utf8)) else { return nil }
        return CachedValue(value: task, fetchedAt: Date(timeIntervalSince1970: row.fetchedAt))
    }

    /// When each cached collection was fetched, by collection key (`CacheCollection.key(query:)`).
    public func collectionFetchTimes() throws(CacheError) -> [String: Date] {
        try withDatabase { db in
            let select = try db.prepare("SELECT key, fetched_at FROM collections")
            var times: [String: Date] = [:]
            while try select.step() {
                if let key = select.text(0) { times[key] = Date(timeIntervalSince1970: select.double(1)) }
            }
            return times
        }
    }

    func replace<Item: Encodable & Identifiable>(
        _ items: [Item], in collection: CacheCollection, query: String,
        fetchedAt: Date
    ) throws(CacheError) where Item.ID == String {
        let key = collection.key(query: query)
        let encoder = MakimaJSON.encoder()
        var rows: [(id: String, json: String)] = []
        rows.reserveCapacity(items.count)
        for item in items { rows.append((item.id, try Self.encodeJSON(item, with: encoder))) }
        let table = collection.rawValue
        try withDatabase { db in
            try db.transaction {
                let delete = try db.prepare("DELETE FROM \(table) WHERE collection = ?1")
                try delete.bind(key, at: 1)
                try delete.step()
                let insert = try db.prepare(
                    "INSERT INTO \(table) (collection, position, id, json) VALUES (?1, ?2, ?3, ?4)")
                for (position, row) in rows.enumerated() {
                    try insert.bind(key, at: 1)
                    try insert.bind(position, at: 2)
                    try insert.bind(row.id, at: 3)
                    try insert.bind(row.json, at: 4)
                    try insert.step()
                    insert.reset()
                }
                let stamp = try db.prepare("INSERT OR REPLACE INTO collections (key, fetched_at) VALUES (?1, ?2)")
                try stamp.bind(key, at: 1)
                try stamp.bind(fetchedAt.timeIntervalSince1970, at: 2)
                try stamp.step()
            }
        }
    }

    func load<Item: Decodable & Sendable>(
        _ type: Item.Type, from collection: CacheCollection,
        query: String
    ) throws(CacheError) -> CacheSnapshot<Item>? {
        let key = collection.key(query: query)
        let table = collection.rawValue
        let stored: (rows: [String], fetchedAt: Double)? = try withDatabase { db in
            let stamp = try db.prepare("SELECT fetched_at FROM collections WHERE key = ?1")
            try stamp.bind(key, at: 1)
            guard try stamp.step() else { return nil }
            let fetchedAt = stamp.double(0)
            let select = try db.prepare("SELECT json FROM \(table) WHERE collection = ?1 ORDER BY position")
            try select.bind(key, at: 1)
            var rows: [String] = []
            while try select.step() { rows.append(select.text(0) ?? "") }
            return (rows, fetchedAt)
        }
        guard let stored else { return nil }
        let decoded = Self.decodeRows(Item.self, stored.rows)
        return CacheSnapshot(
            items: decoded.items, fetchedAt: Date(timeIntervalSince1970: stored.fetchedAt), skipped: decoded.skipped)
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
}
