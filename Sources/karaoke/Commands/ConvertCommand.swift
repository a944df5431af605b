import Glibc
import KaraokeCore

/// `karaoke convert`: reads any format, writes LRC, Enhanced LRC, SRT or WebVTT to stdout or a file.
///
/// Never replaces a file without `--force`; with it, the new text is written beside the old file and
/// renamed over it, so a failed write leaves the old file whole (`TextFile.save`).
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
        switch TextFile.save(written.text, to: output, replacing: request.force) {
        case .success: return 0
        case .failure(let failure):
            StandardStreams.err("karaoke: \(failure.message)")
            return 1
        }
    }
}
