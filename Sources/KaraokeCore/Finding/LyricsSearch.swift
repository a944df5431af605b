/// Where the lyrics of an audio file come from, and in which order they are looked for (DESIGN §10.1).
///
/// Pure: it decides the order, names the folders and the cache, ranks the files of lyric folders and words
/// the messages; the edge (`LyricsFinder` in the executable) does the looking.
public enum LyricsSearch {
    /// One place lyrics are looked for, in the order `steps` gives.
    public enum Step: Sendable, Equatable {
        /// `--lyrics FILE`: this file and nothing else.
        case given(String)
        /// A lyric file beside the audio with the same name (`AudioFiles.lyricCandidates`).
        case sidecar
        /// The lyric folders: by name, then by artist and title, then by `[ar:]`/`[ti:]`.
        case folders
        /// The audio file's own tags (SYLT, then lyrics text that reads as LRC).
        case embedded
        /// LRCLIB, only when the user allowed the network.
        case lrclib
    }

    /// How close a lyric file's `[length:]` must be to the audio's length for a match by tags.
    public static let lengthTolerance = 5000

    /// The places to look, in order: `--lyrics` alone when given; else beside the audio, the lyric folders,
    /// the audio's tags when a tag reader is there (`readsTags`), and LRCLIB last when `lrclibAllowed`.
    public static func steps(lyricsFile: String?, readsTags: Bool, lrclibAllowed: Bool) -> [Step] {
        if let lyricsFile { return [.given(lyricsFile)] }
        return [.sidecar, .folders] + (readsTags ? [.embedded] : []) + (lrclibAllowed ? [.lrclib] : [])
    }

    /// The lyric folders looked in without `--lyrics-dir`: `$XDG_DATA_HOME/karaoke/lyrics` (XDG_DATA_HOME
    /// defaulting to `~/.local/share`) and `~/.lyrics`. The edge keeps those that exist.
    public static func defaultFolders(environment: (String) -> String?) -> [String] {
        var folders: [String] = []
        if let data = xdgFolder("XDG_DATA_HOME", orBelowHome: ".local/share", environment: environment) {
            folders.append(data + "/karaoke/lyrics")
        }
        if let home = home(environment) { folders.append(home + "/.lyrics") }
        return folders
    }

    /// `$XDG_CACHE_HOME/karaoke` (XDG_CACHE_HOME defaulting to `~/.cache`), or nil without either.
    public static func cacheFolder(environment: (String) -> String?) -> String? {
        xdgFolder("XDG_CACHE_HOME", orBelowHome: ".cache", environment: environment).map { $0 + "/karaoke" }
    }

    /// The index file of the lyric folder at the absolute path `folder`, inside `cacheFolder`: named by a hash
    /// of the path, so each folder has its own and none is confused with another's.
    public static func indexFile(forFolder folder: String, cacheFolder: String) -> String {
        cacheFolder + "/lyrics-index/" + StableHash.name(of: folder) + ".tsv"
    }

    /// The variable's value when it is an absolute path (the XDG rule: a relative one is ignored), else
    /// `$HOME/below`, else nil.
    static func xdgFolder(_ variable: String, orBelowHome below: String, environment: (String) -> String?) -> String? {
        if let value = environment(variable), value.hasPrefix("/") { return trimmingSlashes(value) }
        return home(environment).map { $0 + "/" + below }
    }

    /// `$HOME` without a trailing slash, when it is an absolute path.
    public static func home(_ environment: (String) -> String?) -> String? {
        guard let home = environment("HOME"), home.hasPrefix("/") else { return nil }
        return trimmingSlashes(home)
    }

    /// `path` without trailing slashes (`/` becomes "", which still joins as `/x`).
    static func trimmingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.last == "/" { path.removeLast() }
        return String(path)
    }

    /// `path` with the home folder shown as `~`, as people write it.
    public static func shown(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, home != "/" else { return path }
        if path == home { return "~" }
        if path.hasPrefix(home + "/") { return "~" + path.dropFirst(home.count) }
        return path
    }
}

/// Which song an audio file is, as far as the finder can tell: its path, and the artist, title and length
/// from its tags (else artist and title from a file name such as `Artist - Title.mp3`).
public struct AudioIdentity: Sendable, Equatable {
    /// The audio file.
    public var path: String
    /// The artist, from the tags or the file name.
    public var artist: String?
    /// The title, from the tags or the file name.
    public var title: String?
    /// The length in milliseconds, from the tags.
    public var length: Int?

