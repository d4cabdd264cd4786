/// The running text style of task output, updated one SGR sequence at a time.
/// Feed it the parameter string of each `ESC [ … m` (`"1;31"`, `"38;5;153"`, `"38:2::255:0:0"`,
/// `""` = reset); read `style` for the text that follows.
///
/// Background colours (40–47, 100–107, 48;…, 49) are read and dropped: panes keep the theme's
/// background so text stays legible; reverse video (7) is kept and is what most programs use
/// for highlighted badges. Blink, conceal, strike-through, fonts and underline colour are ignored.
public struct SGRState: Sendable {
    /// The style reset (0) returns to.
    public let base: CellStyle
    public private(set) var style: CellStyle

    /// Hostile output can send a sequence with thousands of parameters; the rest are ignored.
    public static let maximumParameters = 64

    public init(base: CellStyle = CellStyle(fg: .body)) {
        self.base = base
        self.style = base
    }

    public mutating func reset() { style = base }

    /// Applies one SGR parameter string.
    public mutating func apply(_ parameters: some StringProtocol) {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false).prefix(Self.maximumParameters)
        var queue = fields.map { Substring($0) }[...]
        while let field = queue.popFirst() {
            let parts = field.split(separator: ":", omittingEmptySubsequences: false)
            let head = parts[0].isEmpty ? 0 : Int(parts[0])
            guard let code = head else { continue }
            if parts.count > 1 {
                applyColon(code: code, subparameters: Array(parts.dropFirst()))
                continue
            }
            switch code {
            case 38, 48, 58:
                // Extended colour: `;5;n` or `;2;r;g;b`. Malformed: stop, as the rest cannot be
                // read reliably.
                guard let role = readExtendedColor(&queue) else { return }
                if code == 38, let role { style.fg = role }
            default:
                applySimple(code)
            }
        }
    }

    private mutating func applySimple(_ code: Int) {
        switch code {
        case 0: style = base
        case 1: style.attributes.insert(.bold)
        case 2: style.attributes.insert(.dim)
        case 3: style.attributes.insert(.italic)
        case 4, 21: style.attributes.insert(.underline)
        case 7: style.attributes.insert(.reverse)
        case 22: style.attributes.subtract([.bold, .dim])
        case 23: style.attributes.remove(.italic)
        case 24: style.attributes.remove(.underline)
        case 27: style.attributes.remove(.reverse)
        case 30...37: setNamed(code - 30)
        case 90...97: setNamed(code - 90 + 8)
        case 39: style.fg = base.fg
        default: break
        }
    }

    /// `4:0` no underline, `4:n` some underline style; `38:5:n`, `38:2:[cs]:r:g:b`.
    private mutating func applyColon(code: Int, subparameters: [Substring]) {
        switch code {
        case 4:
            if subparameters.first == "0" {
                style.attributes.remove(.underline)
            } else {
                style.attributes.insert(.underline)
            }
        case 38:
            if let role = colonColor(subparameters) { style.fg = role }
        default:
            applySimple(code)
        }
    }

    private mutating func setNamed(_ index: Int) {
        if let color = AnsiColor(rawValue: index) { style.fg = SGRColorMapping.role(forANSI: color) }
    }

    /// Reads the `5;n` or `2;r;g;b` after a 38/48/58. Outer nil: malformed. Inner nil: well
    /// formed but no role (index out of range).
    private func readExtendedColor(_ queue: inout ArraySlice<Substring>) -> ColorRole?? {
        guard let kind = queue.popFirst().flatMap({ Int($0) }) else { return nil }
        switch kind {
        case 5:
            guard let index = queue.popFirst().flatMap({ Int($0) }) else { return nil }
            return .some(SGRColorMapping.role(forXterm256: index))
        case 2:
            var channels: [Int] = []
            for _ in 0..<3 {
                guard let value = queue.popFirst().flatMap({ Int($0) }) else { return nil }
                channels.append(value)
            }
            return .some(rgbRole(channels))
        default:
            return nil
        }
    }

    private func colonColor(_ subparameters: [Substring]) -> ColorRole? {
        guard let kind = subparameters.first.flatMap({ Int($0) }) else { return nil }
        let rest = subparameters.dropFirst()
        switch kind {
        case 5:
            return rest.first.flatMap { Int($0) }.flatMap { SGRColorMapping.role(forXterm256: $0) }
        case 2:
            // `2::r:g:b`, `2:cs:r:g:b` and `2:r:g:b` all end with the three channels.
            guard rest.count >= 3 else { return nil }
            let channels = rest.suffix(3).compactMap { Int($0) }
            return channels.count == 3 ? rgbRole(channels) : nil
        default:
            return nil
        }
    }

    private func rgbRole(_ channels: [Int]) -> ColorRole? {
        guard channels.allSatisfy({ (0...255).contains($0) }) else { return nil }
        return SGRColorMapping.role(for: RGB(r: UInt8(channels[0]), g: UInt8(channels[1]), b: UInt8(channels[2])))
    }
}
