import Foundation
import Synchronization
import Testing

@testable import MakimaKit

/// A list is bounded by bytes as well as items and pages, one huge item is dropped before it
/// is decoded, and a list that hits a bound is refreshed less often, said once.
@Suite struct ListBoundsTests {
    @Test func oversizedElementsAreReplacedByNullWhereverTheListIs() throws {
        let big = String(repeating: "x", count: 300)
        let bodies = [
            #"{"items":[{"id":"a"},{"id":"b","title":"\#(big)"},{"id":"c","t":"]},\"["}],"next_cursor":"n"}"#,
            #"[{"id":"a"}, {"id":"b","title":"\#(big)"} ,{"id":"c","t":"]},\"["}]"#,
        ]
        for body in bodies {
            let (kept, dropped) = ListItemSizes.droppingOversized(Data(body.utf8), limit: 100)
            #expect(dropped == 1)
            let list = try MakimaJSON.decode(ListEnvelope<Daemon>.self, from: kept)
            #expect(list.items.map(\.id) == ["a", "c"])
            #expect(list.skipped == 1)
        }
        let small = Data(#"{"items":[{"id":"a"}],"next_cursor":null}"#.utf8)
        #expect(ListItemSizes.droppingOversized(small, limit: 10).body == small)
    }

    @Test func thePagerStopsAtItsByteBudget() throws {
        var pager = ListPager<Daemon>(.daemons, maxBytes: 1_000)
        var n = 0
        while pager.next != nil {
            n += 1
            let body = #"{"items":[{"id":"d\#(n)"}],"next_cursor":"c\#(n)"}"#
            pager.take(try MakimaJSON.decode(ListEnvelope<Daemon>.self, from: Data(body.utf8)), bytes: 300)
        }
        #expect(pager.pages == 4)
        #expect(pager.bound == .bytes(1_000))
    }

    @Test func aBoundedListBacksOffAndIsSaidOnce() throws {
        let clock = Mutex(Date(timeIntervalSince1970: 1_000))
        let said = Mutex<[String]>([])
        let backoff = ListBackoff(now: { clock.withLock { $0 } }, notice: { m in said.withLock { $0.append(m) } })
        var reads = 0
        func read() -> ListPayload {
            reads += 1
            return ListPayload([Daemon(id: "d", hostname: "h", status: .online)], bound: .bytes(1 << 20))
        }
        _ = backoff.fetch(key: "tasks", name: "tasks", read)
        _ = backoff.fetch(key: "tasks", name: "tasks", read)
        #expect(reads == 1, "the second refresh, inside the back-off, asks nobody")
        clock.withLock { $0 += ListBackoff.firstInterval + 1 }
        _ = backoff.fetch(key: "tasks", name: "tasks", read)
        #expect(reads == 2)
        clock.withLock { $0 += ListBackoff.firstInterval + 1 }
        _ = backoff.fetch(key: "tasks", name: "tasks", read)
        #expect(reads == 2, "the interval doubled")
        #expect(said.withLock { $0.count } == 1)
        #expect(said.withLock { $0.first?.contains("tasks") } == true)
    }
}
