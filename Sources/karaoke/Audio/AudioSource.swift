import Glibc
import KaraokeCore

/// Which lyric file and which audio file a `play` request means (README "Audio").
enum AudioSource {
    /// The lyric file to read and the audio file to play (nil: silent), or a message for exit status 1.
    struct Choice {
        var lyrics: String
        var audio: String?
    }

    /// `karaoke play song.mp3` finds the lyrics beside the audio; `karaoke play song.lrc` the audio beside
    /// the lyrics, unless `--audio` names it or `--no-audio` declines it.
    static func choose(for request: PlayRequest) -> Result<Choice, LyricFile.Failure> {
        let file = request.display.file
        if AudioFiles.isAudio(file) {
            let candidates = AudioFiles.lyricCandidates(forAudio: file)
            guard let lyrics = candidates.first(where: isRegularFile) else {
                let shown = ControlCharacters.strip(file)
                let names = AudioFiles.lyricExtensions.prefix(5).map { "." + $0 }.joined(separator: ", ")
                return .failure(
                    LyricFile.Failure(
                        message: "\(shown): an audio file with no lyric file beside it "
                            + "(looked for the same name with \(names), …)"))
            }
            switch request.audio {
            case .none: return .success(Choice(lyrics: lyrics, audio: nil))
            case .file(let audio): return .success(Choice(lyrics: lyrics, audio: audio))
            case .automatic: return .success(Choice(lyrics: lyrics, audio: file))
            }
        }
        switch request.audio {
        case .none: return .success(Choice(lyrics: file, audio: nil))
        case .file(let audio): return .success(Choice(lyrics: file, audio: audio))
        case .automatic:
            return .success(
                Choice(
                    lyrics: file,
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

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