    /// Creates an identity from what is known.
    public init(path: String, artist: String? = nil, title: String? = nil, length: Int? = nil) {
        self.path = path
        self.artist = artist
        self.title = title
        self.length = length
    }

    /// The identity of the audio at `path` with `tags` (nil when they could not be read): artist and title
    /// from the tags when they give both, else from the file name; the length from the tags.
    public init(path: String, tags: AudioTags?) {
        self.path = path
        if let artist = tags?.artist, let title = tags?.title, NameMatching.key(artist: artist, title: title) != nil {
            self.artist = artist
            self.title = title
        } else if let named = NameMatching.artistAndTitle(fromFileName: path) {
            self.artist = named.artist
            self.title = named.title
        }
        if let seconds = tags?.duration, seconds.isFinite, seconds > 0, seconds < 360_000 {
            length = Int((seconds * 1000).rounded())
        }
    }

    /// The key of the audio's base name.
    public var nameKey: String { NameMatching.key(NameMatching.baseName(of: path)) }

    /// The key of its artist and title, when both are known.
    public var songKey: String? {
        guard let artist, let title else { return nil }
        return NameMatching.key(artist: artist, title: title)
    }
}

/// A lyric file of a lyric folder that belongs to an audio file, and why.
public struct FolderMatch: Sendable, Equatable {
    /// Why the file was taken, best first.
    public enum Kind: Int, Sendable, Comparable, CaseIterable {
        /// Its base name is the audio's (case, spacing and punctuation aside).
        case name
        /// Its base name reads as the audio's `Artist - Title`.
        case artistAndTitle
        /// Its `[ar:]` and `[ti:]` are the audio's artist and title (and `[length:]` agrees).
        case tags

        /// Orders by preference.
        public static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }

        /// How `check` names the reason, in parentheses after the file.
        public var reason: String {
            switch self {
            case .name: "same name"
            case .artistAndTitle: "artist and title"
            case .tags: "its [ar:] and [ti:] tags"
            }
        }
    }

    /// The position of the folder in the list searched.
    public var folderPosition: Int
    /// The file's entry in that folder's index.
    public var entry: LyricsFolderIndex.Entry
    /// Why it matched.
    public var kind: Kind

    /// Creates a match.
    public init(folderPosition: Int, entry: LyricsFolderIndex.Entry, kind: Kind) {
        self.folderPosition = folderPosition
        self.entry = entry
        self.kind = kind
    }
}

extension LyricsSearch {
    /// Whether two lengths in milliseconds agree for a match by tags: within `lengthTolerance` of each other,
    /// or one of them unknown.
    public static func lengthsAgree(_ a: Int?, _ b: Int?) -> Bool {
        guard let a, let b else { return true }
        return abs(a - b) <= lengthTolerance
    }

    /// How `entry` matches `audio`, by the best of the three ways, or nil.
    public static func matchKind(of entry: LyricsFolderIndex.Entry, for audio: AudioIdentity) -> FolderMatch.Kind? {
        matchKind(of: entry, nameKey: audio.nameKey, songKey: audio.songKey, length: audio.length)
    }

    /// `matchKind` with the audio's keys worked out once, for a folder of thousands of files.
    static func matchKind(
        of entry: LyricsFolderIndex.Entry, nameKey: String, songKey: String?, length: Int?
    ) -> FolderMatch.Kind? {
        if !nameKey.isEmpty, entry.nameKey == nameKey { return .name }
        guard let songKey else { return nil }
        if entry.nameKey == songKey { return .artistAndTitle }
        if entry.tagKey == songKey, lengthsAgree(entry.length, length) { return .tags }
        return nil
    }

    /// The best lyric file for `audio` in the folders' indexes (in the order they are searched), or nil.
    ///
    /// Ranked by: the kind of match (name, then artist and title, then tags); then, for a match by tags, a
    /// known length closest to the audio's before an unknown one; then the earlier folder; then the lyric
    /// format preferred beside an audio file (`.lrc` before `.txt`, `AudioFiles.lyricExtensions`); then the
    /// shallower path; then the path, so the choice never depends on the order a folder was listed in.
    public static func bestMatch(in indexes: [LyricsFolderIndex], for audio: AudioIdentity) -> FolderMatch? {
        var best: (match: FolderMatch, rank: Rank)? = nil
        let nameKey = audio.nameKey, songKey = audio.songKey
        for (position, index) in indexes.enumerated() {
            for entry in index.entries {
                guard let kind = matchKind(of: entry, nameKey: nameKey, songKey: songKey, length: audio.length) else {
                    continue
                }
                let match = FolderMatch(folderPosition: position, entry: entry, kind: kind)
                let rank = Rank(match, audioLength: audio.length)
                if best == nil || rank < best!.rank { best = (match, rank) }
            }
        }
        return best?.match
    }

