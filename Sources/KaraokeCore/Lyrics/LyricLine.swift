/// One sung line: its span, its text, optional word timing, and the romanization and translations shown under it.
public struct LyricLine: Sendable, Equatable {
    /// When the line starts, in file-time milliseconds.
    public var start: Int
    /// When the line ends: the next stamp, `[length:]`, or an estimate for the last line.
    public var end: Int
    /// The text as shown, control characters removed, outer spaces trimmed.
    public var text: String
    /// Word segments in order; empty for a line-timed line. Their texts concatenate to `text`.
    public var segments: [WordSegment]
    /// Lines that share this line's stamp, shown dimmer under it and never swept.
    public var translations: [String]
    /// The 1-based line of the file the line came from, for messages.
    public var sourceLine: Int
    /// Whether `end` is a guess (the last line without a later stamp) rather than a stamp.
    public var endIsEstimated: Bool
    /// Who sings the line in a duet; nil when the file does not say.
    public var voice: Voice?
    /// The line in Latin letters, shown dim under it above its translations; nil when there is none
    /// (DESIGN §29). Kept apart from `translations`: it is a reading, swept with its words when timed.
    public var romanization: Romanization?

    /// Creates a line.
    public init(
        start: Int, end: Int, text: String, segments: [WordSegment] = [], translations: [String] = [],
        sourceLine: Int = 0, endIsEstimated: Bool = false, voice: Voice? = nil, romanization: Romanization? = nil
    ) {
        self.start = start
        self.end = end
        self.text = text
        self.segments = segments
        self.translations = translations
        self.sourceLine = sourceLine
        self.endIsEstimated = endIsEstimated
        self.voice = voice
        self.romanization = romanization
    }

    /// Whether the line has word timing.
    public var isWordTimed: Bool { !segments.isEmpty }
}

/// A line's reading in Latin letters: from the file (TTML `x-roman`, Apple's `<transliterations>`) or made
/// by `--romanize` (DESIGN §29).
public struct Romanization: Sendable, Equatable {
    /// The whole reading, as shown.
    public var text: String
    /// Word segments in order when the reading is word-timed, else empty. Their texts concatenate to `text`.
    public var segments: [WordSegment]

    /// Creates a reading.
    public init(text: String, segments: [WordSegment] = []) {
        self.text = text
        self.segments = segments
    }

    /// Whether the reading has word timing.
    public var isWordTimed: Bool { !segments.isEmpty }
}

/// A stretch of a word-timed line, sung from its tag to the next one.
public struct WordSegment: Sendable, Equatable {
    /// When the segment starts, in file-time milliseconds.
    public var start: Int
    /// When the segment is fully sung.
    public var end: Int
    /// The segment's text, including the space that follows a word.
    public var text: String
}

/// A singer of a duet, as the file marks it: LRC `v1:`/`M:`/`F:`/`D:`, UltraStar `P1`/`P2`, TTML agents.
public enum Voice: Sendable, Hashable {
    /// One part, numbered from 0 in the order the file introduces them (`M:` and `v1:` are 0, `F:` and `v2:` 1).
    case part(Int)
    /// Everyone together (LRC `D:`, an UltraStar note sung by both, a TTML group agent).
    case together
}
