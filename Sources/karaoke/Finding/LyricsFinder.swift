import Glibc
import KaraokeCore

/// Finds the lyrics of an audio file in the order DESIGN §10.1 gives (`LyricsSearch.steps`): `--lyrics`,
/// beside the audio, the lyric folders, the audio's own tags, LRCLIB.
///
/// The tag reader and LRCLIB are other parts of karaoke; they plug in here as closures, so the search does
/// not load their libraries until a step needs them, and tests can stand in for them.
struct LyricsFinder {
    /// Reads the tags of the audio file at a path; nil when it has none or they cannot be read.
    typealias TagReader = (String) -> AudioTags?
    /// Lyrics made by another part of karaoke (from tags, from LRCLIB): the song, its warnings, its origin.
    struct SuppliedLyrics {
        /// The song.
        var song: Song
        /// Warnings about it (an LRC text in a tag is parsed like a file).
        var diagnostics: [Diagnostic] = []
        /// How `check` names where it came from (`.embedded("embedded SYLT in song.mp3")`).
        var origin: LyricsOrigin
    }
    /// Makes a song of the lyrics in the tags of the audio at the path: SYLT, then a lyrics text that
    /// reads as LRC; nil when the tags hold none.
    typealias EmbeddedLyrics = (AudioTags, String) -> SuppliedLyrics?
    /// Asks LRCLIB for the song; nil when it has none (or cannot be reached).
    typealias LRCLIBLookup = (AudioIdentity) -> SuppliedLyrics?

    /// The tag reader; used for the artist, title and length when the name alone matched nothing.
    var readTags: TagReader = { _ in nil }
    /// The lyrics in the tags; nil skips that step.
    var embeddedLyrics: EmbeddedLyrics? = nil
    /// LRCLIB; nil (the default) skips that step, so nothing goes over the network.
    var lrclib: LRCLIBLookup? = nil
    /// The environment (`HOME`, `XDG_DATA_HOME`, `XDG_CACHE_HOME`).
    var environment: (String) -> String? = TerminalInfo.environment

    /// The finder `play`, `render` and `check` use.
    ///
    /// The tag reader and the embedded lyrics are wired here (`readTags`, `embeddedLyrics`), and LRCLIB
    /// for `play --fetch` (`lrclib`); until then the search stops after the lyric folders.
    static var standard: LyricsFinder { LyricsFinder() }

    /// What was found: a lyric file to read, or lyrics already made, and where they came from.
    struct Found {
        /// The lyrics.
        enum Content {
            /// A lyric file.
            case file(String)
            /// A song made from tags or LRCLIB.
            case supplied(SuppliedLyrics)
        }

        var content: Content
        var origin: LyricsOrigin
    }

    /// Looks for the lyrics of the audio file `audio`, in order; a failure says where it looked.
    func find(audio: String, options: LyricsSearchOptions) -> Result<Found, LyricFile.Failure> {
        let shown = ControlCharacters.strip(audio)
        let home = LyricsSearch.home(environment)
        let steps = LyricsSearch.steps(
            lyricsFile: options.file, readsTags: embeddedLyrics != nil, lrclibAllowed: lrclib != nil)
        if case .given(let file) = steps.first {
            return .success(Found(content: .file(file), origin: .given(file: ControlCharacters.strip(file))))
        }
        guard AudioSource.isRegularFile(audio) else {
            return .failure(LyricFile.Failure(message: "\(shown): \(AudioSource.isDirectory(audio) ? "is a directory" : "no such file")"))
        }
        // The tags are read at most once, and only when a step needs them (the tag library loads then).
        var tagsRead = false
        var tags: AudioTags? = nil
        func audioTags() -> AudioTags? {
            if !tagsRead { tags = readTags(audio); tagsRead = true }
            return tags
        }
        var folders: [String] = []
        for step in steps {
            switch step {
            case .given: continue
            case .sidecar:
                if let file = AudioFiles.lyricCandidates(forAudio: audio).first(where: AudioSource.isRegularFile) {
                    return .success(
                        Found(
                            content: .file(file),
                            origin: .sidecar(file: ControlCharacters.strip(file), audio: shown)))
                }
            case .folders:
                folders = options.folders.isEmpty
                    ? LyricsSearch.defaultFolders(environment: environment).filter(LyricsFolderStore.isDirectory)
                    : options.folders
                let store = LyricsFolderStore(cacheFolder: LyricsSearch.cacheFolder(environment: environment))
                let indexes = folders.compactMap(store.index(of:))
                // The name needs no tags; the artist, title and length do.
                var match = LyricsSearch.bestMatch(in: indexes, for: AudioIdentity(path: audio, tags: nil))
                if match?.kind != .name {
                    let identity = AudioIdentity(path: audio, tags: audioTags())
                    match = LyricsSearch.bestMatch(in: indexes, for: identity)
                }
                if let match {
                    let file = indexes[match.folderPosition].folder + "/" + match.entry.status.path
                    return .success(
                        Found(
                            content: .file(file),
                            origin: .folder(file: ControlCharacters.strip(file), kind: match.kind)))
                }
            case .embedded:
                if let tags = audioTags(), let supplied = embeddedLyrics?(tags, audio) {
                    return .success(Found(content: .supplied(supplied), origin: supplied.origin))
                }
            case .lrclib:
                if let supplied = lrclib?(AudioIdentity(path: audio, tags: audioTags())) {
                    return .success(Found(content: .supplied(supplied), origin: supplied.origin))
                }
            }
        }
        let shownFolders = folders.map { ControlCharacters.strip($0) }
        return .failure(
            LyricFile.Failure(
                message: LyricsSearch.notFoundMessage(audio: shown, folders: shownFolders, home: home, steps: steps)))
    }

    /// Reads what `find` found: the lyric file, or the song as it was supplied.
    static func load(_ content: Found.Content, audio: String, maxSize: Int, encoding: String?) -> Result<LyricFile.Loaded, LyricFile.Failure> {
        switch content {
        case .file(let file):
            return LyricFile.load(file, maxSize: maxSize, encoding: encoding)
        case .supplied(let supplied):
            let name = NameMatching.baseName(of: ControlCharacters.strip(audio))
            return .success(LyricFile.Loaded(song: supplied.song, diagnostics: supplied.diagnostics, fallbackTitle: name))
        }
    }

    /// Finds and reads the lyrics of `audio`; a failure's message is ready for `karaoke: `.
    func load(audio: String, options: LyricsSearchOptions, maxSize: Int, encoding: String?) -> Result<(loaded: LyricFile.Loaded, origin: LyricsOrigin), LyricFile.Failure> {
        switch find(audio: audio, options: options) {
        case .failure(let failure): return .failure(failure)
        case .success(let found):
            return Self.load(found.content, audio: audio, maxSize: maxSize, encoding: encoding).map { ($0, found.origin) }
        }
    }
}
