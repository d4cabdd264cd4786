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

public struct ListenSession: WireModel, Sendable, Equatable, Identifiable {
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

    public static let wireFields: [WireField<ListenSession>] = [
        .id("id", \.id), .text("title", \.title), .date("started_at", \.startedAt), .date("ended_at", \.endedAt),
        .text("transcript_preview", \.transcriptPreview), transcriptField,
    ]
    public static var wireBlank: ListenSession { ListenSession(id: "") }

    /// `transcript`: lines with text; an element that is not an object, or has no text, is skipped.
    private static let transcriptField = WireField<ListenSession>.custom(
        read: { c, session in
            guard var arr = try? c.nestedUnkeyedContainer(forKey: AnyKey("transcript")) else { return }
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
            session.transcript = lines
        },
        write: { session, c in
            guard let transcript = session.transcript else { return }
            var lines = c.nestedUnkeyedContainer(forKey: AnyKey("transcript"))
            for line in transcript {
                var lc = lines.nestedContainer(keyedBy: AnyKey.self)
                try lc.encodeIfPresent(line.speaker, forKey: AnyKey("speaker"))
                try lc.encode(line.text, forKey: AnyKey("text"))
                try lc.encodeIfPresent(line.at.map(RFC3339.format), forKey: AnyKey("at"))
            }
        })
}

/// Consumes one JSON value of any shape (to step over a bad list element).
struct IgnoredValue: Decodable {
    init(from decoder: Decoder) throws {}
}
