import Foundation
import Testing

@testable import MakimaKit

/// Pages handed on as they arrive (`ListSink`), the progress figure they give the pane's
/// title, and one read per list per reconnect.
@Suite struct ListStreamingTests {
    private let query = ListQuery.tasks(status: nil, contractID: nil)

    private func page(_ ids: [String], number: Int, received: Int, more: Bool) -> ListPage {
        ListPage(
            query: query, items: .tasks(ids.map { MeshTask(id: $0, status: .running) }), number: number,
            received: received, more: more)
    }

    /// Records what a sink is given, in order.
    private final class RecordingSink: ListSink {
        var log: [String] = []
        func take(_ page: ListPage) { log.append("page \(page.number): \(page.received)") }
        func end(_ query: ListQuery, bound: ListBound?) -> ListPayload {
            log.append("end \(bound.map(String.init(describing:)) ?? "whole")")
            return ListPayload([MeshTask]())
        }
    }

    @Test("the default sink gathers the pages in order and hands the list over whole, with its bound")
    func collectorKeepsTodaysBehaviour() throws {
        let sink = ListCollector<MeshTask>()
        sink.take(page(["a", "b"], number: 1, received: 2, more: true))
        sink.take(page(["c"], number: 2, received: 3, more: false))
        let payload = sink.end(query, bound: .noProgress)
        #expect(payload.items(as: MeshTask.self)?.map(\.id) == ["a", "b", "c"])
        #expect(payload.bound == .noProgress && payload.count == 3)
        #expect(sink.end(query, bound: nil).count == 0, "a sink serves one read: nothing is kept after it ends")
    }

    @Test("a list kept in memory stops at its most items and says so: a hostile list of tiny items cannot fill memory")
    func collectorIsBoundedInItems() {
        let sink = ListCollector<MeshTask>(maxItems: 3)
        sink.take(page(["a", "b"], number: 1, received: 2, more: true))
        sink.take(page(["c", "d", "e"], number: 2, received: 5, more: false))
        let payload = sink.end(query, bound: nil)
        #expect(payload.items(as: MeshTask.self)?.map(\.id) == ["a", "b", "c"])
        #expect(payload.bound == .items(3))
        #expect(ListBound.items(3).description == "over 3 items")
    }

    @Test(
        "progress: pages reach the inner sink in order; a figure at most every quarter second, none for the last page")
    func progressIsThrottled() {
        let inner = RecordingSink()
        var clock = Date(timeIntervalSince1970: 0)
        var posted: [Int] = []
        let sink = ProgressReportingSink(
            inner, now: { clock },
            post: { update in
                if case .listProgress(_, let received) = update { posted.append(received) }
            })
        // 20 pages 0.1 s apart: the figure goes out at 0, 0.3, 0.6, 0.9, … (≤ 4 a second).
        for n in 1...20 {
            sink.take(page(["t\(n)"], number: n, received: n * 1000, more: n < 20))
            clock += 0.1
        }
        _ = sink.end(query, bound: nil)
        #expect(inner.log.count == 21 && inner.log.first == "page 1: 1000" && inner.log.last == "end whole")
        #expect(
            inner.log.dropLast().enumerated().allSatisfy {
                $0.element == "page \($0.offset + 1): \(($0.offset + 1) * 1000)"
            })
        #expect(posted == [1000, 4000, 7000, 10000, 13000, 16000, 19000], "\(posted)")

        var one: [Int] = []
        let single = ProgressReportingSink(RecordingSink(), now: { clock }, post: { _ in one.append(1) })
        single.take(page(["d"], number: 1, received: 1, more: false))
        #expect(one.isEmpty, "a list of one page says nothing before its result")
    }

    @Test("a read's progress is filed in its list state while loading, cleared by the result")
    @MainActor func progressInTheListState() {
        let hub = StoreHub()
        hub.apply(.listProgress(query, received: 5))
        #expect(hub.tasks.list(.init()).received == nil, "no read under way: a late figure is ignored")
        hub.apply(.listLoading(query))
        hub.apply(.listProgress(query, received: 43_000))
        #expect(hub.tasks.list(.init()).received == 43_000)
        hub.apply(
            .list(
                query, ListPayload([MeshTask(id: "a", status: .running)], bound: .pages(2000)), fetchedAt: Date(),
                fromCache: false))
        let state = hub.tasks.list(.init())
        #expect(state.received == nil && state.bound == .pages(2000) && hub.tasks.count(.init()) == 1)
    }

    @Test("the byte budget of a read follows the cache's: 8 times settings.cache.max_mb, never under 192 MB")
    func byteBudgetFollowsTheCache() {
        #expect(ListPaging.maxBytes == 512 << 20, "the standard 64 MB cache")
        #expect(
            ListPaging.maxBytes(
                cacheBudget: CacheRetention(settings: ["cache": .object(["max_mb": .number(256)])]).maxBytes) == 2048
                << 20)
        #expect(ListPaging.maxBytes(cacheBudget: 1 << 20) == ListPaging.minimumBytes)
        #expect(ListPaging.maxBytes(cacheBudget: .max) == .max, "no overflow")
        #expect(ListBound.bytes(512 << 20).description == "over 512 MB")
    }

    @Test("after an open, each list is read once whoever asks; the next open reads it again")
    func oneReadPerListPerOpen() {
        let spawner = ManualSpawner()
        let fetched = Recorder<ListQuery>()
        let coordinator = RefreshCoordinator(
            fetch: { q in
                fetched.add(q)
                return .tasks([])
            },
            classify: { _ in .init(message: "boom", isUnauthorized: false) },
            deliver: { _ in },
            spawn: { spawner.spawn($0) })
        let running = ListQuery.tasks(status: .running, contractID: nil)
        coordinator.opened()
        #expect(coordinator.refreshAfterOpen(running), "the engine's open")
        spawner.runAll()
        #expect(!coordinator.refreshAfterOpen(running), "the dashboard's reconnect, after the engine's read ended")
        #expect(coordinator.refreshAfterOpen(query))
        #expect(!coordinator.refreshAfterOpen(query), "in flight")
        spawner.runAll()
        #expect(fetched.all == [running, query])
        coordinator.opened()
        #expect(coordinator.refreshAfterOpen(running), "a new open: read again")
        spawner.runAll()
        #expect(fetched.all == [running, query, running])
    }
}
