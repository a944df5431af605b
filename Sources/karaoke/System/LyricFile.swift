import Glibc
import KaraokeCore

/// Reads and parses a lyric file, refusing what cannot be used with a message for the user.
enum LyricFile {
    /// A loaded file: the song and the warnings about it.
    struct Loaded {
        var song: Song
        var diagnostics: [Diagnostic]
        /// The name to show when the file has no `[ti:]`: its last path component.
        var fallbackTitle: String
    }

    /// Why a file could not be used; `message` is the text after `karaoke: `.
    struct Failure: Error {
        var message: String
        /// Diagnostics found before giving up (a file without timed lines still has its warnings).
        var diagnostics: [Diagnostic] = []
    }

    /// Loads the file of a `play` or `render` request; when it cannot be used, prints why on stderr
    /// (its diagnostics, then `karaoke: FILE: reason`) and returns nil, for exit status 1.
    static func loadOrReport(_ path: String, maxSize: Int) -> Loaded? {
        switch load(path, maxSize: maxSize) {
        case .success(let loaded):
            return loaded
        case .failure(let failure):
            StandardStreams.report(failure.diagnostics)
            StandardStreams.err("karaoke: \(failure.message)")
            return nil
        }
    }

    /// Reads `path` (refusing more than `maxSize` bytes) and parses it.
    static func load(_ path: String, maxSize: Int) -> Result<Loaded, Failure> {
        let shown = ControlCharacters.strip(path)
        let bytes: [UInt8]
        switch read(path, maxSize: maxSize) {
        case .success(let data): bytes = data
        case .failure(let failure): return .failure(Failure(message: "\(shown): \(failure.message)"))
        }
        let utf8: [UInt8]
        switch SourceText.utf8(from: bytes) {
        case .success(let text): utf8 = text
        case .failure: return .failure(Failure(message: "\(shown): not a text file (binary data)"))
        }
        let result = LRCParser.parse(utf8, file: shown)
        guard let song = result.song else {
            // The parser's own error says the same as the message; only the warnings are kept with it.
            return .failure(Failure(message: "\(shown): no timed lyric line (a lyric line starts with a "
                                        + "timestamp such as '[00:12.34]')",
                                    diagnostics: result.diagnostics.filter { $0.severity == .warning }))
        }
        let name = shown.split(separator: "/").last.map(String.init) ?? shown
        return .success(Loaded(song: song, diagnostics: result.diagnostics, fallbackTitle: name))
    }

    /// The whole file, or why not.
    static func read(_ path: String, maxSize: Int) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(message: describe(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Failure(message: describe(errno))) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(Failure(message: "is a directory")) }
        if info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > maxSize {
            return .failure(Failure(message: "\(megabytes(Int(info.st_size))) MB is over the --max-size "
                + "limit of \(megabytes(maxSize)) MB"))
        }
        var data: [UInt8] = []
        data.reserveCapacity(info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : 65536)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(message: describe(errno)))
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
            // A pipe or device has no size up front: stop as soon as it passes the limit.
            if data.count > maxSize {
                return .failure(Failure(message: "over the --max-size limit of \(megabytes(maxSize)) MB"))
            }
        }
        return .success(data)
    }

    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10)"
    }

    static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES: return "permission denied"
        case EISDIR: return "is a directory"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
