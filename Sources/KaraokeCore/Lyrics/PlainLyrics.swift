/// Lyrics without timing: the lines as written, and what is known about the song (DESIGN §4, §10.1).
///
/// karaoke invents no timing for them: the player shows them as pages that turn with the song's progress.
public struct PlainLyrics: Sendable, Equatable {
    /// The song's names and, when known, its length (`length`, milliseconds), which the pages turn over.
    public var metadata: SongMetadata
    /// The lines, control characters removed; an empty line is a break between verses.
    public var lines: [String]

    /// Creates plain lyrics.
    public init(metadata: SongMetadata = SongMetadata(), lines: [String]) {
        self.metadata = metadata
        self.lines = lines
    }

    /// The lines of an untimed `text`, sanitised as lyric files are; blank lines inside it (between verses)
    /// stay as one empty line each, outer ones go.
    public init(metadata: SongMetadata = SongMetadata(), text: String) {
        self.init(metadata: metadata, lines: AudioTags.plainLines(text))
    }

    /// Whether there is a word to show.
    public var isEmpty: Bool { !lines.contains { !$0.isEmpty } }
}
