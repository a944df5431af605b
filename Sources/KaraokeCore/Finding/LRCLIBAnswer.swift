/// What the player shows once LRCLIB has answered the lookup `play --fetch` (or `follow --fetch`) makes while
/// the song plays (DESIGN §11): the lyrics, or a message saying why there are none.
public struct LRCLIBAnswer: Sendable, Equatable {
    /// What fills the lyric area from now on.
    public var content: LyricsContent
    /// Warnings about the record's lyrics (its LRC is parsed like a file's).
    public var diagnostics: [Diagnostic]
    /// A word for the status bar: the match taken.
    public var notice: String?

    /// Creates an answer.
    public init(content: LyricsContent, diagnostics: [Diagnostic] = [], notice: String? = nil) {
        self.content = content
        self.diagnostics = diagnostics
        self.notice = notice
    }

    /// `ARTIST — TITLE` as the messages name the song.
    public static func songName(_ query: LRCLIBQuery) -> String {
        ControlCharacters.strip(query.artist) + " — " + ControlCharacters.strip(query.title)
    }

    /// The message while the lookup runs: `looking up ARTIST — TITLE on lrclib.net…`.
    public static func lookingUp(_ query: LRCLIBQuery, server: String) -> String {
        "looking up \(songName(query)) on \(LRCLIBQuery.host(of: server))…"
    }

    /// The message when the server answered that it has nothing to show: `no lyrics for ARTIST — TITLE`.
    public static func noLyrics(_ query: LRCLIBQuery) -> String { "no lyrics for \(songName(query))" }

    /// The message when no answer came: `could not look up ARTIST — TITLE: REASON`, where the reason names
    /// the server (`cannot connect to lrclib.net: …`).
    public static func lookupFailed(_ query: LRCLIBQuery, reason: String) -> String {
        "could not look up \(songName(query)): \(ControlCharacters.strip(reason))"
    }

    /// The answer for what LRCLIB has for `query` (from the cache or the server): the best record, as
    /// `fetch` would take it, shown timed, as plain pages, or as a message for an instrumental or nothing.
    public init(records: [LRCLIBRecord], query: LRCLIBQuery) {
        guard let chosen = LRCLIBRecord.ranked(records, duration: query.duration).first else {
            self.init(content: .message(LRCLIBAnswer.noLyrics(query)))
            return
        }
        let notice = "lrclib: \(chosen.summary)"
        switch chosen.lyrics() {
        case .timed(let lrc, let warnings):
            // The LRC karaoke wrote from the record, so its tags carry the record's names and length.
            if let song = LRCParser.parse(Array(lrc.utf8), file: chosen.sourceName).song {
                self.init(content: .timed(song), diagnostics: warnings, notice: notice)
            } else {
                self.init(content: .message(LRCLIBAnswer.noLyrics(query)), diagnostics: warnings)
            }
        case .untimed(let text):
            var metadata = SongMetadata(
                title: ControlCharacters.strip(chosen.trackName), artist: ControlCharacters.strip(chosen.artistName))
            metadata.album = chosen.albumName.map(ControlCharacters.strip)
            if let duration = chosen.duration, duration > 0, duration < 360_000 {
                metadata.length = Int((duration * 1000).rounded())
            }
            self.init(content: .plain(PlainLyrics(metadata: metadata, text: text)), notice: notice)
        case .instrumental:
            self.init(content: .message("\(LRCLIBAnswer.songName(query)) is an instrumental"), notice: notice)
        case .none:
            self.init(content: .message(LRCLIBAnswer.noLyrics(query)))
        }
    }

    /// The answer when the lookup failed (`message` says why): the lyric area says so for as long as the song
    /// plays, since "no lyrics" would read as LRCLIB having none, and a notice would be gone in seconds.
    public init(failure message: String, query: LRCLIBQuery) {
        self.init(content: .message(LRCLIBAnswer.lookupFailed(query, reason: message)))
    }
}
