/// A timed song: metadata and the sung lines in time order, with their end times settled.
///
/// All times are milliseconds of *file time*, the clock the lyric file's stamps are written in. The
/// playback clock relates to it through the offsets: file time = playback time + file offset + user
/// offset (DESIGN §2: a positive offset shows the lyrics sooner).
public struct Song: Sendable, Equatable {
    /// The song's tags (`[ti:]`, `[ar:]`, …).
    public var metadata: SongMetadata
    /// The sung lines sorted by start; a line sung at several stamps appears once per stamp.
    public var lines: [LyricLine]
    /// The median length of the line-timed lines that have a real end stamp (DESIGN §2, M); for a song
    /// timed word by word, of all its lines with a real end stamp; nil when no line has one.
    public var medianLineDuration: Int?
    /// The notes with their pitches, for scoring (DESIGN §15); nil for a format without notes (all but UltraStar).
    public var notes: NoteTrack?
    /// The MIDI channel (0…15 as in the status byte; General MIDI's drums are 9) whose notes are the melody of a
    /// MIDI karaoke song (DESIGN §7.7), so that the music synthesised for `v` has it turned down (DESIGN §18); nil
    /// for every other format and for a MIDI file whose music does not follow its lyrics.
    public var melodyChannel: Int?

    /// Creates a song from lines that are already sorted and have their ends.
    public init(metadata: SongMetadata, lines: [LyricLine], medianLineDuration: Int?, notes: NoteTrack? = nil) {
        self.metadata = metadata
        self.lines = lines
        self.medianLineDuration = medianLineDuration
        self.notes = notes
    }

    /// The longest a line-timed line (or an open last word segment) takes to sweep: `max(2 s, 2 × M)`.
    ///
    /// Without a median (a one-line song) there is nothing to compare a gap with, so there is no cap.
    public var sweepCap: Int {
        guard let median = medianLineDuration else { return Int.max }
        return max(2000, 2 * median)
    }

    /// Where the song ends in file time: the later of the last line's end and `[length:]`.
    public var endTime: Int {
        let lastEnd = lines.last?.end ?? 0
        if let length = metadata.length { return max(lastEnd, length + metadata.offset) }
        return lastEnd
    }

    /// How long the song plays, in milliseconds of playback time from 0.
    public var duration: Int { max(0, endTime - metadata.offset) }

    /// The number of lines that carry word timing.
    public var wordTimedLineCount: Int { lines.reduce(0) { $0 + ($1.isWordTimed ? 1 : 0) } }
}

/// The tags of a lyric file that describe the song rather than time a line.
public struct SongMetadata: Sendable, Equatable {
    /// `[ti:]`
    public var title: String?
    /// `[ar:]`
    public var artist: String?
    /// `[al:]`
    public var album: String?
    /// `[au:]`, the songwriter.
    public var author: String?
    /// `[by:]`, who made the lyric file.
    public var creator: String?
    /// `[length:]` in milliseconds.
    public var length: Int?
    /// `[offset:]` in milliseconds; positive shows the lyrics sooner.
    public var offset: Int = 0
    /// The song's audio file as the lyric file names it (UltraStar `#MP3:`/`#AUDIO:`), relative to the
    /// lyric file's folder.
    public var audioFile: String?
    /// The language the file says its lyrics are in, as written (`[la:]`, TTML's `xml:lang`): a BCP 47 tag
    /// whose direction is the lines' base direction (DESIGN §3.5).
    public var language: String?

    /// Creates empty metadata.
    public init(
        title: String? = nil, artist: String? = nil, album: String? = nil, author: String? = nil,
        creator: String? = nil, length: Int? = nil, offset: Int = 0
    ) {
        self.title = title
        self.artist = artist
        self.album = album
        self.author = author
        self.creator = creator
        self.length = length
        self.offset = offset
    }

    /// The heading the player shows: `title — artist`, the title alone, or nil when the file has no title.
    public var displayTitle: String? {
        switch (title, artist) {
        case let (title?, artist?): return "\(title) — \(artist)"
        case let (title?, nil): return title
        default: return nil
        }
    }
}

extension Song {
    /// The song with its playback length at least `milliseconds` (the audio's length, DESIGN §2): the
    /// last line, when its end was estimated, lasts to the audio's end.
    public func lasting(atLeast milliseconds: Int) -> Song {
        var song = self
        let end = milliseconds + metadata.offset
        song.metadata.length = max(metadata.length ?? 0, milliseconds)
        if let last = song.lines.indices.last, song.lines[last].endIsEstimated, song.lines[last].end < end {
            song.lines[last].end = end
        }
        return song
    }
}
