/// The choices that shape a frame, shared by `play` and `render` (DESIGN §1).
public struct FrameOptions: Sendable, Equatable {
    /// Alignment of lyric rows in the lyric area.
    public enum Alignment: String, Sendable, CaseIterable {
        case left, center, right
    }

    /// No sweep: a row or segment lights whole; the title stands still.
    public var reduceMotion = false
    /// Brightness of unsung text, 0…1.
    public var restOpacity = 0.35
    /// The user's offset in milliseconds, added to the file's; positive shows lyrics earlier.
    public var userOffset = 0
    /// Alignment of lyric rows.
    public var alignment = Alignment.center
    /// The title's colours and cycle.
    public var gradient = TitleGradient()
    /// The colours lyrics blend between.
    public var theme = Theme.dark
    /// Whether three dots count in the first line and each line after a silence (`--no-countdown`
    /// turns it off; DESIGN §14.3).
    public var countIn = true
    /// How emoji sequences are painted: reduced, or whole on a terminal in grapheme-cluster mode (DESIGN
    /// §3.6). The layout's widths are the same either way.
    public var graphemes = GraphemeForm.reduced
    /// Whether a line's romanization is shown under it (`--no-romanization` turns it off; DESIGN §29.3).
    public var showsRomanization = true
    /// Whether lines without a romanization get one made (`--romanize`, DESIGN §29.4).
    public var romanizes = false
    /// Who makes those romanizations, in order (DESIGN §29.4): the core's Korean; the edge adds Japanese.
    public var romanizers = Romanizers.core
    /// The song's place in a queue as the status bar shows it, `2/7`; nil outside a queue (DESIGN §14.2).
    public var queuePosition: String?

    /// How big the lyrics are drawn (`--size`, DESIGN §23); 1 is text.
    public var size = LyricSize.fixed(1)
    /// The block characters of big glyphs.
    public var bigCells = BigTextCells.quadrants
    /// Where the big glyphs' font comes from; nil: no font, so size 1.
    public var bigFont: BigFontSource?

    /// How right-to-left rows are put in visual order: an algorithm the edge passes in (FriBidi), or the simple
    /// rule (DESIGN §3.5).
    public var bidi = BidiChoice.simple

    /// The defaults of DESIGN §1.
    public init() {}
}
