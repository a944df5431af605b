import Glibc
import KaraokeCore

/// Writing a whole file safely: never replacing one unless asked, and never leaving one half written.
enum TextFile {
    /// Writes `text` to `path`: refused when it exists unless `replacing`, then through a temporary
    /// file in the same folder and a rename.
    static func save(_ text: String, to path: String, replacing: Bool) -> Result<Void, LyricFile.Failure> {
        save(Array(text.utf8), to: path, replacing: replacing)
    }

    /// Writes `bytes` to `path` as `save(_:to:replacing:)` writes text, with permissions `mode` when
    /// given (a rewritten file keeps its own), else 0644 less the umask.
    static func save(
        _ bytes: [UInt8], to path: String, replacing: Bool, mode: mode_t? = nil
    ) -> Result<Void, LyricFile.Failure> {
        save(to: path, replacing: replacing, mode: mode) { fd in
            bytes.withUnsafeBytes { StandardStreams.writeAll($0, to: fd) }
        }
    }

    /// Writes to `path` what `write` writes to the file descriptor it is given, piece by piece (a long
    /// recording, DESIGN §26), as `save(_:to:replacing:mode:)` writes its bytes: `write` returns false, with
    /// `errno` set, when a write failed, and the file is then left as it was.
    static func save(
        to path: String, replacing: Bool, mode: mode_t? = nil, writing write: (Int32) -> Bool
    ) -> Result<Void, LyricFile.Failure> {
        let shown = ControlCharacters.strip(path)
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { return .failure(.init(message: "\(shown): is a directory")) }
            if !replacing { return .failure(.init(message: "\(shown) exists; --force replaces it")) }
        }
        var template = Array("\(path).karaoke-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return .failure(.init(message: folderProblem(errno, writing: path))) }
        // mkstemp filled in the X's.
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard write(fd) else {
            let reason = LyricFile.describe(errno)
            close(fd)
            unlink(temporary)
            return .failure(.init(message: "\(shown): \(reason)"))
        }
        fchmod(fd, mode ?? (0o644 & ~currentUmask()))
        close(fd)
        if !replacing {
            // No replacing: link fails if the name appeared meanwhile, where rename would overwrite it.
            defer { unlink(temporary) }
            guard link(temporary, path) == 0 else {
                let reason = errno == EEXIST ? "exists; --force replaces it" : LyricFile.describe(errno)
                return .failure(.init(message: "\(shown)\(errno == EEXIST ? " " : ": ")\(reason)"))
            }
            return .success(())
        }
        guard rename(temporary, path) == 0 else {
            let reason = LyricFile.describe(errno)
            unlink(temporary)
            return .failure(.init(message: "\(shown): \(reason)"))
        }
        return .success(())
    }

    /// Why the temporary file beside `path` could not be made, `code` being the reason: a missing folder is
    /// named as the folder (`no such file` would name the file, which is not expected to exist).
    static func folderProblem(_ code: Int32, writing path: String) -> String {
        let shown = ControlCharacters.strip(path)
        var folder = AudioFiles.folder(of: path)
        if folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        let shownFolder = folder.isEmpty ? "." : ControlCharacters.strip(folder)
        let name = shown.split(separator: "/").last.map(String.init) ?? shown
        switch code {
        case ENOENT: return "\(shownFolder): no such folder to write \(name) in"
        case ENOTDIR: return "\(shownFolder): not a folder, so \(name) cannot be written in it"
        default: return "\(shown): \(LyricFile.describe(code))"
        }
    }

    /// Creates `folder` and its missing parents, each only you can read (what songs a person has is theirs);
    /// false when it does not exist afterwards.
    static func makeFolders(_ folder: String) -> Bool {
        var info = stat()
        if stat(folder, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
        if let slash = folder.lastIndex(of: "/"), slash != folder.startIndex {
            guard makeFolders(String(folder[..<slash])) else { return false }
        }
        return mkdir(folder, 0o700) == 0 || (stat(folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR)
    }

    /// The process's umask, read without changing it for longer than the call.
    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}