    /// The order `bestMatch` ranks matches in; smaller is better.
    struct Rank: Comparable {
        /// The fields in the order they count: kind, length distance, folder, format, depth, path.
        var fields: (Int, Int, Int, Int, Int, String)

        /// The rank of `match` for an audio file of `audioLength` milliseconds.
        init(_ match: FolderMatch, audioLength: Int?) {
            var lengthDistance = 0
            if match.kind == .tags {
                // A known length near the audio's first; an unknown one after every known one.
                lengthDistance = match.entry.length.flatMap { a in audioLength.map { abs(a - $0) } } ?? Int.max
            }
            let path = match.entry.status.path
            let ext = AudioFiles.fileExtension(of: path)?.lowercased() ?? ""
            let format = AudioFiles.lyricExtensions.firstIndex(of: ext) ?? AudioFiles.lyricExtensions.count
            let depth = path.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) }
            fields = (match.kind.rawValue, lengthDistance, match.folderPosition, format, depth, path)
        }

        /// Whether `a` is the better match.
        static func < (a: Rank, b: Rank) -> Bool { a.fields < b.fields }
        /// Whether the two rank alike (the same path in the same folder).
        static func == (a: Rank, b: Rank) -> Bool { a.fields == b.fields }
    }
}

/// Where the lyrics that were used came from, as `check` names it (DESIGN §10.1).
public enum LyricsOrigin: Sendable, Equatable {
    /// `--lyrics FILE`.
    case given(file: String)
    /// A lyric file beside the audio.
    case sidecar(file: String, audio: String)
    /// A file of a lyric folder, and why it was taken.
    case folder(file: String, kind: FolderMatch.Kind)
    /// The audio's own tags; the text says which, such as `embedded SYLT in song.mp3`.
    case embedded(String)
    /// LRCLIB; the text says what was asked.
    case lrclib(String)

    /// The words after `lyrics: `: `song.lrc beside song.mp3`, `~/.lyrics/A - T.lrc (artist and title)`.
    public func description(home: String?) -> String {
        switch self {
        case .given(let file): "\(LyricsSearch.shown(file, home: home)) (--lyrics)"
        case .sidecar(let file, let audio):
            "\(NameMatching.lastComponent(of: file)) beside \(NameMatching.lastComponent(of: audio))"
        case .folder(let file, let kind): "\(LyricsSearch.shown(file, home: home)) (\(kind.reason))"
        case .embedded(let text), .lrclib(let text): text
        }
    }
}

extension LyricsSearch {
    /// The message when nothing was found, naming every place looked in:
    /// `no lyrics found for song.mp3 (looked beside it, in ~/.lyrics, in its tags)`.
    public static func notFoundMessage(audio: String, folders: [String], home: String?, steps: [Step]) -> String {
        notFoundMessage(audio: audio, places: placesLooked(folders: folders, home: home, steps: steps))
    }

    /// `no lyrics found for song.mp3 (looked PLACES)`.
    static func notFoundMessage(audio: String, places: String) -> String {
        "no lyrics found for \(audio) (looked \(places))"
    }

    /// The same without the file, for a queue that names it first: `no lyrics found (looked PLACES)`.
    static func notFoundReason(places: String) -> String {
        "no lyrics found (looked \(places))"
    }

    /// The places `steps` look in: `beside it, in ~/.lyrics, in its tags`.
    static func placesLooked(folders: [String], home: String?, steps: [Step]) -> String {
        var places: [String] = []
        for step in steps {
            switch step {
            case .given: continue
            case .sidecar: places.append("beside it")
            case .folders: places += folders.map { "in " + shown($0, home: home) }
            case .embedded: places.append("in its tags")
            case .lrclib: places.append("on lrclib.net")
            }
        }
        return places.joined(separator: ", ")
    }
}

extension NameMatching {
    /// The last component of `path`.
    static func lastComponent(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
