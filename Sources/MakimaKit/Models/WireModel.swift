import Foundation

/// A model whose wire fields are listed once, in `wireFields`: that one table is both how it
/// is read (by the tolerant rules of `TolerantDecoding.swift`) and how it is written back (the
/// cache stores models in the shape they arrived in, and reads them with the same decoder).
public protocol WireModel: Codable {
    /// Every field with its JSON key, in reading order (a field whose fallback reads another
    /// comes after it).
    static var wireFields: [WireField<Self>] { get }
    /// Where decoding starts: each field as it reads when the server leaves it out.
    static var wireBlank: Self { get }
}

extension WireModel {
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        var model = Self.wireBlank
        for field in Self.wireFields { try field.read(c, &model) }
        self = model
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: AnyKey.self)
        for field in Self.wireFields { try field.write(self, &c) }
    }
}

/// One row of a `WireModel`'s table: a JSON key, the property it fills, and its kind (an id,
/// text, a timestamp…), which says how it is read tolerantly and written back.
public struct WireField<Model>: Sendable {
    let read: @Sendable (KeyedDecodingContainer<AnyKey>, inout Model) throws -> Void
    let write: @Sendable (Model, inout KeyedEncodingContainer<AnyKey>) throws -> Void

    /// A field read and written by hand (a nested object or list).
    public static func custom(
        read: @escaping @Sendable (KeyedDecodingContainer<AnyKey>, inout Model) throws -> Void,
        write: @escaping @Sendable (Model, inout KeyedEncodingContainer<AnyKey>) throws -> Void
    ) -> Self {
        Self(read: read, write: write)
    }

    /// A required id: a decode error when missing or not a token.
    public static func id(_ key: String, _ path: WritableKeyPath<Model, String> & Sendable) -> Self {
        Self(
            read: { c, m in m[keyPath: path] = try c.id(key) },
            write: { m, c in try c.encode(m[keyPath: path], forKey: AnyKey(key)) })
    }

    /// An optional id; one that is not a token reads as missing.
    public static func id(_ key: String, _ path: WritableKeyPath<Model, String?> & Sendable) -> Self {
        optional(key, path, read: { $0.idIfPresent($1) }, wire: { $0 })
    }

    public static func text(_ key: String, _ path: WritableKeyPath<Model, String?> & Sendable) -> Self {
        optional(key, path, read: { $0.text($1) }, wire: { $0 })
    }

    /// Text that is always there: missing reads as `otherwise` of what is decoded so far, or
    /// stays as in `wireBlank`.
    public static func text(
        _ key: String, _ path: WritableKeyPath<Model, String> & Sendable,
        otherwise: (@Sendable (Model) -> String)? = nil
    ) -> Self {
        required(key, path, read: { $0.text($1) }, otherwise: otherwise, wire: { $0 })
    }

    /// A status kept as the server spells it (`DaemonStatus`, `TaskStatus`…).
    public static func status<Status: RawRepresentable & Sendable>(
        _ key: String, _ path: WritableKeyPath<Model, Status> & Sendable
    ) -> Self where Status.RawValue == String {
        required(
            key, path, read: { c, k in c.text(k).flatMap(Status.init(rawValue:)) }, otherwise: nil,
            wire: { $0.rawValue })
    }

    public static func bool(
        _ key: String, _ path: WritableKeyPath<Model, Bool> & Sendable, otherwise: (@Sendable (Model) -> Bool)? = nil
    ) -> Self {
        required(key, path, read: { $0.bool($1) }, otherwise: otherwise, wire: { $0 })
    }

    public static func int(_ key: String, _ path: WritableKeyPath<Model, Int?> & Sendable) -> Self {
        optional(key, path, read: { $0.int($1) }, wire: { $0 })
    }

    /// An RFC 3339 timestamp; one that does not parse reads as missing.
    public static func date(_ key: String, _ path: WritableKeyPath<Model, Date?> & Sendable) -> Self {
        optional(key, path, read: { $0.date($1) }, wire: RFC3339.format)
    }

    private static func optional<Value, Wire: Encodable & Sendable>(
        _ key: String, _ path: WritableKeyPath<Model, Value?> & Sendable,
        read: @escaping @Sendable (KeyedDecodingContainer<AnyKey>, String) -> Value?,
        wire: @escaping @Sendable (Value) -> Wire
    ) -> Self {
        Self(
            read: { c, m in m[keyPath: path] = read(c, key) },
            write: { m, c in try c.encodeIfPresent(m[keyPath: path].map(wire), forKey: AnyKey(key)) })
    }

    private static func required<Value, Wire: Encodable & Sendable>(
        _ key: String, _ path: WritableKeyPath<Model, Value> & Sendable,
        read: @escaping @Sendable (KeyedDecodingContainer<AnyKey>, String) -> Value?,
        otherwise: (@Sendable (Model) -> Value)?,
        wire: @escaping @Sendable (Value) -> Wire
    ) -> Self {
        Self(
            read: { c, m in
                if let value = read(c, key) {
                    m[keyPath: path] = value
                } else if let otherwise {
                    m[keyPath: path] = otherwise(m)
                }
            },
            write: { m, c in try c.encode(wire(m[keyPath: path]), forKey: AnyKey(key)) })
    }
}
