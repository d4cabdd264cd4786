import Foundation
import Glibc
import Testing

@testable import MakimaTUI

@Suite("UI bus, wake pipe, timers")
struct EventPlumbingTests {
    final class Log: @unchecked Sendable {
        // Touched only on the main actor (by bus jobs) and read there.
        var entries: [String] = []
    }

    /// Blocks until the pipe is readable (the poll the event loop does), at most 10 s.
    func waitReadable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 10_000) == 1
    }

    @MainActor
    @Test("jobs posted from other threads wake the UI thread and run there, in order")
    func busFromThreads() throws {
        let pipe = try WakePipe()
        let bus = UIBus(wakePipe: pipe)
        let log = Log()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            for i in 0..<100 {
                bus.post {
                    MainActor.assertIsolated()
                    log.entries.append("job \(i)")
                }
            }
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(waitReadable(pipe.readFD))
        pipe.drain()
        #expect(bus.pendingCount == 100)
        #expect(bus.runPending() == 100)
        #expect(log.entries == (0..<100).map { "job \($0)" })
        #expect(bus.runPending() == 0)
    }

    @Test("only the first job of a batch writes to the pipe")
    func oneWakePerBatch() throws {
        let pipe = try WakePipe()
        let bus = UIBus(wakePipe: pipe)
        for _ in 0..<5 { bus.post {} }
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(pipe.readFD, &buffer, 16) == 1)
        #expect(read(pipe.readFD, &buffer, 16) == -1)
    }

    @Test("timers: the earliest deadline sets the poll timeout; due ones run in order")
    @MainActor
    func timers() {
        var list = TimerList()
        let log = Log()
        #expect(list.nextDeadline == nil)
        list.schedule("clock", at: 60) { log.entries.append("clock") }
        list.schedule("pill", at: 1) { log.entries.append("pill") }
        list.schedule("gloss", at: 0.15) { log.entries.append("gloss") }
        #expect(list.nextDeadline == 0.15)
        list.schedule("pill", at: 2) { log.entries.append("pill") }
        for action in list.takeDue(now: 5) { action() }
        #expect(log.entries == ["gloss", "pill"])
        #expect(list.nextDeadline == 60)
        list.cancel("clock")
        #expect(list.count == 0)
    }

    @Test("the wall clock gives HH:MM and the time to the next minute")
    func wallClock() {
        let c = Clocks.wallClock()
        #expect(c.text.count == 5)
        #expect(c.text.allSatisfy { $0.isNumber || $0 == ":" })
        #expect(c.secondsToNextMinute > 0 && c.secondsToNextMinute <= 60)
    }
}
