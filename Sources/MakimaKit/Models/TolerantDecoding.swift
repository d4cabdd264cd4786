import Foundation

/// Decoding rules shared by every model (docs/api.md, "Decoding"): unknown fields ignored,
/// optionals may be missing or null, ids may be strings or numbers, timestamps are RFC 3339
/// with or without fractional seconds, and every string from the server is cleaned here,
/// where it arrives, so no caller ever holds raw server text.
public enum MakimaJSON {
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { d in
            let c = try d.singleValueContainer()
            let s = try c.decode(String.self)
            guard let date = RFC3339.parse(s) else {
                throw DecodingError.dataCorruptedError(
                    // The value is not echoed: a cut copy of it could be a piece of the key
                    // the server echoed, too short for the mask to recognise.
                    in: c, debugDescription: "not an RFC 3339 timestamp (\(s.count) characters)")
            }
            return date
        }
        return decoder
    }

    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, e in
            var c = e.singleValueContainer()
            try c.encode(RFC3339.format(date))
        }
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try decoder().decode(type, from: data)
    }
}

public enum RFC3339 {
    /// Accepts `2026-11-29T17:08:24Z`, `…24.123Z`, `…24+09:00`, `…24.5-05:30`, and a space for `T`.
    public static func parse(_ raw: String) -> Date? {
        // Timestamps are ASCII without padding: trim only when needed (Foundation's trim per
        // event showed in the ingest profile).
        let padded =
            raw.utf8.first.map { $0 <= 0x20 || $0 >= 0x80 } != false
            || raw.utf8.last.map { $0 <= 0x20 || $0 >= 0x80 } != false
        var text = padded ? raw.trimmingCharacters(in: .whitespaces) : raw
        return text.withUTF8 { parse(utf8: $0) }
    }

    /// `parse` of the UTF-8 bytes of a timestamp without padding (the stream decoder reads
    /// them in place, without making a String).
    static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count >= 20 else { return nil }
        func num(_ from: Int, _ len: Int) -> Int? {
            guard from + len <= bytes.count else { return nil }
            var v = 0
            for b in bytes[from..<(from + len)] {
                guard b >= 48 && b <= 57 else { return nil }
                v = v * 10 + Int(b - 48)
            }
            return v
        }
        guard let year = num(0, 4), bytes[4] == 45, let month = num(5, 2), bytes[7] == 45,
            let day = num(8, 2), bytes[10] == 84 || bytes[10] == 116 || bytes[10] == 32,
            let hour = num(11, 2), bytes[13] == 58, let minute = num(14, 2), bytes[16] == 58,
            let second = num(17, 2)
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < bytes.count, bytes[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
                fraction += Double(bytes[i] - 48) * scale
                scale /= 10
                i += 1
            }
            if i == start { return nil }
        }
        guard i < bytes.count else { return nil }
        var offset = 0
        switch bytes[i] {
        case 90, 122: i += 1
        case 43, 45:
            guard let oh = num(i + 1, 2), i + 3 < bytes.count, bytes[i + 3] == 58, let om = num(i + 4, 2) else {
                return nil
            }
            offset = (oh * 3600 + om * 60) * (bytes[i] == 45 ? -1 : 1)
            i += 6
        default: return nil
        }
        guard i == bytes.count, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        // Proleptic Gregorian, as RFC 3339 and `format` (gmtime) count, by hand: Foundation's
        // Gregorian calendar switches to Julian dates before 1582, and a Calendar per call cost
        // more than the rest of decoding an event.
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
        let date = Date(timeIntervalSince1970: Double(seconds) + fraction - Double(offset))
        // Only years 0001-9999 can be written back (`format`, the cache): year 0000, or a
        // leap second or offset that carries 9999-12-31 into year 10000, is no timestamp.
        guard writableMillis(date) != nil else { return nil }
        return date
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's
    /// `days_from_civil`); a day past the month's end counts on into the next month.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Milliseconds since 1970, rounded as `format` writes them, when that falls in years
    /// 0001-9999 (what `format` writes and `parse` reads); nil outside.
    static func writableMillis(_ date: Date) -> Double? {
        let millis = (date.timeIntervalSince1970 * 1_000).rounded()
        return millis.isFinite && millis >= -62_135_596_800_000 && millis < 253_402_300_800_000 ? millis : nil
    }

    /// `2026-11-29T08:08:24.123Z`: UTC, milliseconds rounded to nearest. Written by hand: an
    /// ISO8601DateFormatter per call cost ~80 µs, which dominated caching a burst of events.
    public static func format(_ date: Date) -> String {
        // Years 0001...9999 only; anything else goes through Foundation.
        guard let totalMillis = writableMillis(date) else {
            let f = ISO8601DateFormatter()
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return f.string(from: date)
        }
        let millis = Int64(totalMillis)
        let (q, r) = millis.quotientAndRemainder(dividingBy: 1_000)
        let seconds = r < 0 ? q - 1 : q
        let ms = Int(r < 0 ? r + 1_000 : r)
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var out: [UInt8] = []
        out.reserveCapacity(24)
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var v = value
            while divisor > 0 {
                out.append(UInt8(48 + v / divisor))
                v %= divisor
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1_900, 4)
        out.append(45)
        digits(Int(parts.tm_mon) + 1, 2)
        out.append(45)
        digits(Int(parts.tm_mday), 2)
        out.append(84)
        digits(Int(parts.tm_hour), 2)
        out.append(58)
        digits(Int(parts.tm_min), 2)
        out.append(58)
        digits(Int(parts.tm_sec), 2)
        out.append(46)
        digits(ms, 3)
        out.append(90)
        return String(decoding: out, as: UTF8.self)
    }
}

