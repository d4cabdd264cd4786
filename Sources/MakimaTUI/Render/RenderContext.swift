/// What every component needs to know about the frame besides its own data.
public struct RenderContext: Equatable, Sendable {
    public var glyphs: Glyphs
    /// True while the Japanese terms' English glosses are shown (the `g` key).
    public var glossRevealed: Bool

    public init(glyphs: Glyphs = .unicode, glossRevealed: Bool = false) {
        self.glyphs = glyphs
        self.glossRevealed = glossRevealed
    }
}
