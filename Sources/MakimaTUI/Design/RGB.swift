/// An opaque 24-bit sRGB colour.
public struct RGB: Sendable, Hashable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    /// `#rrggbb`, lowercase.
    public var hex: String {
        "#"
            + [r, g, b].map { byte in
                let digits = String(byte, radix: 16)
                return byte < 16 ? "0" + digits : digits
            }.joined()
    }

    public var description: String { hex }

    /// `(r << 16) | (g << 8) | b`: the colour number a direct-colour terminfo takes.
    public var packed: Int { Int(r) << 16 | Int(g) << 8 | Int(b) }

    /// This colour drawn at `alpha` (0...1) over `background`, per channel
    /// `self * alpha + background * (1 - alpha)`, rounded to the nearest integer.
    /// Terminals have no transparency, so translucent palette entries are flattened this way.
    public func blend(alpha: Double, over background: RGB) -> RGB {
        let a = min(max(alpha, 0), 1)
        func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 {
            let value = Double(top) * a + Double(bottom) * (1 - a)
            return UInt8(min(max(value.rounded(), 0), 255))
        }
        return RGB(r: mix(r, background.r), g: mix(g, background.g), b: mix(b, background.b))
    }
}

// The other ways to make one, out of the type's body so that it keeps its memberwise `init(r:g:b:)`.
extension RGB {
    /// `RGB(hex: 0x0c1729)`.
    public init(hex: UInt32) {
        self.init(r: UInt8((hex >> 16) & 0xFF), g: UInt8((hex >> 8) & 0xFF), b: UInt8(hex & 0xFF))
    }

    /// Parses `#rrggbb` (the `#` is optional, case-insensitive). Nil for anything else.
    public init?(hex text: String) {
        var digits = Substring(text)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else {
            return nil
        }
        self.init(hex: value)
    }
}
