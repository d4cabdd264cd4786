import CLcms2Shim
import Foundation

/// CIE L*a*b* (D65 white) and the CIEDE2000 colour difference. Used to pick the xterm-256
/// index and the palette role nearest to a colour: plain RGB distance overrates differences in
/// blue and underrates them in green, which matters for a palette that is mostly blue.
public struct LabColor: Sendable, Hashable {
    public var l: Double
    public var a: Double
    public var b: Double
}

// Out of the type's body so that it keeps its memberwise `init(l:a:b:)`.
extension LabColor {
    public init(_ rgb: RGB) {
        let r = Self.linear(rgb.r)
        let g = Self.linear(rgb.g)
        let bl = Self.linear(rgb.b)
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * bl) / 0.95047
        let y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * bl
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * bl) / 1.08883
        let fx = Self.f(x)
        let fy = Self.f(y)
        let fz = Self.f(z)
        self.init(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }

    private static func linear(_ channel: UInt8) -> Double {
        let c = Double(channel) / 255
        return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }

    private static func f(_ t: Double) -> Double {
        t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116
    }
}

public enum ColorScience {
    /// CIEDE2000 difference (Sharma, Wu, Dalal 2005), kL = kC = kH = 1, as Little CMS
    /// computes it.
    public static func deltaE2000(_ p: LabColor, _ q: LabColor) -> Double {
        var x = cmsCIELab(L: p.l, a: p.a, b: p.b)
        var y = cmsCIELab(L: q.l, a: q.a, b: q.b)
        return cmsCIE2000DeltaE(&x, &y, 1, 1, 1)
    }

    public static func deltaE2000(_ x: RGB, _ y: RGB) -> Double {
        deltaE2000(LabColor(x), LabColor(y))
    }

    /// WCAG 2 relative luminance, 0 (black) ... 1 (white).
    public static func relativeLuminance(_ c: RGB) -> Double {
        func linear(_ channel: UInt8) -> Double {
            let v = Double(channel) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b)
    }

    /// WCAG 2 contrast ratio, 1 ... 21.
    public static func contrastRatio(_ x: RGB, _ y: RGB) -> Double {
        let lx = relativeLuminance(x)
        let ly = relativeLuminance(y)
        return (max(lx, ly) + 0.05) / (min(lx, ly) + 0.05)
    }
}
