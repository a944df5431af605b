/// Which files go together: a song's audio beside its lyrics, and its lyrics beside its audio.
///
/// Pure: it names candidates in order of preference; the edge checks which exist.
public enum AudioFiles {
    /// Audio extensions tried beside a lyric file, in this order.
    public static let audioExtensions = ["mp3", "flac", "ogg", "opus", "m4a", "wav", "aac", "wma", "mka"]
    /// Lyric extensions tried beside an audio file, in this order.
    public static let lyricExtensions = ["lrc", "elrc", "ttml", "srt", "vtt", "ass", "ssa", "txt"]
    /// MIDI karaoke extensions: a file that is a whole song, its lyrics and its music (DESIGN §7.7, §18). Never
    /// looked for beside an audio file; a folder holds them as songs.
    public static let midiExtensions = ["kar", "mid", "midi"]

    /// Whether `path` names an audio file (by its extension).
    public static func isAudio(_ path: String) -> Bool {
        guard let ext = fileExtension(of: path) else { return false }
        return audioExtensions.contains(ext.lowercased())
    }

    /// The audio files that may belong to the lyric file at `path`, in order: same base name, each
    /// audio extension in lower and upper case.
    public static func audioCandidates(forLyrics path: String) -> [String] {
        let base = baseName(of: path)
        return audioExtensions.flatMap { ["\(base).\($0)", "\(base).\($0.uppercased())"] }
    }

    /// The lyric files that may belong to the audio file at `path`, in order.
    public static func lyricCandidates(forAudio path: String) -> [String] {
        let base = baseName(of: path)
        return lyricExtensions.flatMap { ["\(base).\($0)", "\(base).\($0.uppercased())"] }
    }

    /// `path` without its extension.
    static func baseName(of path: String) -> String {
        guard let ext = fileExtension(of: path) else { return path }
        return String(path.dropLast(ext.count + 1))
    }

    /// The extension of the last path component, or nil.
    static func fileExtension(of path: String) -> String? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty ? nil : String(ext)
    }

    /// The lyric files of a folder whose entries are named `names`, as `check FOLDER` reads them: every file
    /// with a lyric, MIDI karaoke, CD+G or zip extension (whatever its case), hidden ones left out, sorted by
    /// name, with the folder's path.
    public static func lyricFiles(inFolder folder: String, names: [String]) -> [String] {
        let prefix = folder.isEmpty || folder.hasSuffix("/") ? folder : folder + "/"
        return names.filter { name in
            !name.hasPrefix(".") && !name.contains("/")
                && fileExtension(of: name).map {
                    let ext = $0.lowercased()
                    return lyricExtensions.contains(ext) || midiExtensions.contains(ext)
                        || ext == MP3GFiles.graphicsExtension || ext == MP3GFiles.archiveExtension
                } == true
        }
        .sorted().map { prefix + $0 }
    }

    /// The folder of `path` with a trailing slash, or "" for a bare name.
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[...slash])
    }
}
