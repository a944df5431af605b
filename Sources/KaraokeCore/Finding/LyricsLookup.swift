/// The search of DESIGN §10.1 carried out over `LyricsSources`: the order, the tags read once and only when
/// needed, the name tried before the tags, the message when nothing is found. Pure given its sources, so the
/// order is tested with stand-ins; the executable's `LyricsFinder` gives it the real file system.
public enum LyricsLookup {
    /// Looks for the lyrics of the audio file `audio` (which the caller has checked is a file), in order.
    ///
    /// `folders` are the lyric folders to search (`--lyrics-dir`, else the defaults that exist); `home` is
    /// shown as `~` in the origin and the message. A failure is the message after `karaoke: `.
    public static func find(
        audio: String, options: LyricsSearchOptions, folders: [String], home: String?, sources: LyricsSources
    ) -> Result<FoundLyrics, NotFound> {
        let shown = ControlCharacters.strip(audio)
        let steps = LyricsSearch.steps(
            lyricsFile: options.file, readsTags: sources.embeddedLyrics != nil, lrclibAllowed: sources.lrclib != nil)
        // The tags are read at most once, and only when a step needs them (the tag library loads then).
        var tagsRead = false
        var tags: AudioTags? = nil
        func audioTags() -> AudioTags? {
            if !tagsRead {
                tags = sources.readTags(audio)
                tagsRead = true
            }
            return tags
        }
        for step in steps {
            switch step {
            case .given(let file):
                return .success(FoundLyrics(content: .file(file), origin: .given(file: ControlCharacters.strip(file))))
            case .sidecar:
                if let file = AudioFiles.lyricCandidates(forAudio: audio).first(where: sources.isRegularFile) {
                    return .success(
                        FoundLyrics(
                            content: .file(file), origin: .sidecar(file: ControlCharacters.strip(file), audio: shown)))
                }
            case .folders:
                guard !folders.isEmpty else { continue }
                let indexes = folders.compactMap(sources.folderIndex)
                // The name needs no tags; the artist, title and length do.
                var match = LyricsSearch.bestMatch(in: indexes, for: AudioIdentity(path: audio, tags: nil))
                if match?.kind != .name {
                    match = LyricsSearch.bestMatch(in: indexes, for: AudioIdentity(path: audio, tags: audioTags()))
                }
                if let match {
                    let file = indexes[match.folderPosition].folder + "/" + match.entry.status.path
                    return .success(
                        FoundLyrics(
                            content: .file(file), origin: .folder(file: ControlCharacters.strip(file), kind: match.kind)
                        ))
                }
            case .embedded:
                if let tags = audioTags(), let supplied = sources.embeddedLyrics?(tags, audio) {
                    return .success(FoundLyrics(content: .supplied(supplied), origin: supplied.origin))
                }
            case .lrclib:
                if let supplied = sources.lrclib?(AudioIdentity(path: audio, tags: audioTags())) {
                    return .success(FoundLyrics(content: .supplied(supplied), origin: supplied.origin))
                }
            }
        }
        return .failure(
            NotFound(
                audio: shown,
                places: LyricsSearch.placesLooked(
                    folders: folders.map(ControlCharacters.strip), home: home, steps: steps)))
    }

    /// Nothing was found; the message names every place looked in.
    public struct NotFound: Error, Sendable, Equatable {
        /// The audio file, as shown.
        public var audio: String
        /// Where the search looked: `beside it, in ~/.lyrics, in its tags`.
        public var places: String

        /// The text after `karaoke: `: `no lyrics found for song.mp3 (looked beside it, in its tags)`.
        public var message: String { LyricsSearch.notFoundMessage(audio: audio, places: places) }
        /// The message without the file, for a queue that names it first: `no lyrics found (looked …)`.
        public var reason: String { LyricsSearch.notFoundReason(places: places) }
    }
}

/// What the search needs from outside the core: the file system, the tag reader, the conversion of tags to a
/// song, and LRCLIB. The executable gives the real ones; tests give stand-ins.
public struct LyricsSources {
    /// Whether a path is a regular file (for the sidecar).
    public var isRegularFile: (String) -> Bool
    /// The index of a lyric folder as it is now (walked, refreshed, cached), or nil when it cannot be read.
    public var folderIndex: (String) -> LyricsFolderIndex?
    /// The tags of the audio file at a path; nil when it has none or they cannot be read.
    public var readTags: (String) -> AudioTags?
    /// A song made from the lyrics in the tags (SYLT, then a lyrics text that reads as LRC) of the audio at
    /// the path; nil when they hold none. Nil leaves the step out.
    public var embeddedLyrics: ((AudioTags, String) -> SuppliedLyrics?)?
    /// Asks LRCLIB for the song. Nil (no network allowed) leaves the step out.
    public var lrclib: ((AudioIdentity) -> SuppliedLyrics?)?

    /// Creates sources; without a tag reader, embedded lyrics or LRCLIB, those steps are skipped.
    public init(
        isRegularFile: @escaping (String) -> Bool, folderIndex: @escaping (String) -> LyricsFolderIndex?,
        readTags: @escaping (String) -> AudioTags? = { _ in nil },
        embeddedLyrics: ((AudioTags, String) -> SuppliedLyrics?)? = nil,
        lrclib: ((AudioIdentity) -> SuppliedLyrics?)? = nil
    ) {
        self.isRegularFile = isRegularFile
        self.folderIndex = folderIndex
        self.readTags = readTags
        self.embeddedLyrics = embeddedLyrics
        self.lrclib = lrclib
    }
}

/// Lyrics made by another part of karaoke (from tags, from LRCLIB): the song or the plain lyrics, their
/// warnings, their origin.
public struct SuppliedLyrics: Sendable, Equatable {
    /// The lyrics: a timed song, or plain lyrics to show as pages (DESIGN §4).
    public var content: LyricsContent
    /// Warnings about it (an LRC text in a tag is parsed like a file).
    public var diagnostics: [Diagnostic]
    /// How `check` names where it came from, such as `.embedded("embedded SYLT in song.mp3")`.
    public var origin: LyricsOrigin

    /// Creates supplied lyrics of a timed song.
    public init(song: Song, diagnostics: [Diagnostic] = [], origin: LyricsOrigin) {
        self.init(content: .timed(song), diagnostics: diagnostics, origin: origin)
    }

    /// Creates supplied lyrics.
    public init(content: LyricsContent, diagnostics: [Diagnostic] = [], origin: LyricsOrigin) {
        self.content = content
        self.diagnostics = diagnostics
        self.origin = origin
    }

    /// The song to play: the timed song, or for plain lyrics a song without lines (see `LyricsContent.song`).
    public var song: Song { content.song }
}

/// What the search found: a lyric file to read, or lyrics already made, and where they came from.
public struct FoundLyrics: Sendable, Equatable {
    /// The lyrics.
    public enum Content: Sendable, Equatable {
        /// A lyric file, still to be read.
        case file(String)
        /// A song made from tags or LRCLIB.
        case supplied(SuppliedLyrics)
    }

    /// The lyrics.
    public var content: Content
    /// Where they came from.
    public var origin: LyricsOrigin

    /// Creates a result.
    public init(content: Content, origin: LyricsOrigin) {
        self.content = content
        self.origin = origin
    }
}
