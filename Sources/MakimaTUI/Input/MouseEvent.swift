/// One mouse report from the terminal (SGR form, `ESC [ < b ; x ; y M|m`), cells counted
/// from 0. The coordinates are what the terminal said: hit-testing ignores any outside the
/// screen.
public struct MouseEvent: Equatable, Sendable {
    public enum Button: Equatable, Sendable {
        case left, middle, right
        case wheelUp, wheelDown
        /// Wheel left/right and the extra buttons: not used.
        case other
    }

    public var button: Button
    /// True for a press (and every wheel notch), false for a release.
    public var pressed: Bool
    /// True when the pointer moved with a button held (drag): not used for clicks.
    public var motion: Bool
    public var x: Int
    public var y: Int

    public init(button: Button, pressed: Bool = true, motion: Bool = false, x: Int, y: Int) {
        self.button = button
        self.pressed = pressed
        self.motion = motion
        self.x = x
        self.y = y
    }

    /// The event an SGR report describes: `code` is the button byte (low two bits the button,
    /// 32 motion, 64 the wheel; 4, 8 and 16 are Shift, Meta and Ctrl), `column` and `row`
    /// count from 1. Nil for values no terminal sends.
    init?(sgrCode code: Int, column: Int, row: Int, final: Character) {
        guard (0...255).contains(code), column >= 1, row >= 1 else { return nil }
        let low = code & 3
        switch code & (64 | 128) {
        case 0: button = [Button.left, .middle, .right, .other][low]
        case 64: button = [Button.wheelUp, .wheelDown, .other, .other][low]
        default: button = .other
        }
        pressed = final == "M"
        motion = code & 32 != 0
        x = column - 1
        y = row - 1
    }

    public var isWheel: Bool { button == .wheelUp || button == .wheelDown }
}
