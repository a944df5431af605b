import Glibc
import KaraokeCore

/// `karaoke render`: one frame of the player on stdout.
enum RenderCommand {
    static func run(_ request: RenderRequest) -> Int32 {
        let file = request.display.file
        if request.format == .ppm { return renderPicture(request) }
        let loaded: LyricFile.Loaded
        if let graphics = GraphicsFile.song(file, audio: .none, maxSize: request.display.maxSize) {
            switch graphics {
            case .success(let song): loaded = song.loaded
            case .failure(let failure):
                StandardStreams.err("karaoke: \(failure.message)")
                return 1
            }
        } else if AudioFiles.isAudio(file) {
            // An audio FILE: its lyrics are looked for (DESIGN §10.1).
            switch LyricsFinder.standard.load(
                audio: file, options: request.display.lyrics, maxSize: request.display.maxSize,
                encoding: request.display.encoding)
            {
            case .success(let result): loaded = result.loaded
            case .failure(let failure):
                StandardStreams.report(failure.diagnostics)
                StandardStreams.err("karaoke: \(failure.message)")
                return 1
            }
        } else {
            guard
                let read = LyricFile.loadOrReport(
                    file, maxSize: request.display.maxSize, encoding: request.display.encoding)
            else {
                return 1
            }
            loaded = read
        }
        StandardStreams.report(loaded.diagnostics)
        let terminal = TerminalInfo.size(of: STDOUT_FILENO)
        let columns = request.columns ?? terminal?.columns ?? 80
        let rows = request.rows ?? terminal?.rows ?? 24
        let options = UnifontFile.withFont(
            request.display.frameOptions(colorFGBG: TerminalInfo.environment("COLORFGBG")))
        var composer = FrameComposer(
            content: loaded.shown(showsTranslations: request.display.showsTranslations),
            fallbackTitle: loaded.fallbackTitle, columns: columns, rows: rows, options: options)
        var input = FrameInput(time: request.time, userOffset: options.userOffset, reduceMotion: options.reduceMotion)
        if let graphics = loaded.graphics {
            // The cells `play` draws on a direct-colour terminal; `--format ansi` prints them in those colours.
            var track = CDGTrack(bytes: graphics, renderer: PictureRenderers.forTerminal().renderer, depth: .direct)
            let size = composer.pictureSize
            input.picture = track.cells(
                at: request.time + Double(options.userOffset) / 1000, columns: size.columns, rows: size.rows)
        }
        if composer.bigFontMissing { StandardStreams.err("karaoke: warning: " + composer.sizeNotice) }
        let frame = composer.frame(input)
        switch request.format {
        case .text: StandardStreams.out(frame.textRendering())
        case .json: StandardStreams.out(frame.jsonRendering())
        case .ansi:
            let colour =
                request.display.color == .always
                || (request.display.color == .auto && !TerminalInfo.noColorRequested)
            StandardStreams.out(frame.ansiRendering(depth: colour ? .direct : .none))
        case .ppm:
            // The parser gives `--format ppm` to CD+G files only.
            preconditionFailure("ppm for a lyric file")
        }
        return 0
    }

    /// A CD+G file's (or a zipped MP3+G song's) picture at `--at` as binary PPM (DESIGN §19.5); the parser
    /// lets `--format ppm` through for those files only.
    private static func renderPicture(_ request: RenderRequest) -> Int32 {
        let file = request.display.file
        let shown = ControlCharacters.strip(file)
        let bytes: [UInt8]
        switch GraphicsFile.read(file, maxSize: request.display.maxSize) {
        case .success(let read): bytes = read.bytes
        case .failure(let failure):
            StandardStreams.err("karaoke: \(shown): \(failure.message)")
            return 1
        }
        let report = CDGReport(bytes: bytes)
        StandardStreams.report(report.diagnostics(file: shown).filter { $0.severity == .warning })
        if let problem = report.problems.first(where: \.isError) {
            StandardStreams.err("karaoke: \(shown): \(problem.message)")
            return 1
        }
        // Exact from the digits as written; only a spelling that is no plain decimal goes through the double.
        let time =
            CDGTime(seconds: request.timeText)
            ?? CDGTime(packetIndex: Int((request.time * Double(CDGTime.packetsPerSecond)).rounded(.down)))
        var decoder = CDGDecoder(bytes: bytes)
        decoder.advance(to: time)
        let ppm = decoder.picture.ppm()
        let written = ppm.withUnsafeBytes { StandardStreams.writeAll($0, to: STDOUT_FILENO) }
        if !written { return errno == EPIPE ? StandardStreams.brokenPipeStatus : 1 }
        return 0
    }
}
