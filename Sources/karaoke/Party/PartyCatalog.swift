import Glibc
import KaraokeCore

/// The party's songs on disk (DESIGN §20.2): every song under the host's folders, found as a folder of the
/// queue finds them (`Playlist.songs(inFolder:names:)`, one entry per song whatever its files), walked down to
/// the lyric index's depth, each named by its lyric file's tags or its file name.
enum PartyCatalog {
    /// The songs found and the file of each id.
    struct Found {
        var songs: [PartySongs.Song] = []
        var files: [String: String] = [:]
        /// The folders that could not be read, as messages.
        var problems: [String] = []
    }

    /// The songs under `folders`.
    static func find(in folders: [String]) -> Found {
        var found = Found()
        for folder in folders {
            guard LyricsFolderStore.isDirectory(folder) else {
                found.problems.append("\(ControlCharacters.strip(folder)): not a folder")
                continue
            }
            walk(folder, below: "", depth: 0, into: &found)
        }
        return found
    }

    /// Adds the songs of `folder/relative` and of its subfolders.
    private static func walk(_ folder: String, below relative: String, depth: Int, into found: inout Found) {
        let here = relative.isEmpty ? folder : folder + "/" + relative
        var names: [String] = []
        var folders: [String] = []
        guard let directory = opendir(here) else { return }
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name.hasPrefix(".") { continue }
            // Subfolders, not through symbolic links: a link loop cannot trap the walk. A file system that does not
            // fill in the type is asked with lstat.
            var type = entry.pointee.d_type
            if type == DT_UNKNOWN {
                var info = stat()
                if lstat(here + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { type = UInt8(DT_DIR) }
            }
            if type == DT_DIR {
                folders.append(name)
            } else {
                names.append(name)
            }
        }
        closedir(directory)
        let present = Set(names)
        for entry in Playlist.songs(inFolder: relative, names: names) {
            guard found.songs.count < LyricsFolderStore.fileLimit else { return }
            let song = PartySongs.Song(
                folder: folder, path: entry.path, head: head(of: entry.path, in: folder, present: present))
            if found.files[song.id] == nil {
                found.files[song.id] = folder + "/" + entry.path
                found.songs.append(song)
            }
        }
        guard depth < LyricsFolderStore.depthLimit else { return }
        for name in folders.sorted() {
            walk(folder, below: relative.isEmpty ? name : relative + "/" + name, depth: depth + 1, into: &found)
        }
    }

    /// The start of the song's lyric file: the entry itself when it is one, else the lyric file of its name
    /// beside it; nil when there is none.
    private static func head(of path: String, in folder: String, present: Set<String>) -> [UInt8]? {
        let name = String(path.split(separator: "/").last ?? Substring(path))
        if LyricsFolderStore.isLyricFile(name) {
            return LyricsFolderStore.readHead(folder + "/" + path, count: LyricsFolderIndex.headSize)
        }
        let base = NameMatching.baseName(of: name)
        let prefix = String(path.dropLast(name.count))
        for ext in AudioFiles.lyricExtensions where present.contains(base + "." + ext) {
            return LyricsFolderStore.readHead(
                folder + "/" + prefix + base + "." + ext, count: LyricsFolderIndex.headSize)
        }
        return nil
    }
}
