import Glibc
import KaraokeCore

/// Finds the lyrics of an audio file on this machine (DESIGN §10.1): the core's `LyricsLookup` over the real
/// file system, the lyric folders' cached indexes, and the tags through `karaoke-tags`.
struct LyricsFinder {
    /// Reads the tags of the audio file at a path; nil when it has none or they cannot be read.
    var readTags: (String) -> AudioTags? = { _ in nil }
    /// Makes a song of the lyrics in the tags (SYLT, then a lyrics text that reads as LRC); nil skips the step.
    var embeddedLyrics: ((AudioTags, String) -> SuppliedLyrics?)? = nil
    /// Asks LRCLIB; nil (the default) skips the step, so nothing goes over the network.
    var lrclib: ((AudioIdentity) -> SuppliedLyrics?)? = nil
    /// The environment (`HOME`, `XDG_DATA_HOME`, `XDG_CACHE_HOME`).
    var environment: (String) -> String? = TerminalInfo.environment

    /// The finder `play`, `render` and `check` use: the tags through `karaoke-tags` (DESIGN §10.2); LRCLIB is
    /// not asked, so nothing goes over the network.
    static var standard: LyricsFinder {
        var finder = LyricsFinder()
        finder.readTags = { path in
            switch TagReader.read(path) {
            case .success(let tags): return tags
            case .failure(let failure):
                // The search goes on without the tags and says where it looked; a file TagLib does not know
                // as audio is no news worth a line.
                if failure.kind != .notAudio { StandardStreams.err("karaoke: warning: \(failure.message)") }
                return nil
            }
        }
        finder.embeddedLyrics = { tags, audio in
            let shown = ControlCharacters.strip(audio)
            let name = shown.split(separator: "/").last.map(String.init) ?? shown
            guard let found = tags.lyrics(fileName: name) else { return nil }
            switch found.content {
            case .timed(let result):
                guard let song = result.song else { return nil }
                return SuppliedLyrics(
                    song: song, diagnostics: result.diagnostics, origin: .embedded(found.sourceDescription))
            case .plain(let lines):
                // karaoke invents no timing: plain text is shown as pages that turn with the song (DESIGN §4).
                return SuppliedLyrics(
                    content: .plain(PlainLyrics(metadata: tags.songMetadata, lines: lines)),
                    origin: .embedded(found.sourceDescription))
            }
        }
        return finder
    }

    /// Looks for the lyrics of the audio file `audio`; a failure says where it looked.
    func find(audio: String, options: LyricsSearchOptions) -> Result<FoundLyrics, LyricFile.Failure> {
        if options.file == nil, !AudioSource.isRegularFile(audio) {
            let reason = AudioSource.isDirectory(audio) ? "is a directory" : "no such file"
            return .failure(LyricFile.Failure(file: ControlCharacters.strip(audio), reason: reason))
        }
        // A folder the user named and that is not there is worth a word; a default one that is not there is not.
        for folder in options.folders where !AudioSource.isDirectory(folder) {
            StandardStreams.err("karaoke: warning: --lyrics-dir '\(ControlCharacters.strip(folder))' is not a folder")
        }
        let folders =
            options.folders.isEmpty
            ? LyricsSearch.defaultFolders(environment: environment).filter(AudioSource.isDirectory)
            : options.folders.filter(AudioSource.isDirectory)
        let store = LyricsFolderStore(cacheFolder: LyricsSearch.cacheFolder(environment: environment))
        let sources = LyricsSources(
            isRegularFile: AudioSource.isRegularFile, folderIndex: store.index(of:), readTags: readTags,
            embeddedLyrics: embeddedLyrics, lrclib: lrclib)
        return LyricsLookup.find(
            audio: audio, options: options, folders: folders, home: LyricsSearch.home(environment), sources: sources
        )
        .mapError(LyricFile.Failure.init(notFound:))
    }

    /// Reads what `find` found: the lyric file, or the song as it was supplied. `origin` is where it came
    /// from (nil when FILE was the lyrics).
    static func load(
        _ content: FoundLyrics.Content, origin: LyricsOrigin?, audio: String, maxSize: Int, encoding: String?
    ) -> Result<LyricFile.Loaded, LyricFile.Failure> {
        switch content {
        case .file(let file):
            // A lyric file found for an audio file may be the untimed text `fetch --save` wrote; a FILE given
            // as the lyrics (no origin) is read as a lyric file only.
            return LyricFile.load(file, maxSize: maxSize, encoding: encoding, acceptsPlain: origin != nil).map {
                loaded in
                var loaded = loaded
                // A folder's file may be called anything (`0042.lrc`): without a [ti:], the audio names the song.
                if case .folder = origin {
                    loaded.fallbackTitle = NameMatching.baseName(of: ControlCharacters.strip(audio))
                }
                // Plain text knows nothing of the song: the audio's tags give its names and its length, over
                // which the pages turn (`render` has no player to say how long the audio is).
                if case .plain(var plain) = loaded.content, case .success(let tags) = TagReader.read(audio) {
                    plain.metadata = tags.songMetadata
                    loaded.content = .plain(plain)
                }
                return loaded
            }
        case .supplied(let supplied):
            let name = NameMatching.baseName(of: ControlCharacters.strip(audio))
            return .success(
                LyricFile.Loaded(content: supplied.content, diagnostics: supplied.diagnostics, fallbackTitle: name))
        }
    }

    /// Finds and reads the lyrics of `audio`; a failure's message is ready for `karaoke: `.
    func load(
        audio: String, options: LyricsSearchOptions, maxSize: Int, encoding: String?
    ) -> Result<(loaded: LyricFile.Loaded, origin: LyricsOrigin), LyricFile.Failure> {
        switch find(audio: audio, options: options) {
        case .failure(let failure): return .failure(failure)
        case .success(let found):
            return Self.load(found.content, origin: found.origin, audio: audio, maxSize: maxSize, encoding: encoding)
                .map { ($0, found.origin) }
        }
    }
}
