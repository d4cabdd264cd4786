import Foundation

public struct TranscriptLine: Sendable, Equatable {
    public var speaker: String?
    public var text: String
    public var at: Date?
    public init(speaker: String? = nil, text: String, at: Date? = nil) {
        self.speaker = speaker
        self.text = text
        self.at = at
    }
}

public struct ListenSession: Decodable, Sendable, Equatable, Identifiable {
    public var id: String
    public var title: String?
    public var startedAt: Date?
    public var endedAt: Date?
    public var transcriptPreview: String?
    /// Present only on `GET /listen/sessions/{id}`.
    public var transcript: [TranscriptLine]?

    public init(
        id: String, title: String? = nil, startedAt: Date? = nil, endedAt: Date? = nil,
        transcriptPreview: String? = nil, transcript: [TranscriptLine]? = nil
    ) {
        self.id = id
        self.title = title
        self.startedAt = startedAt
        self.endedAt = endedAt
        self.transcriptPreview = transcriptPreview
        self.transcript = transcript
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        id = try c.id("id")
        title = c.text("title")
        startedAt = c.date("started_at")
        endedAt = c.date("ended_at")
        transcriptPreview = c.text("transcript_preview")
        if var arr = try? c.nestedUnkeyedContainer(forKey: AnyKey("transcript")) {
            var lines: [TranscriptLine] = []
            while !arr.isAtEnd {
                guard let l = try? arr.nestedContainer(keyedBy: AnyKey.self) else {
                    _ = try? arr.decode(IgnoredValue.self)
                    continue
                }
                if let text = l.text("text") {
                    lines.append(TranscriptLine(speaker: l.text("speaker"), text: text, at: l.date("at")))
                }
            }
            transcript = lines
        } else {
            transcript = nil
        }
    }
}

/// Consumes one JSON value of any shape (to step over a bad list element).
struct IgnoredValue: Decodable {
    init(from decoder: Decoder) throws {}
}

extension ListenSession: Encodable {
    /// The wire shape `init(from:)` reads (the cache stores models this way).
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        try c.encode(id, forKey: AnyKey("id"))
        try c.encodeIfPresent(title, forKey: AnyKey("title"))
        try c.encodeIfPresent(startedAt.map(RFC3339.format), forKey: AnyKey("started_at"))
        try c.encodeIfPresent(endedAt.map(RFC3339.format), forKey: AnyKey("ended_at"))
        try c.encodeIfPresent(transcriptPreview, forKey: AnyKey("transcript_preview"))
        if let transcript {
            var lines = c.nestedUnkeyedContainer(forKey: AnyKey("transcript"))
            for line in transcript {
                var lc = lines.nestedContainer(keyedBy: AnyKey.self)
                try lc.encodeIfPresent(line.speaker, forKey: AnyKey("speaker"))
                try lc.encode(line.text, forKey: AnyKey("text"))
                try lc.encodeIfPresent(line.at.map(RFC3339.format), forKey: AnyKey("at"))
            }
        }
    }
}