/// Any JSON key, for containers that read by name without a CodingKeys enum.
public struct AnyKey: CodingKey, Sendable {
    public var stringValue: String
    public var intValue: Int?
    public init(_ s: String) {
        stringValue = s
        intValue = nil
    }
    public init?(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
    public init?(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension KeyedDecodingContainer where Key == AnyKey {
    /// A required identifier: a JSON string or integer, and a token (`ResourceID`): an id with
    /// any other character is refused here, where it arrives.
    public func id(_ key: String) throws -> String {
        let k = AnyKey(key)
        if let s = try? decode(String.self, forKey: k) {
            guard ResourceID.isValid(s) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: codingPath + [k],
                        debugDescription: "field '\(key)' is not an id (letters, digits, - _ . : only)"))
            }
            return s
        }
        if let n = try? decode(Int64.self, forKey: k) { return String(n) }
        if contains(k), (try? decodeNil(forKey: k)) != true {
            throw DecodingError.typeMismatch(
                String.self,
                .init(codingPath: codingPath + [k], debugDescription: "field '\(key)' must be a string or integer id"))
        }
        throw DecodingError.keyNotFound(k, .init(codingPath: codingPath, debugDescription: "missing field '\(key)'"))
    }

    /// An optional identifier; one that is not a token (`ResourceID`) counts as missing.
    public func idIfPresent(_ key: String) -> String? {
        let k = AnyKey(key)
        if let s = try? decodeIfPresent(String.self, forKey: k) { return ResourceID.isValid(s) ? s : nil }
        if let n = try? decodeIfPresent(Int64.self, forKey: k) { return String(n) }
        return nil
    }

    /// Text for display: cleaned of control sequences. Missing, null or of the wrong type -> nil.
    public func text(_ key: String) -> String? {
        guard let s = try? decodeIfPresent(String.self, forKey: AnyKey(key)) else { return nil }
        return UntrustedText.clean(s)
    }

    /// Required text: present and a string, else a decode error naming the field.
    public func requiredText(_ key: String) throws -> String {
        let k = AnyKey(key)
        guard contains(k) else {
            throw DecodingError.keyNotFound(
                k, .init(codingPath: codingPath, debugDescription: "missing field '\(key)'"))
        }
        do { return UntrustedText.clean(try decode(String.self, forKey: k)) } catch {
            throw DecodingError.typeMismatch(
                String.self, .init(codingPath: codingPath + [k], debugDescription: "field '\(key)' must be a string"))
        }
    }

    public func date(_ key: String) -> Date? {
        guard let s = try? decodeIfPresent(String.self, forKey: AnyKey(key)) else { return nil }
        return RFC3339.parse(s)
    }

    public func bool(_ key: String) -> Bool? {
        let k = AnyKey(key)
        if let b = try? decodeIfPresent(Bool.self, forKey: k) { return b }
        if let n = try? decodeIfPresent(Int.self, forKey: k) { return n != 0 }
        return nil
    }

    /// A paging cursor to send back as it came: a string of 1…1024 printable ASCII characters,
    /// or an integer. Anything else counts as missing (the list ends there).
    public func cursor(_ key: String) -> String? {
        let k = AnyKey(key)
        if let s = try? decodeIfPresent(String.self, forKey: k) {
            let bytes = s.utf8
            guard (1...1024).contains(bytes.count), bytes.allSatisfy({ (0x21...0x7E).contains($0) }) else { return nil }
            return s
        }
        if let n = try? decodeIfPresent(Int64.self, forKey: k) { return String(n) }
        return nil
    }

    public func int(_ key: String) -> Int? {
        let k = AnyKey(key)
        if let n = try? decodeIfPresent(Int.self, forKey: k) { return n }
        if let d = try? decodeIfPresent(Double.self, forKey: k), d.isFinite, abs(d) < 1e15 { return Int(d) }
        if let s = try? decodeIfPresent(String.self, forKey: k) { return Int(s) }
        return nil
    }
}

/// A list that may arrive bare (`[...]`) or wrapped (`{"items": [...]}`, also `data`/`results`).
/// Elements that fail to decode are skipped and counted, never fatal to the whole list.
public struct ListEnvelope<Element: Decodable & Sendable>: Decodable, Sendable {
    public var items: [Element]
    public var skipped: Int
    public var nextAfterSeq: Int?
    /// Where the next page starts (`next_cursor`), when the server pages the list (`ListPager`).
    public var nextCursor: String?

    private struct Lossy: Decodable {
        let value: Element?
        init(from decoder: Decoder) throws { value = try? Element(from: decoder) }
    }

    public init(from decoder: Decoder) throws {
        if var arr = try? decoder.unkeyedContainer() {
            var out: [Element] = []
            var skipped = 0
            while !arr.isAtEnd {
                if let v = try arr.decode(Lossy.self).value { out.append(v) } else { skipped += 1 }
            }
            items = out
            self.skipped = skipped
            nextAfterSeq = nil
            return
        }
        let c = try decoder.container(keyedBy: AnyKey.self)
        nextAfterSeq = c.int("next_after_seq")
        nextCursor = c.cursor("next_cursor")
        for key in ["items", "data", "results"] where c.contains(AnyKey(key)) {
            let wrapped = try c.decode([Lossy].self, forKey: AnyKey(key))
            items = wrapped.compactMap(\.value)
            skipped = wrapped.count - items.count
            return
        }
        throw DecodingError.keyNotFound(
            AnyKey("items"),
            .init(codingPath: decoder.codingPath, debugDescription: "expected a list or an object with 'items'"))
    }
}

extension ListEnvelope {
    /// A page made in memory, not decoded (tests and benchmarks of paging).
    package init(items: [Element], nextCursor: String?) {
        self.items = items
        skipped = 0
        nextAfterSeq = nil
        self.nextCursor = nextCursor
    }
}
