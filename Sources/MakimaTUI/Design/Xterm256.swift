/// The xterm 256-colour palette above the 16 ANSI colours: the 6×6×6 cube (16–231) and the
/// grey ramp (232–255). These are the same on every xterm-compatible terminal; 0–15 are not
/// (each terminal theme picks its own), so nearest-colour search never returns them.
public enum Xterm256 {
    /// Indices searched by `nearestIndex`.
    public static let searchable: ClosedRange<Int> = 16...255

    private static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The standard RGB of an index in 16...255; nil for 0–15 (terminal-defined) and out of range.
    public static func rgb(_ index: Int) -> RGB? {
        switch index {
        case 16...231:
            let i = index - 16
            return RGB(r: cubeLevels[i / 36], g: cubeLevels[(i / 6) % 6], b: cubeLevels[i % 6])
        case 232...255:
            let v = UInt8(8 + 10 * (index - 232))
            return RGB(r: v, g: v, b: v)
        default:
            return nil
        }
    }

    private static let labTable: [(index: Int, lab: LabColor)] = searchable.map { index in
        // rgb(_:) is non-nil on the whole searchable range.
        (index, LabColor(rgb(index) ?? RGB(hex: 0)))
    }

    /// The index in 16...255 nearest to `color` by CIEDE2000; ties go to the lower index.
    public static func nearestIndex(to color: RGB) -> Int {
        nearestIndices(to: color, count: 1)[0]
    }

    /// The `count` nearest indices in 16...255, best first (ties: lower index first).
    public static func nearestIndices(to color: RGB, count: Int) -> [Int] {
        let target = LabColor(color)
        let ranked =
            labTable
            .map { (index: $0.index, distance: ColorScience.deltaE2000(target, $0.lab)) }
            .sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.index < $1.index }
        return ranked.prefix(max(count, 1)).map(\.index)
    }
}
