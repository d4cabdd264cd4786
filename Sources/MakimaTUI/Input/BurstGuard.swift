/// Tells a key the operator typed from one that came with other input. A person's keys come
/// one per read; a paste into a terminal without bracketed paste (or one whose markers were
/// lost), a bracketed paste and the keys after its end marker, a mouse report, a string the
/// terminal sent: each arrives as many characters in one read, and a terminal can split them
/// over a few reads in quick succession. Destructive and final actions (sign-out, key
/// rotation, quitting) need a deliberate key.
///
/// "Alone" is counted in characters the terminal delivered (`InputDecoder.charactersTaken`),
/// not in decoded keys: a paste, a dropped escape sequence or a mouse report decodes to no
/// key at all, yet the Enter after it in the same read is not typed alone.
struct BurstGuard {
    /// Seconds after a read that was not one key alone during which a key is still taken as
    /// the rest of it (a split paste's tail, the CR behind a paste's end marker): longer than
    /// a terminal's gaps between the pieces of one write, shorter than a person's reaction to
    /// what a paste did.
    static let settle = 0.3
    private var lastBurstAt = -Double.infinity

    /// Whether the key of a read that took `characters` characters and decoded to `inputs`
    /// inputs at `now` is deliberate: one character, one input, and not within `settle` of
    /// a read that was more. Each read that is not deliberate starts the window again.
    mutating func deliberate(characters: Int, inputs: Int, now: Double) -> Bool {
        if characters == 0 && inputs == 0 { return true }
        if characters != 1 || inputs != 1 || now - lastBurstAt < Self.settle {
            lastBurstAt = now
            return false
        }
        return true
    }
}
