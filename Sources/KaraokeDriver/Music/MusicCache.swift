import Glibc
import KaraokeCore

/// The synthesised music of MIDI songs kept on disk under `$XDG_CACHE_HOME/karaoke/music/` (DESIGN §18.2):
/// keyed by content, reused on the next play, written under a temporary name and renamed when whole, and
/// held under a size limit, the least recently played removed first (`MusicCachePolicy` decides).
public struct MusicCache: Sendable {
    /// The folder of the WAVs.
    public let folder: String
    /// The most bytes kept.
    public let limit: Int

    /// A cache in `folder` holding at most `limit` bytes.
    public init(folder: String, limit: Int = MusicCachePolicy.defaultLimit) {
        self.folder = folder
        self.limit = limit
    }

    /// The cache of this user: `$XDG_CACHE_HOME/karaoke/music`, else `~/.cache/karaoke/music`; nil without a
    /// home folder.
    public static func standard() -> MusicCache? {
        let environment = { (name: String) -> String? in getenv(name).map { String(cString: $0) } }
        // The XDG base directory rules: a relative path is ignored.
        if let cache = environment("XDG_CACHE_HOME"), cache.hasPrefix("/") {
            return MusicCache(folder: cache + "/karaoke/music")
        }
        guard let home = environment("HOME"), home.hasPrefix("/") else { return nil }
        return MusicCache(folder: home + "/.cache/karaoke/music")
    }

    /// One song's music: the whole song, and the song with its melody down when it has a melody channel.
    public struct Rendering: Sendable, Equatable {
        /// The whole song.
        public var whole: String
        /// The song with the melody channel turned down; nil without one.
        public var accompaniment: String?
    }

    /// Where the rendering of `key` lives, with or without the accompaniment.
    public func rendering(_ key: String, withAccompaniment: Bool) -> Rendering {
        Rendering(
            whole: folder + "/" + MusicCachePolicy.wholeName(key),
            accompaniment: withAccompaniment ? folder + "/" + MusicCachePolicy.accompanimentName(key) : nil)
    }

    /// The rendering of `key` when every file of it is there, marked as just used (so the size limit removes
    /// it last); nil when it must be synthesised.
    public func lookup(_ key: String, withAccompaniment: Bool) -> Rendering? {
        let found = rendering(key, withAccompaniment: withAccompaniment)
        let paths = [found.whole] + (found.accompaniment.map { [$0] } ?? [])
        guard paths.allSatisfy(MusicCache.isRegularFile) else { return nil }
        // The modification time is the "last used" the limit reads: access times are often not kept (noatime).
        for path in paths { utimensat(AT_FDCWD, path, nil, 0) }
        return found
    }

    /// Makes the folder (private to the user) and removes the temporary files of syntheses that were
    /// interrupted; false when the folder cannot be made.
    public func prepare(now: Double = Double(time(nil))) -> Bool {
        guard MusicCache.makeFolders(folder) else { return false }
        for entry in entries() where MusicCachePolicy.isStaleTemporary(entry, now: now) {
            unlink(folder + "/" + entry.name)
        }
        return true
    }

    /// A new temporary file beside `path` (in the same folder, so the rename is atomic), open for writing;
    /// nil, with errno set, when it cannot be made.
    public func temporaryFile(for path: String) -> (fd: Int32, path: String)? {
        var template = Array("\(path)\(MusicCachePolicy.temporaryMarker)XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return nil }
        // Not inherited by mpv, which karaoke starts while the file is written.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return (fd, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }

    /// Removes the least recently used WAVs until the cache fits its limit, never those named in `keeping`.
    public func trim(keeping: Set<String>) {
        let names = Set(keeping.map { $0.split(separator: "/").last.map(String.init) ?? $0 })
        for name in MusicCachePolicy.removals(entries(), limit: limit, keeping: names) {
            unlink(folder + "/" + name)
        }
    }

    /// The regular files of the folder, with their sizes and modification times.
    public func entries() -> [MusicCachePolicy.Entry] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var result: [MusicCachePolicy.Entry] = []
        while let item = readdir(directory) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            var info = stat()
            guard name != ".", name != "..", lstat(folder + "/" + name, &info) == 0,
                info.st_mode & S_IFMT == S_IFREG
            else { continue }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            result.append(.init(name: name, size: Int(info.st_size), modified: modified))
        }
        return result
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Creates `folder` and its missing parents, each only the user can read (what songs a person has is
    /// theirs); false when it is not a folder afterwards.
    private static func makeFolders(_ folder: String) -> Bool {
        var info = stat()
        if stat(folder, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        if let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
            guard makeFolders(String(folder[..<slash])) else { return false }
        }
        return mkdir(folder, 0o700) == 0 || (stat(folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
    }
}
