import Glibc
import CLibArchive
import KaraokeCore

/// A zip archive read through libarchive (loaded on first use): its entries listed, one entry read into
/// memory. Nothing is unpacked to disk, and an entry's name is never opened as a path (DESIGN §19.6).
enum ZipArchive {
    /// Why an archive could not be read: the words after `karaoke: FILE: `.
    struct Failure: Error, Equatable {
        var reason: String
    }

    /// The entries of the archive at `path`, in the archive's order.
    static func entries(of path: String) throws(Failure) -> [MP3GFiles.ArchiveEntry] {
        var listed: [MP3GFiles.ArchiveEntry] = []
        try read(path) { (name, size, regular, _) throws(Failure) in
            listed.append(MP3GFiles.ArchiveEntry(name: name, size: size, isRegular: regular))
            return false
        }
        return listed
    }

    /// The bytes of the entry named `wanted` in the archive at `path`; at most `limit` bytes, or a failure.
    static func contents(of wanted: String, in path: String, limit: Int) throws(Failure) -> [UInt8] {
        var found: [UInt8]?
        try read(path) { (name, _, regular, reader) throws(Failure) in
            guard regular, name == wanted else { return false }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { kk_archive_read(reader, $0.baseAddress, $0.count) }
                if count < 0 {
                    throw Failure(reason: "cannot read \(wanted) in it: " + String(cString: kk_archive_error(reader)))
                }
                if count == 0 { break }
                guard bytes.count + Int(count) <= limit else {
                    throw Failure(reason: "\(wanted) in it is larger than \(limit) bytes")
                }
                bytes += chunk[0..<Int(count)]
            }
            found = bytes
            return true
        }
        guard let found else { throw Failure(reason: "it has no entry \(wanted)") }
        return found
    }

    /// Opens `path` and hands each entry to `visit` (its name, size when known, whether it is a regular file,
    /// and the reader positioned on it) until `visit` returns true or the entries end.
    private static func read(
        _ path: String,
        _ visit: (String, Int?, Bool, UnsafeMutablePointer<kk_archive_reader>) throws(Failure) -> Bool
    ) throws(Failure) {
        if let missing = kk_archive_load() { throw Failure(reason: String(cString: missing)) }
        var reader = kk_archive_reader()
        defer { kk_archive_close(&reader) }
        guard kk_archive_open(&reader, path) == 0 else {
            throw Failure(reason: "not a zip archive karaoke can read: " + String(cString: kk_archive_error(&reader)))
        }
        while true {
            var name: UnsafePointer<CChar>?
            var size: Int64 = -1
            var regular: Int32 = 0
            let result = kk_archive_next(&reader, &name, &size, &regular)
            if result == 0 { return }
            guard result == 1, let name else {
                throw Failure(reason: "a damaged zip archive: " + String(cString: kk_archive_error(&reader)))
            }
            // Names are data: control characters never reach the terminal through a message.
            let shown = ControlCharacters.strip(
                String(decoding: UnsafeRawBufferPointer(start: name, count: strlen(name)), as: UTF8.self))
            if try withUnsafeMutablePointer(
                to: &reader,
                { (pointer) throws(Failure) -> Bool in
                    try visit(shown, size >= 0 ? Int(size) : nil, regular != 0, pointer)
                })
            {
                return
            }
        }
    }
}
