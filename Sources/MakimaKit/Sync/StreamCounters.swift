import Foundation

/// Counters the engine exposes (Settings/About shows them; tests assert on them).
public struct StreamCounters: Sendable, Equatable {
    /// Text frames handed to the pipeline by the socket (events and control messages).
    public var framesReceived = 0
    public var eventsApplied = 0
    /// Events at or below their task's last applied seq, or already held (a replay or a page
    /// that overlaps what the stream brought): dropped.
    public var duplicatesDropped = 0
    /// Frames that did not decode (not JSON, or an event missing a required field).
    public var malformedSkipped = 0
    /// Control messages, and applied events, of a type this client does not know.
    public var unknownTypes = 0
    /// Hole fills started: a task's gap fetched page by page over REST.
    public var holeFills = 0
    /// Seqs skipped because the server no longer has them (a page asked for from below them
    /// starts above them).
    public var eventsLost = 0
    /// Resync requests sent: one per (re)connect.
    public var resyncs = 0
    /// Events whose seq no server can have reached (protocol errors), skipped.
    public var seqRejected = 0
    /// Held events let go (bounds, timed-out waits, seqs the server's REST does not have).
    public var heldDropped = 0
    /// Hole fills and catch-ups that stopped without reaching their goal (see `onProblem`).
    public var fetchesAbandoned = 0
    /// Page requests repeated after an error or an answer that moved nothing.
    public var fetchRetries = 0
    /// Resyncs whose `resync.done` never came in time.
    public var resyncTimeouts = 0
    public init() {}
}
