import Testing

@testable import MakimaKit

/// The supervisor's totals are its connections' counters added up (`WebSocketStats.add`).
@Suite struct WebSocketStatsTests {
    /// Every count `count`, both peaks `peak`.
    static func stats(count: Int, peak: Int) -> WebSocketStats {
        var s = WebSocketStats()
        s.messagesReceived = count
        s.binaryMessagesReceived = count
        s.bytesReceived = count
        s.malformedRejected = count
        s.textBytesRepaired = count
        s.oversizeRejected = count
        s.pingsSent = count
        s.pongsReceived = count
        s.messagesSent = count
        s.readsPausedForSendQueue = count
        s.sendQueuePeakBytes = peak
        s.sendQueuePeakMessages = peak
        return s
    }

    @Test func everyCountAddsUpAndEachPeakKeepsTheLarger() {
        var total = Self.stats(count: 10, peak: 500)
        total.add(Self.stats(count: 100, peak: 300))
        #expect(total == Self.stats(count: 110, peak: 500))
    }
}
