import CWslayShim
import Foundation

/// When a `WebSocketSession`'s loop looks again (a ping due, the peer gone, a close
/// unanswered, the next read's pace) and its send queue's bound (reading waits while it is over).
extension WebSocketSession {
    /// When the loop must look again without a read or a wake: a ping due, the peer declared
    /// gone, a close unanswered, a send queue stalled too long.
    func nextDeadline(lastPing: ContinuousClock.Instant, closeDeadline: ContinuousClock.Instant?)
        -> ContinuousClock.Instant
    {
        let pingEvery = Duration.seconds(options.pingAfterSilence)
        var next = min(lastReceive + .seconds(options.deadAfterSilence), max(lastReceive, lastPing) + pingEvery)
        if let closeDeadline { next = min(next, closeDeadline) }
        if let since = sendQueueStalledSince { next = min(next, since + .seconds(options.sendQueueStallLimit)) }
        return next
    }

    var readPace: Duration { .seconds(max(0, options.readPace)) }

    /// Whether wslay's send queue is over its bound (reading waits while it is), and the reason
    /// to close once it has stayed there `sendQueueStallLimit` seconds.
    func sendQueueState(_ ctx: wslay_event_context_ptr, now: ContinuousClock.Instant) -> (
        backedUp: Bool, abuse: WebSocketCloseReason?
    ) {
        guard sendQueueOverBound(ctx) else {
            sendQueueStalledSince = nil
            return (false, nil)
        }
        let since = sendQueueStalledSince ?? now
        sendQueueStalledSince = since
        guard now - since >= .seconds(options.sendQueueStallLimit) else { return (true, nil) }
        return (
            true,
            .protocolError(
                "the server sends faster than it reads (send queue over its bound for "
                    + "\(Int(options.sendQueueStallLimit)) s); closed as abusive")
        )
    }

    /// Also records the largest queue seen (the tests' proof that it stays bounded).
    func sendQueueOverBound(_ ctx: wslay_event_context_ptr) -> Bool {
        let bytes = wslay_event_get_queued_msg_length(ctx)
        let count = wslay_event_get_queued_msg_count(ctx)
        stats.sendQueuePeakBytes = max(stats.sendQueuePeakBytes, bytes)
        stats.sendQueuePeakMessages = max(stats.sendQueuePeakMessages, count)
        return bytes > Self.sendQueueBoundBytes || count > Self.sendQueueBoundMessages
    }
}
