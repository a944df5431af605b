import Glibc
import KaraokeCore

/// `karaoke convert`: reads any format, writes LRC, Enhanced LRC, SRT or WebVTT to stdout or a file.
///
/// Never replaces a file without `--force`; with it, the new text is written beside the old file and
/// renamed over it, so a failed write leaves the old file whole.
enum ConvertCommand {
    static func run(_ request: ConvertRequest) -> Int32 {
        guard let target = LyricWriter.Target(rawValue: request.target) else { return 2 }
        let loaded: LyricFile.Loaded
        switch LyricFile.load(request.file, maxSize: request.maxSize, encoding: request.encoding) {
        case .success(let file): loaded = file
        case .failure(let failure):
            StandardStreams.report(failure.diagnostics)
            StandardStreams.err("karaoke: \(failure.message)")
            return 1
        }
        StandardStreams.report(loaded.diagnostics)
        let written = LyricWriter.write(loaded.song, to: target)
        let shown = ControlCharacters.strip(request.file)
        // What the target cannot hold is said, never dropped silently.
        StandardStreams.report(written.warnings.map { Diagnostic(.warning, file: shown, line: 0, column: 0, $0) })
        guard let output = request.output else {
            StandardStreams.out(written.text)
            return 0
        }
        switch save(written.text, to: output, replacing: request.force) {
        case .success: return 0
        case .failure(let failure):
            StandardStreams.err("karaoke: \(failure.message)")
            return 1
        }
    }

    /// Writes `text` to `path`: refused when it exists unless `replacing`, then through a temporary
    /// file in the same folder and a rename.
    static func save(_ text: String, to path: String, replacing: Bool) -> Result<Void, LyricFile.Failure> {
        let shown = ControlCharacters.strip(path)
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { return .failure(.init(message: "\(shown): is a directory")) }
            if !replacing { return .failure(.init(message: "\(shown) exists; --force replaces it")) }
        }
        var template = Array("\(path).karaoke-XXXXXX".utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return .failure(.init(message: "\(shown): \(LyricFile.describe(errno))")) }
        // mkstemp filled in the X's.
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                let reason = LyricFile.describe(errno)
                close(fd)
                unlink(temporary)
                return .failure(.init(message: "\(shown): \(reason)"))
            }
            bytes = bytes.dropFirst(count)
        }
        fchmod(fd, 0o644 & ~currentUmask())
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

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}
