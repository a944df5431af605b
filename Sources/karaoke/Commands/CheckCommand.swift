import KaraokeCore
import KaraokeDriver

/// `karaoke check`: diagnostics on stderr, one summary line per file on stdout.
enum CheckCommand {
    static func run(_ request: CheckRequest) -> Int32 {
        var failed = false
        let finder = LyricsFinder.standard
        let home = LyricsSearch.home(TerminalInfo.environment)
        for file in request.files.flatMap(expand) {
            if AudioSource.isDirectory(file) {
                let shown = ControlCharacters.strip(file)
                let kinds = (AudioFiles.lyricExtensions + AudioFiles.midiExtensions + ["cdg", "zip"]).map { "." + $0 }
                    .joined(separator: " ")
                StandardStreams.err("karaoke: \(shown): no lyric files in this folder (\(kinds))")
                StandardStreams.out("\(shown): unusable\n")
                failed = true
                continue
            }
            // An MP3+G song: the graphics are what `play` shows, so they are what is checked (DESIGN §19.6).
            if let graphics = MP3GFiles.isGraphicsSource(file) ? file : GraphicsFile.graphics(besideAudio: file) {
                if !checkGraphics(graphics, request: request) { failed = true }
                continue
            }
            // An audio FILE is checked through the lyrics found for it, and says where they came from.
            let result: Result<(LyricFile.Loaded, LyricsOrigin?), LyricFile.Failure>
            if AudioFiles.isAudio(file) {
                result = finder.load(
                    audio: file, options: request.lyrics, maxSize: request.maxSize, encoding: request.encoding
                )
                .map { ($0.loaded, $0.origin) }
            } else {
                result = LyricFile.load(file, maxSize: request.maxSize, encoding: request.encoding).map { ($0, nil) }
            }
            switch result {
            case .success(let (loaded, origin)):
                StandardStreams.report(loaded.diagnostics)
                // Not the file's fault, so not counted as its warning, nor by --strict (DESIGN §3.5).
                if BidiReorder.needsAlgorithm(loaded.content), let message = FriBidi.load() {
                    StandardStreams.report([
                        BidiReorder.fallbackWarning(file: ControlCharacters.strip(file), message: message)
                    ])
                }
                var line = summary(of: loaded, file: file)
                if let origin { line += ", lyrics: " + origin.description(home: home) }
                StandardStreams.out(line + "\n")
                if request.strict && !loaded.diagnostics.isEmpty { failed = true }
            case .failure(let failure):
                StandardStreams.report(failure.diagnostics)
                StandardStreams.err("karaoke: \(failure.message)")
                StandardStreams.out("\(ControlCharacters.strip(file)): unusable\n")
                failed = true
            }
        }
        return failed ? 1 : 0
    }

    /// Checks a CD+G file or a zipped MP3+G song (DESIGN §19.5, §19.6): its problems on stderr,
    /// `FILE: CD+G, 0:12.34, 3702 packets` on stdout (and `, audio NAME` for a zip); false when it counts as
    /// failed (not CD+G, unreadable, or a warning under `--strict`).
    static func checkGraphics(_ file: String, request: CheckRequest) -> Bool {
        let shown = ControlCharacters.strip(file)
        let bytes: [UInt8]
        var audio = ""
        switch GraphicsFile.read(file, maxSize: request.maxSize) {
        case .success(let read):
            bytes = read.bytes
            if let entry = read.audioEntry { audio = ", audio \(entry)" }
        case .failure(let failure):
            StandardStreams.err("karaoke: \(shown): \(failure.message)")
            StandardStreams.out("\(shown): unusable\n")
            return false
        }
        let report = CDGReport(bytes: bytes)
        if let problem = report.problems.first(where: \.isError) {
            StandardStreams.err("karaoke: \(shown): \(problem.message)")
            StandardStreams.out("\(shown): unusable\n")
            return false
        }
        StandardStreams.report(report.diagnostics(file: shown))
        StandardStreams.out(report.summary(file: shown) + audio + "\n")
        return !(request.strict && !report.problems.isEmpty)
    }

    /// The files FILE stands for: a folder's lyric files (as `play FOLDER` plays a folder), or FILE itself.
    /// A folder without any stays itself, to be said so.
    static func expand(_ file: String) -> [String] {
        guard AudioSource.isDirectory(file) else { return [file] }
        let files = AudioFiles.lyricFiles(inFolder: file, names: QueueCommand.names(in: file))
        return files.isEmpty ? [file] : files
    }

    /// `FILE: 18 lines, 0 word-timed, 1:40, "Title — Artist"` (warnings counted when there are any).
    /// Plain lyrics: `FILE: plain lyrics, not timed, 24 lines, "Title — Artist"` (DESIGN §10.1).
    static func summary(of loaded: LyricFile.Loaded, file: String) -> String {
        let song = loaded.song
        var parts: [String]
        if case .plain(let plain) = loaded.content {
            let count = plain.lines.count { !$0.isEmpty }
            parts = ["plain lyrics, not timed", "\(count) line\(count == 1 ? "" : "s")"]
        } else {
            parts = [
                "\(song.lines.count) line\(song.lines.count == 1 ? "" : "s")",
                "\(song.wordTimedLineCount) word-timed",
                StatusBar.clock(Double(song.duration) / 1000),
            ]
        }
        parts.append(song.metadata.displayTitle.map { "\"\($0)\"" } ?? "no title")
        let warnings = loaded.diagnostics.count
        if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
        return "\(ControlCharacters.strip(file)): " + parts.joined(separator: ", ")
    }
}
