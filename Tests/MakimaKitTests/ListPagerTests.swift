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
        var items: [MeshTask] = []
        #expect(cursor(of: pager.next) == nil)
        items += try pager.take(page(["a", "b"], next: "p2"))
        #expect(cursor(of: pager.next) == "p2")
        #expect(pager.next?.query.contains { $0.0 == "status" && $0.1 == "running" } == true)
        items += try pager.take(page(["c", "d"], next: "p3"))
        #expect(cursor(of: pager.next) == "p3")
        #expect(pager.next?.query.filter { $0.0 == "cursor" }.count == 1)
        items += try pager.take(page(["e"], next: nil))
        #expect(pager.next == nil)
        #expect(items.map(\.id) == ["a", "b", "c", "d", "e"] && pager.received == 5)
        #expect(pager.pages == 3 && !pager.truncated)
    }

    @Test("an item on two pages is kept once, where it was first seen")
    func duplicatesKeptOnce() throws {
        var pager = ListPager<MeshTask>(.tasks(status: nil, contractID: nil))
        let first = try pager.take(page(["a", "b"], next: "2"))
        let second = try pager.take(page(["b", "c"], next: nil))
        #expect((first + second).map(\.id) == ["a", "b", "c"])
        #expect(second.map(\.id) == ["c"], "a page hands on only what it added")
    }

    @Test("a server that never ends: a repeated cursor, a page with nothing new, the page bound")
    func endlessServersStop() throws {
        var repeated = ListPager<MeshTask>(.tasks(status: nil, contractID: nil))
        try repeated.take(page(["a"], next: "same"))
        try repeated.take(page(["b"], next: "same"))
        #expect(repeated.next == nil && repeated.bound == .noProgress && repeated.received == 2)

        var stale = ListPager<MeshTask>(.tasks(status: nil, contractID: nil))
        try stale.take(page(["a"], next: "1"))
        try stale.take(page(["a"], next: "2"))
        #expect(stale.next == nil && stale.bound == .noProgress && stale.pages == 2)

        var endless = ListPager<MeshTask>(.tasks(status: nil, contractID: nil))
        var n = 0
        while endless.next != nil {
            n += 1
            try endless.take(page(["t\(n)"], next: "c\(n)"))
        }
        #expect(endless.pages == ListPaging.maxPages && endless.bound == .pages(ListPaging.maxPages))
        #expect(endless.received == ListPaging.maxPages)
    }

    /// Envelopes made in memory (decoding 120,000 items from JSON would be the test's cost).
    private func memoryPage(_ n: Int, size: Int, next: String?) -> ListEnvelope<MeshTask> {
        ListEnvelope(items: (0..<size).map { MeshTask(id: "t\(n * size + $0)", status: .completed) }, nextCursor: next)
    }

    @Test("no item cap: 120,000 items in 120 pages arrive whole, each page handed on in order")
    func noItemCap() {
        var pager = ListPager<MeshTask>(.tasks(status: nil, contractID: nil))
        var pages = 0
        var received: [MeshTask] = []
        while pager.next != nil {
            let added = pager.take(
                memoryPage(pages, size: 1000, next: pages < 119 ? "c\(pages)" : nil), bytes: 1000 * 900)
            #expect(added.first?.id == "t\(pages * 1000)", "page \(pages) in order")
            received += added
            pages += 1
        }
        #expect(pager.bound == nil && pager.received == 120_000 && pager.pages == 120)
        #expect(received.count == 120_000 && received.last?.id == "t119999")
    }

    @Test("maxPages 1 reads the first page only")
    func onePage() throws {
        var pager = ListPager<MeshTask>(ListQuery.homeRecentTasks.endpoint, maxPages: 1)
        #expect(pager.next?.query.contains { $0.0 == "limit" && $0.1 == "12" } == true)
        try pager.take(page(["a"], next: "more"))
        #expect(pager.next == nil && pager.received == 1)
        #expect(pager.bound == nil, "one page asked for is whole, not cut (nor backed off)")
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
