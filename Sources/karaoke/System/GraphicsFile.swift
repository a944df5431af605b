import Glibc
import KaraokeCore

/// The CD+G graphics a FILE names: a `.cdg` file's bytes, or the one `.cdg` inside a zipped MP3+G song, read
/// into memory through libarchive (DESIGN §19.6).
enum GraphicsFile {
    /// The graphics' bytes, and for a zip the audio entry beside them.
    struct Loaded {
        var bytes: [UInt8]
        /// The name of the audio file inside the zip; nil for a `.cdg` file.
        var audioEntry: String?
    }

    /// The graphics of `file`, at most `maxSize` bytes, or the reason (the words after `karaoke: FILE: `).
    static func read(_ file: String, maxSize: Int) -> Result<Loaded, LyricFile.Failure> {
        guard MP3GFiles.isArchive(file) else {
            return LyricFile.read(file, maxSize: maxSize).map { Loaded(bytes: $0, audioEntry: nil) }
        }
        do throws(ZipArchive.Failure) {
            let pair: MP3GFiles.ArchivePair
            switch MP3GFiles.pair(in: try ZipArchive.entries(of: file)) {
            case .success(let found): pair = found
            case .failure(let problem): return .failure(LyricFile.Failure(message: problem.message))
            }
            let limit = min(maxSize, MP3GFiles.largestGraphics)
            let bytes = try ZipArchive.contents(of: pair.graphics, in: file, limit: limit)
            return .success(Loaded(bytes: bytes, audioEntry: pair.audio))
        } catch {
            return .failure(LyricFile.Failure(message: error.reason))
        }
    }
}

extension GraphicsFile {
    /// An MP3+G song ready to play: its picture's bytes, what names it, and the audio for mpv.
    struct Song {
        /// The song's content (`.graphics`, its title and length) and the picture's bytes.
        var loaded: LyricFile.Loaded
        /// The audio for mpv: a file, or an entry of the zip as mpv's `archive://` URL; nil when silent.
        var audio: String?
    }

    /// The MP3+G song `file` names, for `play` and the queue (DESIGN §19.6): a zip holding one, a `.cdg` file
    /// (its audio the file of the same name beside it), or an audio file with a `.cdg` of its name beside it.
    /// nil when `file` is none of these, so it is read as lyrics or audio as before; a failure says why the
    /// graphics could not be read.
    static func song(_ file: String, audio choice: PlayRequest.AudioChoice, maxSize: Int) -> Result<
        Song, LyricFile.Failure
    >? {
        let folder = AudioFiles.folder(of: file)
        let graphics: String
        if MP3GFiles.isArchive(file) || MP3GFiles.isGraphics(file) {
            graphics = file
        } else if let beside = Self.graphics(besideAudio: file) {
            graphics = beside
        } else {
            return nil
        }
        let read: Loaded
        switch GraphicsFile.read(graphics, maxSize: maxSize) {
        case .success(let bytes): read = bytes
        case .failure(let failure):
            return .failure(LyricFile.Failure(file: ControlCharacters.strip(graphics), reason: failure.message))
        }
        let report = CDGReport(bytes: read.bytes)
        if let problem = report.problems.first(where: \.isError) {
            return .failure(LyricFile.Failure(file: ControlCharacters.strip(graphics), reason: problem.message))
        }
        // The audio: the zip's own entry, the file given, or the one beside the `.cdg`.
        var found: String?
        if let entry = read.audioEntry {
            found = archiveURL(file, entry: entry)
        } else if AudioFiles.isAudio(file) {
            found = file
        } else if let beside = MP3GFiles.audio(
            forGraphics: file, among: QueueCommand.names(in: folder.isEmpty ? "." : folder))
        {
            found = folder + beside
        }
        let audio: String?
        switch choice {
        case .none: audio = nil
        case .file(let chosen): audio = chosen
        case .automatic: audio = found
        }
        // The title: the audio file's tags when it is a file of its own, else the file's name.
        var metadata = SongMetadata()
        if let found, !found.hasPrefix(archiveScheme), case .success(let tags) = TagReader.read(found) {
            metadata = tags.songMetadata
        }
        metadata.length = report.packetCount * 1000 / CDGTime.packetsPerSecond
        var loaded = LyricFile.Loaded(
            content: .graphics(metadata), diagnostics: report.diagnostics(file: ControlCharacters.strip(graphics)),
            fallbackTitle: NameMatching.baseName(of: ControlCharacters.strip(file)))
        loaded.graphics = read.bytes
        return .success(Song(loaded: loaded, audio: audio))
    }

    /// The `.cdg` beside the audio file `file` (the same name, the extension in any case); nil when `file` is no
    /// audio file or has none.
    static func graphics(besideAudio file: String) -> String? {
        guard AudioFiles.isAudio(file) else { return nil }
        let folder = AudioFiles.folder(of: file)
        return MP3GFiles.graphics(forAudio: file, among: QueueCommand.names(in: folder.isEmpty ? "." : folder))
            .map { folder + $0 }
    }

    /// The scheme of mpv's URLs for a file inside an archive.
    static let archiveScheme = "archive://"

    /// mpv's URL for `entry` of the zip `file`: `archive://` and the zip's absolute path percent-encoded
    /// (mpv decodes it; a `|` or `%` in a folder name then cannot end it early), `|/` and the entry's name.
    static func archiveURL(_ file: String, entry: String) -> String {
        var absolute = file
        if !file.hasPrefix("/"), let resolved = realpath(file, nil) {
            absolute = String(cString: resolved)
            free(resolved)
        }
        var encoded = ""
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF")
                encoded += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
            }
        }
        return archiveScheme + encoded + "|/" + entry
    }
}
