import Foundation
import Synchronization
import Testing

@testable import MakimaKit

/// The server's clock against ours: measured from `Date` headers and live events, hostile
/// values ignored, and the one correction (`ClockOffset.local`) the cache's activity counts
/// and the notifications use.
@Suite struct ServerClockTests {
    /// A fixed local instant (2026-12-01 21:13:30 UTC), whole second.
    static let local = Date(timeIntervalSince1970: 1_796_159_610)

    static func httpDate(_ d: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return f.string(from: d)
    }

    /// A clock that saw `count` responses from a server `offset` seconds off ours, each with a
    /// 200 ms round trip.
    static func measured(offset: TimeInterval, count: Int = 5) -> ServerClock {
        let clock = ServerClock()
        for i in 0..<count {
            let sent = local.addingTimeInterval(Double(i) * 7)
            let server = sent.addingTimeInterval(0.1 + offset)
            clock.noteDateHeader(httpDate(server), sent: sent, received: sent.addingTimeInterval(0.2))
        }
        return clock
    }

    @Test func httpDatesParseAndGarbageDoesNot() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == Date(timeIntervalSince1970: 784_111_777))
        #expect(HTTPDate.parse("not a date") == nil)
        #expect(HTTPDate.parse("") == nil)
        #expect(HTTPDate.parse(nil) == nil)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT\u{1B}[2J") == nil)
        #expect(HTTPDate.parse(String(repeating: "9", count: 500)) == nil)
    }

    @Test(arguments: [-3_600.0, -3_720.0, 2 * 86_400.0, 0.0])
    func dateHeadersGiveTheOffsetWithinASecond(offset: TimeInterval) {
        let measured = Self.measured(offset: offset).offset.seconds
        #expect(abs(measured - offset) <= 1, "measured \(measured) for \(offset)")
    }

    @Test func absurdDatesAndSlowRoundTripsAreIgnored() {
        let clock = Self.measured(offset: -3_600, count: 3)
        let sent = Self.local
        for absurd in [
            "Thu, 01 Jan 1970 00:00:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT", "garbage",
            Self.httpDate(sent.addingTimeInterval(8 * 86_400)),
        ] {
            for _ in 0..<20 { clock.noteDateHeader(absurd, sent: sent, received: sent.addingTimeInterval(0.1)) }
        }
        // A round trip of a minute says nothing to the second.
        for _ in 0..<20 {
            clock.noteDateHeader(Self.httpDate(sent), sent: sent, received: sent.addingTimeInterval(60))
        }
        #expect(abs(clock.offset.seconds + 3_600) <= 1)
    }

    @Test func oneOddResponseMovesNothing() {
        let clock = Self.measured(offset: -3_600, count: 6)
        clock.noteDateHeader(
            Self.httpDate(Self.local.addingTimeInterval(3 * 86_400)), sent: Self.local, received: Self.local)
        #expect(abs(clock.offset.seconds + 3_600) <= 1)
    }

    static func live(ts: Date, arrivedAt: Date) -> TaskEvent {
        TaskEvent(
            eventID: 1, taskID: "t", seq: 1, type: .output, ts: ts, payload: .output(text: "x", stream: "assistant"),
            arrivedAt: arrivedAt)
    }

    @Test func liveEventsStandInWithoutADateHeaderAndOnlyLiftIt() {
        let clock = ServerClock()
        clock.noteLiveEvents([Self.live(ts: Self.local.addingTimeInterval(-7_200), arrivedAt: Self.local)])
        #expect(clock.offset.seconds == -7_200)
        // History (no arrival) says nothing about now.
        let fromHistory = ServerClock()
        var old = Self.live(ts: Self.local.addingTimeInterval(-86_400), arrivedAt: Self.local)
        old.arrivedAt = nil
        fromHistory.noteLiveEvents([old])
        #expect(fromHistory.offset == .zero)
        // An event that was late (stamped long before it arrived) only bounds from below: the
        // header's estimate stands.
        let headed = Self.measured(offset: 0)
        headed.noteLiveEvents([Self.live(ts: Self.local.addingTimeInterval(-600), arrivedAt: Self.local)])
        #expect(abs(headed.offset.seconds) <= 1)
    }

    @Test func changesAreAnnouncedOnceTheyMatter() {
        let clock = ServerClock()
        let seen = Mutex<[ClockOffset]>([])
        clock.onChange { o in seen.withLock { $0.append(o) } }
        for i in 0..<5 {
            let sent = Self.local.addingTimeInterval(Double(i))
            clock.noteDateHeader(Self.httpDate(sent.addingTimeInterval(-3_600)), sent: sent, received: sent)
        }
        let announced = seen.withLock { $0 }
        #expect(announced.count == 1)
        #expect(abs((announced.first?.seconds ?? 0) + 3_600) <= 1)
        // A late observer hears what is known at once.
        let late = Mutex<ClockOffset?>(nil)
        clock.onChange { o in late.withLock { $0 = o } }
        #expect(late.withLock { $0 } == clock.offset)
    }

    @Test func phrasesAndBounds() {
        #expect(ClockOffset(seconds: -3_720).phrase == "1 h 02 m behind")
        #expect(ClockOffset(seconds: 2 * 86_400 + 3 * 3_600).phrase == "2 d 03 h ahead")
        #expect(ClockOffset(seconds: -45).phrase == "45 s behind")
        #expect(ClockOffset(seconds: 125).phrase == "2 m 05 s ahead")
        #expect(!ClockOffset(seconds: 30).isNoticeable && ClockOffset(seconds: -31).isNoticeable)
        #expect(ClockOffset(seconds: 1e12).seconds == ClockOffset.bound)
        #expect(ClockOffset(seconds: .nan) == .zero)
        #expect(
            ClockOffset(seconds: -3_600).local(Self.local.addingTimeInterval(-3_600)) == Self.local)
    }
}
