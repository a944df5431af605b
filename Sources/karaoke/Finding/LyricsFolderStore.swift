import Glibc
import KaraokeCore

/// The lyric folders on disk and their indexes in the cache (DESIGN §10.3): a `stat` walk of each folder
/// every run, the heads of new and changed files read, the index file rewritten only when something changed.
struct LyricsFolderStore {
    /// `$XDG_CACHE_HOME/karaoke`, or nil: then every run reads the folders' heads afresh.
    var cacheFolder: String?

    /// Folders nested deeper than this are not walked (a loop of bind mounts cannot trap the walk).
    static let depthLimit = 8
    /// At most this many lyric files are indexed in one folder.
    static let fileLimit = 200_000

    /// The index of the folder at `path` as it is now, or nil when it is not a readable folder.
    func index(of path: String) -> LyricsFolderIndex? {
        guard let folder = Self.absolutePath(path), Self.isDirectory(folder) else { return nil }
        var statuses: [LyricsFolderIndex.FileStatus] = []
        Self.walk(folder, below: "", depth: 0, into: &statuses)
        let indexFile = cacheFolder.map { LyricsSearch.indexFile(forFolder: folder, cacheFolder: $0) }
        var stored = LyricsFolderIndex(folder: folder)
        var storedIsValid = false
        if let indexFile, let bytes = Self.readAll(indexFile, limit: 256 * 1_048_576),
            let decoded = LyricsFolderIndex(decoding: bytes), decoded.folder == folder
        {
            stored = decoded
            storedIsValid = true
        }
        let (index, changed) = stored.refreshed(with: statuses) { relative in
            Self.readHead(folder + "/" + relative, count: LyricsFolderIndex.headSize)
        }
        // A damaged or missing index file is rewritten even when the entries came out the same.
        if let indexFile, changed || !storedIsValid {
            Self.writeAtomically(index.encoded(), to: indexFile)
        }
        return index
    }

    /// Adds the lyric files below `folder/relative` to `statuses`: regular files (symbolic links followed)
    /// with a lyric extension, not hidden; subfolders up to `depthLimit`, not through symbolic links.
    static func walk(
        _ folder: String, below relative: String, depth: Int, into statuses: inout [LyricsFolderIndex.FileStatus]
    ) {
        let here = relative.isEmpty ? folder : folder + "/" + relative
        guard let directory = opendir(here) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasPrefix(".") { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            let type = entry.pointee.d_type
            if type == DT_DIR {
                if depth < depthLimit { walk(folder, below: path, depth: depth + 1, into: &statuses) }
                continue
            }
            guard type == DT_REG || type == DT_LNK || type == DT_UNKNOWN, isLyricFile(name) else { continue }
            var info = stat()
            guard stat(folder + "/" + path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            guard statuses.count < fileLimit else { return }
            let modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            statuses.append(.init(path: path, size: Int(info.st_size), modified: modified))
        }
    }

    /// Whether `name` has one of the lyric extensions karaoke reads beside an audio file.
    static func isLyricFile(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return AudioFiles.lyricExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The first `count` bytes of the file, or nil when it cannot be read.
    static func readHead(_ path: String, count: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, count - filled) }
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            filled += got
        }
        return Array(bytes[..<filled])
    }

    /// The whole file when it is a regular file of at most `limit` bytes, else nil.
    static func readAll(_ path: String, limit: Int) -> [UInt8]? {
        guard case .success(let bytes) = LyricFile.read(path, maxSize: limit) else { return nil }
        return bytes
    }

    /// Writes `text` whole over `path` (through a temporary file and a rename, so a reader sees the old index
    /// or the new one, never half of one). Any failure (a read-only cache) leaves no index, silently.
    static func writeAtomically(_ text: String, to path: String) {
        guard let slash = path.lastIndex(of: "/"), TextFile.makeFolders(String(path[..<slash])) else { return }
        _ = TextFile.save(text, to: path, replacing: true)
    }

    /// `path` made absolute and free of symbolic links, or nil when it does not exist.
    static func absolutePath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is a folder (symbolic links followed).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
