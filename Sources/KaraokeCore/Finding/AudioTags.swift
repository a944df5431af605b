/// What an audio file's own tags say about the song, as the tag reader found them (DESIGN §10).
///
/// The reader fills it from ID3v2 (SYLT, USLT), Vorbis comments (FLAC, Ogg, Opus) and MP4 atoms; the finder
/// and `fetch` read the names and the length from it, and the lyrics when there are some.
public struct AudioTags: Sendable, Equatable {
    /// One line of synchronised lyrics (an ID3 SYLT entry): when it starts and what it says.
    public struct SyncedLine: Sendable, Equatable {
        /// The line's start in milliseconds from the start of the audio.
        public var milliseconds: Int
        /// The line's text as the tag holds it.
        public var text: String

        /// Creates a line.
        public init(milliseconds: Int, text: String) {
            self.milliseconds = milliseconds
            self.text = text
        }
    }

    /// Lyrics held as text by a tag (USLT, Vorbis `LYRICS`/`SYNCEDLYRICS`/`UNSYNCEDLYRICS`, MP4 `©lyr`).
    public struct LyricText: Sendable, Equatable {
        /// Where the text came from, as a person would name it: `USLT`, `Vorbis LYRICS`, `MP4 ©lyr`.
        public var source: String
        /// The text, often LRC.
        public var text: String
    }

    /// The title tag.
    public var title: String?
    /// The artist tag.
    public var artist: String?
    /// The album tag.
    public var album: String?
    /// The audio's length in seconds, when the file says.
    public var duration: Double?
    /// Synchronised lyrics (ID3 SYLT), in the order of the frame; empty when there are none.
    public var syncedLines: [SyncedLine]
    /// Lyrics the tags hold as text, in the order they were found.
    public var lyricTexts: [LyricText]
    /// What the reader left out and why (a SYLT frame timed in a unit it cannot convert, a capped list).
    public var notes: [String] = []

    /// Creates tags.
    public init(
        title: String? = nil, artist: String? = nil, album: String? = nil, duration: Double? = nil,
        syncedLines: [SyncedLine] = [], lyricTexts: [LyricText] = []
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.duration = duration
        self.syncedLines = syncedLines
        self.lyricTexts = lyricTexts
    }
}
