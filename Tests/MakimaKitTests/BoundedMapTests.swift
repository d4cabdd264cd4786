import Foundation
import Testing

@testable import MakimaKit

@Suite("BoundedMap: the stores' detail maps keep at most their capacity, never what is pinned")
struct BoundedMapTests {
    @Test("past the capacity the least recently stored go first; storing again makes an entry newest")
    func evictsLeastRecentlyStored() {
        var map = BoundedMap<String, Int>(capacity: 3)
        map["a"] = 1
        map["b"] = 2
        map["c"] = 3
        map["a"] = 10  // stored again: now the newest
        map["d"] = 4
        #expect(map.count == 3)
        #expect(map["b"] == nil, "b was the least recently stored")
        #expect(map["a"] == 10 && map["c"] == 3 && map["d"] == 4)
        _ = map["c"]  // reading is not use
        map["e"] = 5
        #expect(map["c"] == nil)
        map["a"] = nil
        #expect(map.count == 2 && !map.contains("a"))
    }

    @Test("pinned entries survive any flood; unpinned, the overflow goes at once")
    func pinnedSurvive() {
        var map = BoundedMap<String, Int>(capacity: 4)
        map["open"] = 0
        map.pin(["open", "not-yet-stored"])
        for i in 0..<1000 { map["x\(i)"] = i }
        #expect(map.count == 4)
        #expect(map["open"] == 0, "the pinned entry is kept though it is the oldest")
        #expect(map["x999"] == 999 && map["x997"] == 997 && map["x996"] == nil)
        map["not-yet-stored"] = 7
        #expect(map.count == 4 && map["not-yet-stored"] == 7)
        map.pin([])
        map["y"] = 1
        #expect(map.count == 4)
        #expect(map["open"] == nil, "once unpinned it is the oldest, and goes")
    }

    @Test("more pinned than the capacity: all pinned are kept, nothing else")
    func allPinned() {
        var map = BoundedMap<Int, Int>(capacity: 2)
        map.pin([1, 2, 3])
        for i in 1...3 { map[i] = i }
        map[4] = 4
        #expect(map.count == 3)
        #expect(map[4] == nil && map[1] == 1 && map[2] == 2 && map[3] == 3)
    }

    @Test("the stores' detail maps stay bounded however many details and 404s the server sends")
    @MainActor func storesStayBounded() {
        let hub = StoreHub()
        let flood = BoundedMap<String, MeshTask>.defaultCapacity * 4
        hub.keepDetails(of: [.task("t-open"), .contract("c-open"), .listen("l-open")])
        hub.apply(.detail(.task("t-open"), ListPayload([MeshTask(id: "t-open", status: .running)])))
        hub.apply(
            .detail(
                .contract("c-open"), ListPayload([Contract(id: "c-open", name: "open", phase: "", status: .active)])))
        hub.apply(.detail(.listen("l-open"), ListPayload([ListenSession(id: "l-open")])))
        for i in 0..<flood {
            hub.apply(
                .detail(
                    .task("t\(i)"), ListPayload([MeshTask(id: "t\(i)", title: "toast lookup \(i)", status: .completed)])
                ))
            hub.apply(
                .detail(
                    .contract("c\(i)"), ListPayload([Contract(id: "c\(i)", name: "c\(i)", phase: "", status: .active)]))
            )
            hub.apply(.detail(.listen("l\(i)"), ListPayload([ListenSession(id: "l\(i)")])))
            hub.apply(.detailNotFound(.task("gone\(i)")))
        }
        let cap = BoundedMap<String, MeshTask>.defaultCapacity
        #expect(hub.tasks.details.count == cap)
        #expect(hub.contracts.details.count == cap)
        #expect(hub.listen.details.count == cap)
        #expect(hub.missing.links.count == cap)
        #expect(hub.tasks.details["t-open"] != nil && hub.contracts.details["c-open"] != nil)
        #expect(hub.listen.details["l-open"] != nil)
        #expect(hub.tasks.details["t\(flood - 1)"] != nil && hub.tasks.details["t0"] == nil)
        #expect(hub.tasks.recent(3).count == 3)
    }
}
