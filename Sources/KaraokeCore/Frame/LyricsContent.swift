/// What fills the lyric area (DESIGN §4).
public enum LyricsContent: Sendable, Equatable {
    /// Timed lyrics, swept as they are sung.
    case timed(Song)
    /// Untimed lyrics: pages turning with the song's progress, marked "not timed".
    case plain(PlainLyrics)
    /// One message centred under the title, such as "looking up A — T on lrclib.net…".
    case message(String)
    /// A CD+G picture fills the area (`FrameInput.picture`, DESIGN §19.7); the metadata names the song.
    case graphics(SongMetadata)

    /// The song whose clock the content is shown on: the timed song itself, else a song without lines
    /// whose length is the plain lyrics' (or none), so the audio's length can stretch it (DESIGN §2).
    public var song: Song {
        switch self {
        case .timed(let song): song
        case .plain(let plain): Song(metadata: plain.metadata, lines: [], medianLineDuration: nil)
        case .message: Song(metadata: SongMetadata(), lines: [], medianLineDuration: nil)
        case .graphics(let metadata): Song(metadata: metadata, lines: [], medianLineDuration: nil)
        }
    }

    /// `song` lasting at least `length` milliseconds (the audio's length, when known), as the player's
    /// state stretches it (DESIGN §2).
    func song(lastingAtLeast length: Int?) -> Song {
        guard let length else { return song }
        return song.lasting(atLeast: length)
    }
}
