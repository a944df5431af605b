import Glibc
import KaraokeCore

/// Which lyric file and which audio file a `play` request means (README "Audio").
enum AudioSource {
    /// The lyrics to read (with where they came from when FILE is audio) and the audio file to play
    /// (nil: silent).
    struct Choice {
        /// The lyric file to read, or the song the search was given (from tags or LRCLIB).
        var lyrics: FoundLyrics.Content
        /// Where the lyrics of an audio FILE came from; nil when FILE is the lyrics.
        var origin: LyricsOrigin?
        /// The audio to play; nil plays silently.
        var audio: String?
    }

    /// `karaoke play song.mp3` looks for the lyrics of the audio (`LyricsFinder`, DESIGN §10.1);
    /// `karaoke play song.lrc` the audio beside the lyrics, unless `--audio` names it or `--no-audio`
    /// declines it.
    static func choose(for request: PlayRequest, finder: LyricsFinder) -> Result<Choice, LyricFile.Failure> {
        let file = request.display.file
        if AudioFiles.isAudio(file) {
            let found: FoundLyrics
            switch finder.find(audio: file, options: request.display.lyrics) {
            case .success(let result): found = result
            case .failure(let failure): return .failure(failure)
            }
            switch request.audio {
            case .none: return .success(Choice(lyrics: found.content, origin: found.origin, audio: nil))
            case .file(let audio): return .success(Choice(lyrics: found.content, origin: found.origin, audio: audio))
            case .automatic: return .success(Choice(lyrics: found.content, origin: found.origin, audio: file))
            }
        }
        switch request.audio {
        case .none: return .success(Choice(lyrics: .file(file), audio: nil))
        case .file(let audio): return .success(Choice(lyrics: .file(file), audio: audio))
        // A MIDI karaoke file is its own music (DESIGN §18).
        case .automatic where SynthesisedMusic.isMidi(file): return .success(Choice(lyrics: .file(file), audio: file))
        case .automatic:
            return .success(
                Choice(
                    lyrics: .file(file),
                    audio: AudioFiles.audioCandidates(forLyrics: file)
                        .first(where: isRegularFile)))
        }
    }

    /// The audio a lyric file names itself (UltraStar `#MP3:`), relative to its folder, when it exists.
    static func named(by song: Song, lyrics: String) -> String? {
        guard let name = song.metadata.audioFile, !name.isEmpty else { return nil }
        let path = name.hasPrefix("/") ? name : AudioFiles.folder(of: lyrics) + name
        return isRegularFile(path) ? path : nil
    }

    /// Whether `path` is a regular file (symbolic links followed).
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Why the audio file named on the command line (`--audio FILE`) cannot be played, or nil when it can be
    /// opened: an audio file the user named is an error when missing, where one only looked for beside the
    /// lyrics may be (the song then plays silently).
    static func namedFileProblem(_ path: String) -> String? {
        let shown = ControlCharacters.strip(path)
        if isDirectory(path) { return "\(shown): is a directory, not an audio file" }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "\(shown): \(LyricFile.describe(errno))" }
        close(fd)
        return nil
    }

    /// Whether `path` is a folder (symbolic links followed).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
