import Foundation
import Testing

@testable import MakimaKit

/// `ListPager` against answers a hostile or careless server could send.
@Suite struct ListPagerTests {
    private func page(_ ids: [String], next: String?) throws -> ListEnvelope<MeshTask> {
        let items = ids.map { #"{"id":"\#($0)","status":"running"}"# }.joined(separator: ",")
        let cursor = next.map { #","next_cursor":"\#($0)""# } ?? ""
        return try MakimaJSON.decode(ListEnvelope<MeshTask>.self, from: Data(#"{"items":[\#(items)]\#(cursor)}"#.utf8))
    }

    private func cursor(of endpoint: Endpoint?) -> String? {
        endpoint?.query.first { $0.0 == "cursor" }?.1 ?? nil
    }

    @Test("follows next_cursor until an answer has none; each request carries the cursor it was given")
    func followsCursors() throws {
        var pager = ListPager<MeshTask>(.tasks(status: .running, contractID: nil, limit: 2))
        #expect(cursor(of: pager.next) == nil)
        try pager.take(page(["a", "b"], next: "p2"))
        #expect(cursor(of: pager.next) == "p2")
        #expect(pager.next?.query.contains { $0.0 == "status" && $0.1 == "running" } == true)
        try pager.take(page(["c", "d"], next: "p3"))
        #expect(cursor(of: pager.next) == "p3")
        #expect(pager.next?.query.filter { $0.0 == "cursor" }.count == 1)
        try pager.take(page(["e"], next: nil))
        #expect(pager.next == nil)
        #expect(pager.items.map(\.id) == ["a", "b", "c", "d", "e"])
        #expect(pager.pages == 3 && !pager.truncated)
    }

    @Test("an item on two pages is kept once, where it was first seen")
    func duplicatesKeptOnce() throws {
        var pager = ListPager<MeshTask>(.tasks(status: nil, contractID: nil))
        try pager.take(page(["a", "b"], next: "2"))
        try pager.take(page(["b", "c"], next: nil))
        #expect(pager.items.map(\.id) == ["a", "b", "c"])
    }

    @Test("a server that never ends: a repeated cursor, a page with nothing new, the page bound")
    func endlessServersStop() throws {
        var repeated = ListPager<MeshTask>(.tasks(status: nil, contractID: nil))
        try repeated.take(page(["a"], next: "same"))
        try repeated.take(page(["b"], next: "same"))
        #expect(repeated.next == nil && repeated.truncated && repeated.items.count == 2)

        var stale = ListPager<MeshTask>(.tasks(status: nil, contractID: nil))
        try stale.take(page(["a"], next: "1"))
        try stale.take(page(["a"], next: "2"))
        #expect(stale.next == nil && stale.truncated && stale.pages == 2)

        var endless = ListPager<MeshTask>(.tasks(status: nil, contractID: nil))
        var n = 0
        while endless.next != nil {
            n += 1
            try endless.take(page(["t\(n)"], next: "c\(n)"))
        }
        #expect(endless.pages == ListPaging.maxPages && endless.truncated)
        #expect(endless.items.count == ListPaging.maxPages)
    }

    @Test("the item bound cuts a list that is too long")
    func itemBound() throws {
        var pager = ListPager<MeshTask>(.tasks(status: nil, contractID: nil))
        var n = 0
        while pager.next != nil {
            let ids = (0..<1000).map { "t\(n * 1000 + $0)" }
            n += 1
            try pager.take(page(ids, next: "c\(n)"))
        }
        #expect(pager.items.count == ListPaging.maxItems && pager.truncated)
        #expect(pager.pages == ListPaging.maxItems / 1000 + 1)
    }

    @Test("maxPages 1 reads the first page only")
    func onePage() throws {
        var pager = ListPager<MeshTask>(ListQuery.homeRecentTasks.endpoint, maxPages: 1)
        #expect(pager.next?.query.contains { $0.0 == "limit" && $0.1 == "12" } == true)
        try pager.take(page(["a"], next: "more"))
        #expect(pager.next == nil && pager.items.count == 1)
        #expect(ListQuery.homeRecentTasks.maxPages == 1 && ListQuery.listenSessions(limit: 1).maxPages == 1)
        #expect(ListQuery.tasks(status: nil, contractID: nil).maxPages == ListPaging.maxPages)
    }

    @Test("next_cursor: a string of printable ASCII or an integer; anything else ends the list")
    func cursorDecoding() throws {
        func decode(_ json: String) throws -> String? {
            try MakimaJSON.decode(ListEnvelope<MeshTask>.self, from: Data(json.utf8)).nextCursor
        }
        #expect(try decode(#"{"items":[],"next_cursor":"eyJvIjoxfQ=="}"#) == "eyJvIjoxfQ==")
        #expect(try decode(#"{"items":[],"next_cursor":42}"#) == "42")
        #expect(try decode(#"{"items":[],"next_cursor":null}"#) == nil)
        #expect(try decode(#"{"items":[],"next_cursor":"a\u001b[2Jb"}"#) == nil)
        #expect(try decode(#"{"items":[],"next_cursor":"with space"}"#) == nil)
        #expect(try decode(#"{"items":[],"next_cursor":""}"#) == nil)
        #expect(try decode(#"{"items":[],"next_cursor":"\#(String(repeating: "x", count: 1025))"}"#) == nil)
        #expect(try decode(#"{"items":[],"next_cursor":{"o":1}}"#) == nil)
        #expect(try decode(#"[]"#) == nil)
    }
}
