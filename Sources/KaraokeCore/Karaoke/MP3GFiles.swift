/// Which files make an MP3+G song: an audio file and its CD+Graphics (`.cdg`) side by side, or both in one
/// `.zip` (DESIGN §19.6).
///
/// Pure: it chooses among names the edge has listed (a folder's or an archive's); the edge reads the files.
/// A name inside an archive is only compared here, never turned into a path.
public enum MP3GFiles {
    /// The graphics extension, compared in any case.
    public static let graphicsExtension = "cdg"
    /// The archive extension, compared in any case.
    public static let archiveExtension = "zip"
    /// The largest `.cdg` read into memory: a CD+G stream is 7,200 bytes a second, so this is over two
    /// hours; anything larger is not a song.
    public static let largestGraphics = 64 << 20

    /// Whether `path` names CD+G graphics (by its extension, in any case).
    public static func isGraphics(_ path: String) -> Bool { hasExtension(path, graphicsExtension) }

    /// Whether `path` names CD+G graphics to draw: a `.cdg` file, or a zipped MP3+G song holding one.
    public static func isGraphicsSource(_ path: String) -> Bool { isGraphics(path) || isArchive(path) }

    /// Whether `path` names a zip archive (by its extension, in any case).
    public static func isArchive(_ path: String) -> Bool { hasExtension(path, archiveExtension) }

    /// The graphics beside the audio file named `audio`, among the names of its folder: the same base name
    /// and the `.cdg` extension in any case (`song.mp3` → `song.cdg`, `song.CDG`); nil when there is none.
    public static func graphics(forAudio audio: String, among names: [String]) -> String? {
        let base = AudioFiles.baseName(of: lastComponent(audio))
        return names.sorted().first { name in
            isGraphics(name) && AudioFiles.baseName(of: name) == base
        }
    }

    /// The audio beside the graphics named `graphics`, among the names of its folder: the same base name
    /// and an audio extension in any case, in the order of `AudioFiles.audioExtensions`; nil when there is none.
    public static func audio(forGraphics graphics: String, among names: [String]) -> String? {
        let base = AudioFiles.baseName(of: lastComponent(graphics))
        let matching = names.filter { AudioFiles.baseName(of: $0) == base && AudioFiles.isAudio($0) }
        return AudioFiles.audioExtensions.lazy.compactMap { ext in
            matching.sorted().first { AudioFiles.fileExtension(of: $0)?.lowercased() == ext }
        }.first
    }

    /// One entry of an archive as its reader lists it.
    public struct ArchiveEntry: Sendable, Equatable {
        /// The name the archive stores (a path inside it).
        public var name: String
        /// Its size in bytes, when the archive says.
        public var size: Int?
        /// Whether it is a regular file (not a folder or a link).
        public var isRegular: Bool

        /// Creates an entry.
        public init(name: String, size: Int?, isRegular: Bool) {
            self.name = name
            self.size = size
            self.isRegular = isRegular
        }
    }

    /// The two entries of a zipped MP3+G song.
    public struct ArchivePair: Sendable, Equatable {
        /// The audio entry's name, for mpv to read from the archive.
        public var audio: String
        /// The graphics entry's name, read into memory.
        public var graphics: String

        /// Creates a pair.
        public init(audio: String, graphics: String) {
            self.audio = audio
            self.graphics = graphics
        }
    }

    /// Why an archive is not an MP3+G song.
    public enum ArchiveProblem: Error, Sendable, Equatable {
        /// No `.cdg` in it.
        case noGraphics
        /// No audio file in it.
        case noAudio
        /// Several `.cdg` files and no way to tell which is the song's.
        case severalGraphics(Int)
        /// Several audio files, none with the graphics' name.
        case severalAudio(Int)
        /// The `.cdg` is larger than `largestGraphics`.
        case graphicsTooLarge(Int)

        /// The reason, as `karaoke: FILE: REASON` shows it.
        public var message: String {
            switch self {
            case .noGraphics: return "the archive holds no .cdg file (an MP3+G zip holds an audio file and a .cdg)"
            case .noAudio: return "the archive holds a .cdg file but no audio file"
            case .severalGraphics(let count):
                return "the archive holds \(count) .cdg files; karaoke plays one song a zip"
            case .severalAudio(let count):
                return "the archive holds \(count) audio files and none has the .cdg's name"
            case .graphicsTooLarge(let size):
                return "the .cdg in the archive is \(size) bytes, more than \(MP3GFiles.largestGraphics) (not a song)"
            }
        }
    }

    /// The audio and the graphics of a zipped song among `entries`: its one `.cdg` (regular files only;
    /// hidden files and macOS's `__MACOSX/` copies left out), and the audio file with the same base name, else
    /// its only audio file.
    public static func pair(in entries: [ArchiveEntry]) -> Result<ArchivePair, ArchiveProblem> {
        let usable = entries.filter { entry in
            entry.isRegular && !entry.name.hasPrefix("__MACOSX/") && !lastComponent(entry.name).hasPrefix(".")
        }
        let graphics = usable.filter { isGraphics($0.name) }
        guard let chosen = graphics.first else { return .failure(.noGraphics) }
        guard graphics.count == 1 else { return .failure(.severalGraphics(graphics.count)) }
        if let size = chosen.size, size > largestGraphics { return .failure(.graphicsTooLarge(size)) }
        let audio = usable.filter { AudioFiles.isAudio($0.name) }
        let base = AudioFiles.baseName(of: chosen.name)
        if let named = audio.first(where: { AudioFiles.baseName(of: $0.name) == base }) {
            return .success(ArchivePair(audio: named.name, graphics: chosen.name))
        }
        guard let only = audio.first else { return .failure(.noAudio) }
        guard audio.count == 1 else { return .failure(.severalAudio(audio.count)) }
        return .success(ArchivePair(audio: only.name, graphics: chosen.name))
    }

    private static func hasExtension(_ path: String, _ wanted: String) -> Bool {
        AudioFiles.fileExtension(of: path)?.lowercased() == wanted
    }

    private static func lastComponent(_ path: String) -> String {
        String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path))
    }
}
