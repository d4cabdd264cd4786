import Foundation

/// CIE L*a*b* (D65 white) and the CIEDE2000 colour difference. Used to pick the xterm-256
/// index and the palette role nearest to a colour: plain RGB distance overrates differences in
/// blue and underrates them in green, which matters for a palette that is mostly blue.
public struct LabColor: Sendable, Hashable {
    public var l: Double
    public var a: Double
    public var b: Double

    public init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

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
    /// CIEDE2000 difference (Sharma, Wu, Dalal 2005), kL = kC = kH = 1.
    public static func deltaE2000(_ p: LabColor, _ q: LabColor) -> Double {
        let c1 = hypot(p.a, p.b)
        let c2 = hypot(q.a, q.b)
        let cMean = (c1 + c2) / 2
        let cMean7 = pow(cMean, 7)
        let g = 0.5 * (1 - sqrt(cMean7 / (cMean7 + pow(25, 7))))
        let a1 = (1 + g) * p.a
        let a2 = (1 + g) * q.a
        let c1p = hypot(a1, p.b)
        let c2p = hypot(a2, q.b)
        let h1p = hueDegrees(b: p.b, a: a1)
        let h2p = hueDegrees(b: q.b, a: a2)

        let dL = q.l - p.l
        let dC = c2p - c1p
        var dh = 0.0
        if c1p * c2p != 0 {
            dh = h2p - h1p
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * sqrt(c1p * c2p) * sin(radians(dh / 2))

        let lMean = (p.l + q.l) / 2
        let cMeanP = (c1p + c2p) / 2
        var hMean = h1p + h2p
        if c1p * c2p != 0 {
            if abs(h1p - h2p) <= 180 {
                hMean = (h1p + h2p) / 2
            } else {
                hMean = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2
            }
        }
        let t =
            1 - 0.17 * cos(radians(hMean - 30)) + 0.24 * cos(radians(2 * hMean))
            + 0.32 * cos(radians(3 * hMean + 6)) - 0.20 * cos(radians(4 * hMean - 63))
        let dTheta = 30 * exp(-pow((hMean - 275) / 25, 2))
        let cMeanP7 = pow(cMeanP, 7)
        let rC = 2 * sqrt(cMeanP7 / (cMeanP7 + pow(25, 7)))
        let l50 = (lMean - 50) * (lMean - 50)
        let sL = 1 + 0.015 * l50 / sqrt(20 + l50)
        let sC = 1 + 0.045 * cMeanP
        let sH = 1 + 0.015 * cMeanP * t
        let rT = -sin(radians(2 * dTheta)) * rC
        let termL = dL / sL
        let termC = dC / sC
        let termH = dH / sH
        return sqrt(termL * termL + termC * termC + termH * termH + rT * termC * termH)
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

    private static func hueDegrees(b: Double, a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        let h = atan2(b, a) * 180 / .pi
        return h >= 0 ? h : h + 360
    }

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
}
