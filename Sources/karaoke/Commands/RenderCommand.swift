import Glibc
import KaraokeCore

/// `karaoke render`: one frame of the player on stdout.
enum RenderCommand {
    static func run(_ request: RenderRequest) -> Int32 {
        let loaded: LyricFile.Loaded
        switch LyricFile.load(request.display.file, maxSize: request.display.maxSize) {
        case .success(let value): loaded = value
        case .failure(let failure):
            StandardStreams.report(failure.diagnostics)
            StandardStreams.err("karaoke: \(failure.message)")
            return 1
        }
        StandardStreams.report(loaded.diagnostics)
        let terminal = TerminalInfo.size(of: STDOUT_FILENO)
        let columns = request.columns ?? terminal?.columns ?? 80
        let rows = request.rows ?? terminal?.rows ?? 24
        var options = request.display.frame
        options.theme = Theme.resolve(request.display.theme, colorFGBG: PlayCommand.environment("COLORFGBG"))
        var composer = FrameComposer(song: loaded.song, fallbackTitle: loaded.fallbackTitle, columns: columns,
                                     rows: rows, options: options)
        let frame = composer.frame(at: request.time)
        switch request.format {
        case .text: StandardStreams.out(frame.textRendering())
        case .json: StandardStreams.out(frame.jsonRendering())
        case .ansi:
            let colour = request.display.color == .always
                || (request.display.color == .auto && !TerminalInfo.noColorRequested)
            StandardStreams.out(frame.ansiRendering(depth: colour ? .direct : .none))
        }
        return 0
    }
}
