/// The concentric-ring logo drawn in braille cells (docs/design.md, "Braille logo": five
/// rings, fading outwards, and a centre dot). A braille cell holds 2×4 dots; terminal cells
/// are about twice as tall as wide, so the dots are square and the rings come out round.
public enum BrailleLogo {
    static let rings = 5

    /// Draws the logo centred in `rect`, as large as fits. Without UTF-8, an ASCII sketch.
    public static func render(into buffer: inout CellBuffer, rect: Rect, context: RenderContext) {
        let rows = min(rect.height, rect.width / 2)
        guard rows >= 2 else { return }
        let cols = rows * 2
        let originX = rect.x + (rect.width - cols) / 2
        let art = cells(columns: cols, rows: rows)
        for row in 0..<rows {
            for col in 0..<cols {
                let (bits, ring) = art[row * cols + col]
                guard bits != 0 else { continue }
                let ch: Character
                if context.glyphs.isUnicode {
                    ch = Character(Unicode.Scalar(0x2800 + UInt32(bits))!)
                } else {
                    ch = bits.nonzeroBitCount >= 3 ? "o" : "."
                }
                buffer.put(ch, width: 1, x: originX + col, y: rect.y + row, style: CellStyle(fg: role(forRing: ring)))
            }
        }
    }

    /// Ring 0 is the innermost (and the centre dot); outer rings fade, as the web logo's opacity does.
    static func role(forRing ring: Int) -> ColorRole {
        switch ring {
        case 0, 1: return .accent
        case 2, 3: return .foregroundMuted
        default: return .borderMuted
        }
    }

    /// Braille dot bits and the innermost ring touching each cell, row by row.
    static func cells(columns: Int, rows: Int) -> [(bits: UInt8, ring: Int)] {
        let dotW = columns * 2
        let dotH = rows * 4
        let cx = Double(dotW - 1) / 2
        let cy = Double(dotH - 1) / 2
        let maxR = Double(min(dotW, dotH)) / 2 - 0.5
        let centreR = max(0.9, maxR * 0.1)
        // Bit for the dot at (column 0/1, row 0...3) inside a braille cell.
        let bit: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]
        var out = Array(repeating: (bits: UInt8(0), ring: Int.max), count: columns * rows)
        for dy in 0..<dotH {
            for dx in 0..<dotW {
                let d = ((Double(dx) - cx) * (Double(dx) - cx) + (Double(dy) - cy) * (Double(dy) - cy)).squareRoot()
                var ring: Int?
                if d <= centreR { ring = 0 }
                for i in 0..<rings where ring == nil {
                    let r = maxR * Double(i + 1) / Double(rings)
                    if abs(d - r) < 0.5 { ring = i }
                }
                guard let ring else { continue }
                let idx = (dy / 4) * columns + dx / 2
                out[idx].bits |= bit[dx % 2][dy % 4]
                out[idx].ring = min(out[idx].ring, ring)
            }
        }
        return out
    }
}
