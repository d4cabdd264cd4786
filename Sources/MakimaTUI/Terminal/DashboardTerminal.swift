/// The terminal as the event loop sees it: input to read when `inputFD` is readable, a size,
/// and frames out. `NcursesTerminal` is the real one; `MemoryTerminal` lets tests type keys
/// and read the frames drawn.
@MainActor
protocol DashboardTerminal: AnyObject {
    /// The descriptor `poll()` watches for input (stdin for the real terminal).
    var inputFD: Int32 { get }
    var size: (width: Int, height: Int) { get }
    /// The next pending input, or nil when there is none (never blocks).
    func read() -> TerminalInput?
    /// Characters and key codes taken from the terminal so far (wrapping): the event loop
    /// counts those of one read (`BurstGuard`).
    var charactersRead: Int { get }
    func flush(_ buffer: CellBuffer)
    /// Forgets what was shown so the next flush redraws every cell.
    func invalidate()
    /// Asks the kernel for the window size (after SIGWINCH).
    func syncSize()
    func bell()
    /// Writes an app-made control sequence (a desktop notification) between frames.
    func writeControl(_ bytes: [UInt8])
    func setTitle(_ title: String)
    /// When input that started arriving (a control sequence, a paste) is given up if nothing
    /// more comes: the loop wakes then and reads again.
    var inputDeadline: Double? { get }
    /// Turns the terminal's mouse reporting on or off.
    func setMouseReporting(_ on: Bool)
}

/// ncurses on stdin/stdout.
@MainActor
final class NcursesTerminal: DashboardTerminal {
    let screen: NcursesScreen
    let backend: NcursesBackend

    init(screen: NcursesScreen, backend: NcursesBackend) {
        self.screen = screen
        self.backend = backend
    }

    var inputFD: Int32 { 0 }
    var size: (width: Int, height: Int) { screen.size }
    func read() -> TerminalInput? { screen.read() }
    var charactersRead: Int { screen.charactersRead }
    func flush(_ buffer: CellBuffer) { backend.flush(buffer) }
    func invalidate() { backend.invalidate() }
    func syncSize() { screen.syncSizeWithTerminal() }
    func bell() { screen.bell() }
    func writeControl(_ bytes: [UInt8]) { backend.writeControl(bytes) }
    func setTitle(_ title: String) { backend.setTitle(title) }
    var inputDeadline: Double? { screen.inputDeadline }
    func setMouseReporting(_ on: Bool) { screen.setMouseReporting(on) }
}

/// A terminal in memory: keys typed by `type(_:)`, frames kept by a `MemoryBackend`.
@MainActor
final class MemoryTerminal: DashboardTerminal {
    let backend: MemoryBackend
    /// What is waiting, each input with the characters it took (a send's all go with its
    /// first input), so `charactersRead` counts them when they are read, as a terminal does.
    private var pending: [(input: TerminalInput, characters: Int)] = []
    private var pendingStart = 0
    /// Characters of sends that decoded to nothing (a dropped sequence), taken at the next read.
    private var unreadCharacters = 0
    private(set) var charactersRead = 0
    private(set) var bells = 0

    init(width: Int = 120, height: Int = 40) { backend = MemoryBackend(width: width, height: height) }

    /// Never readable: tests hand keys to the loop directly.
    var inputFD: Int32 { -1 }
    var size: (width: Int, height: Int) { backend.size }
    private(set) var mouseReporting = true
    /// Keys typed together, one read (each key is one character of it).
    func type(_ keys: [Key]) { pending += keys.map { (.key($0), 1) } }
    /// Bytes as a terminal sends them (keys, mouse reports, pastes), read together, through
    /// the same decoder as the real terminal.
    func send(_ bytes: [UInt8], now: Double = 0) {
        var decoder = InputDecoder()
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            decoder.feed(character: scalar.value, now: now)
        }
        decoder.endOfInput()
        decoder.expire(now: .infinity)
        var characters = decoder.charactersTaken
        while let input = decoder.next() {
            pending.append((input, characters))
            characters = 0
        }
        unreadCharacters += characters
    }
    /// Oldest first, without shifting the rest (a flood of a million keys stays linear).
    func read() -> TerminalInput? {
        charactersRead &+= unreadCharacters
        unreadCharacters = 0
        guard pendingStart < pending.count else { return nil }
        let next = pending[pendingStart]
        charactersRead &+= next.characters
        pendingStart += 1
        if pendingStart == pending.count {
            pending = []
            pendingStart = 0
        }
        return next.input
    }
    func flush(_ buffer: CellBuffer) { backend.flush(buffer) }
    func invalidate() { backend.invalidate() }
    func syncSize() {}
    func bell() { bells += 1 }
    func writeControl(_ bytes: [UInt8]) { backend.writeControl(bytes) }
    func setTitle(_ title: String) { backend.setTitle(title) }
    var inputDeadline: Double? { nil }
    func setMouseReporting(_ on: Bool) { mouseReporting = on }
}
