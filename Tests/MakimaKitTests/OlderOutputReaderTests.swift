import Foundation
import Testing

@testable import MakimaKit

/// Reading a task's output backwards for the viewer, against a scripted server.
@Suite struct OlderOutputReaderTests {
    /// A server holding seqs 1...last that answers at most `pageCap` events a page.
    final class Server: @unchecked Sendable {
        let last: Int
        let pageCap: Int
        var ignoresAfterSeq = false
        var requests: [(after: Int, limit: Int)] = []
        init(last: Int, pageCap: Int = 1000) {
            self.last = last
            self.pageCap = pageCap
        }
        func page(after: Int, limit: Int) -> [TaskEvent] {
            requests.append((after, limit))
            let from = ignoresAfterSeq ? 1 : after + 1
            let to = min(last, from + min(limit, pageCap) - 1)
            return from > to ? [] : (from...to).map { outputEvent("t", $0, "line \($0)\n") }
        }
    }

    @Test func readsBackToTheStartWindowByWindowWithShortPages() throws {
        let server = Server(last: 3000, pageCap: 120)
        var reader = OlderOutputReader(taskID: "t", before: 1001, count: 50_000) { server.page(after: $0, limit: $1) }
        try reader.read()
        #expect(reader.events.map(\.seq) == Array(1...1000))
        #expect(reader.from == 1)
        #expect(server.requests.allSatisfy { $0.after < 1000 }, "nothing at or after the first held seq is asked for")
    }

    @Test func stopsAtCountWithWhatItCovers() throws {
        let server = Server(last: 3000)
        var reader = OlderOutputReader(taskID: "t", before: 2001, count: 500) { server.page(after: $0, limit: $1) }
        try reader.read()
        #expect(reader.events.map(\.seq) == Array(1501...2000))
        #expect(reader.from == 1501)
    }

    @Test func takesAWindowFromTheCacheWhenItHoldsItWhole() throws {
        let server = Server(last: 3000)
        var reader = OlderOutputReader(taskID: "t", before: 1001, count: 500) { server.page(after: $0, limit: $1) }
        reader.cached = { after, limit in (after + 1...after + limit).map { outputEvent("t", $0, "cached \($0)\n") } }
        try reader.read()
        #expect(server.requests.isEmpty)
        #expect(reader.events.first?.seq == 501)
    }

    @Test func aServerIgnoringAfterSeqCostsBoundedRequests() throws {
        let server = Server(last: 100_000, pageCap: 10)
        server.ignoresAfterSeq = true
        var reader = OlderOutputReader(taskID: "t", before: 90_001, count: 50_000) { server.page(after: $0, limit: $1) }
        try reader.read()
        #expect(server.requests.count <= reader.maxRequests)
        #expect(reader.events.allSatisfy { $0.seq < 90_001 })
    }

    @Test func anErrorKeepsTheWholeWindowsReadBeforeIt() {
        let server = Server(last: 3000)
        var calls = 0
        var reader = OlderOutputReader(taskID: "t", before: 1001, count: 50_000) { after, limit in
            calls += 1
            if calls == 2 { throw APIError.transport("cut") }
            return server.page(after: after, limit: limit)
        }
        #expect(throws: APIError.self) { try reader.read() }
        #expect(reader.events.map(\.seq) == Array(501...1000))
        #expect(reader.from == 501)
    }
}
