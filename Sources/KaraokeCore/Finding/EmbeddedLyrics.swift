/// Lyrics found inside an audio file's tags, and which tag they came from (DESIGN §10.2).
public struct EmbeddedLyrics: Sendable {
    /// What the tag held.
    public enum Content: Sendable {
        /// Timed lyrics (a SYLT frame, or a lyric text that reads as LRC): the parse, with its warnings.
        case timed(ParseResult)
        /// Text without timing, one string per line, control characters removed; the finder decides
        /// what to do with it (karaoke invents no timing).
        case plain([String])
    }

    /// The tag, as `check` names it: `SYLT`, `USLT`, `Vorbis LYRICS`, `MP4 ©lyr`.
    public var tag: String
    /// The audio file's name, as the user gave it.
    public var fileName: String
    /// The lyrics.
    public var content: Content

    /// `embedded SYLT in song.mp3`, the source `check` prints.
    public var sourceDescription: String { "embedded \(tag) in \(fileName)" }

    /// The song, when the lyrics are timed.
    public var song: Song? {
        guard case .timed(let result) = content else { return nil }
        return result.song
    }
}
