import Glibc
import KaraokeCore

/// `karaoke render`: one frame of the player on stdout.
enum RenderCommand {
    static func run(_ request: RenderRequest) -> Int32 {
        let file = request.display.file
        let loaded: LyricFile.Loaded
        if AudioFiles.isAudio(file) {
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
        let options = request.display.frameOptions(colorFGBG: TerminalInfo.environment("COLORFGBG"))
        var composer = FrameComposer(
            content: loaded.shown(showsTranslations: request.display.showsTranslations),
            fallbackTitle: loaded.fallbackTitle, columns: columns, rows: rows, options: options)
        let frame = composer.frame(at: request.time)
        switch request.format {
        case .text: StandardStreams.out(frame.textRendering())
        case .json: StandardStreams.out(frame.jsonRendering())
        case .ansi:
            let colour =
                request.display.color == .always
                || (request.display.color == .auto && !TerminalInfo.noColorRequested)
            StandardStreams.out(frame.ansiRendering(depth: colour ? .direct : .none))
        }
        return 0
    }
}
