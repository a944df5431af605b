import Glibc
import KaraokeCore

/// `karaoke render`: one frame of the player, or a recording of its frames over a span (DESIGN §26), on
/// stdout or in OUT.
///
/// OUT is written as convert writes it (`TextFile.save`): an existing file only with `--force`, and a failed
/// write leaves it as it was.
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
        let options = ScreenOptions.of(request.display)
        // The lanes of every part the song has, as `play --score` draws them before anyone sings.
        let lanes = request.showsLanes ? loaded.song.notes.map { NoteLanes(track: $0) } : nil
        if request.showsLanes, lanes == nil {
            StandardStreams.err(
                "karaoke: warning: \(ControlCharacters.strip(file)) has no notes; --score draws no lanes")
        }
        var composer = FrameComposer(
            content: loaded.shown(showsTranslations: request.display.showsTranslations),
            fallbackTitle: loaded.fallbackTitle, columns: columns, rows: rows, options: options, lanes: lanes)
        if composer.bigFontMissing { StandardStreams.err("karaoke: warning: " + composer.sizeNotice) }
        ScreenOptions.reportRomanizationFailure()
        // The cells `play` draws on a direct-colour terminal; `--format ansi` prints them in those colours.
        var track = loaded.graphics.map {
            CDGTrack(bytes: $0, renderer: PictureRenderers.forTerminal().renderer, depth: .direct)
        }
        if let span = request.span { return record(span, request: request, composer: &composer, track: &track) }
        var input = FrameInput(time: request.time, userOffset: options.userOffset, reduceMotion: options.reduceMotion)
        if track != nil {
            let size = composer.pictureSize
            input.picture = track!.cells(
                at: request.time + Double(options.userOffset) / 1000, columns: size.columns, rows: size.rows)
        }
        let frame = composer.frame(input)
        switch request.format {
        case .text: return deliver(Array(frame.textRendering().utf8), request)
        case .json: return deliver(Array(frame.jsonRendering().utf8), request)
        case .ansi:
            let colour =
                request.display.color == .always
                || (request.display.color == .auto && !TerminalInfo.noColorRequested)
            return deliver(Array(frame.ansiRendering(depth: colour ? .direct : .none).utf8), request)
        case .svg: return deliver(Array(SVGRecording.still(frame, options: options).utf8), request)
        case .ppm, .asciicast:
            // The parser gives `--format ppm` to CD+G files only, and asciicast to spans only.
            preconditionFailure("\(request.format) for one frame of a lyric file")
        }
    }

    /// `bytes` to OUT, or to stdout without `-o`.
    private static func deliver(_ bytes: [UInt8], _ request: RenderRequest) -> Int32 {
        stream(request) { fd in bytes.withUnsafeBytes { StandardStreams.writeAll($0, to: fd) } }
    }

    /// Runs `write` on OUT (through `TextFile.save`) or on stdout; false from it means a write failed.
    private static func stream(_ request: RenderRequest, _ write: (Int32) -> Bool) -> Int32 {
        guard let output = request.output else {
            if write(STDOUT_FILENO) { return 0 }
            if errno == EPIPE { return StandardStreams.brokenPipeStatus }
            StandardStreams.err("karaoke: stdout: \(LyricFile.describe(errno))")
            return 1
        }
        switch TextFile.save(to: output, replacing: request.force, writing: write) {
        case .success: return 0
        case .failure(let failure):
            StandardStreams.err("karaoke: \(failure.message)")
            return 1
        }
    }

    /// The frames of `span` as `play` composes them, written as an asciinema recording (DESIGN §26) line by
    /// line as they are composed, so a long span is never held whole; or as one animated SVG.
    private static func record(
        _ span: ClosedRange<Double>, request: RenderRequest, composer: inout FrameComposer, track: inout CDGTrack?
    ) -> Int32 {
        let frames = FrameSpan(
            start: span.lowerBound, end: span.upperBound, framesPerSecond: request.display.framesPerSecond)
        let options = composer.options
        // The frame of `moment`, with the CD+G picture of its time when the song has one.
        func frame(at moment: FrameSpan.Moment) -> Frame {
            var input = moment.input(userOffset: options.userOffset, reduceMotion: options.reduceMotion)
            if track != nil {
                let size = composer.pictureSize
                input.picture = track!.cells(
                    at: moment.time + Double(options.userOffset) / 1000, columns: size.columns, rows: size.rows)
            }
            return composer.frame(input)
        }
        guard request.format == .asciicast else {
            // One picture made at the end: unlike a cast it cannot be written as it goes, but it holds each
            // distinct row once, not each frame.
            var recording = SVGRecording(columns: composer.columns, rows: composer.rows, options: options)
            for moment in frames { recording.append(frame(at: moment), at: moment.seconds) }
            // Each frame lasts a frame's time, the last one too, before the picture loops.
            let duration = Double(frames.count) / Double(frames.framesPerSecond)
            return deliver(Array(recording.svg(duration: duration).utf8), request)
        }
        let terminal = recordedTerminal(colors: request.display.color != .never && !TerminalInfo.noColorRequested)
        let header = Asciicast.Header(
            width: composer.columns, height: composer.rows, timestamp: timestamp(), title: composer.title,
            terminalType: terminal.type)
        var cast = Asciicast(
            codes: terminal.codes, depth: terminal.depth, columns: composer.columns, rows: composer.rows)
        return stream(request) { fd in
            var pending = Array(header.line.utf8)
            for moment in frames {
                guard let line = cast.event(for: frame(at: moment), at: moment.seconds) else { continue }
                pending += line.utf8
                // Written in pieces of about 64 KiB: few writes, and little held however long the span.
                if pending.count >= 65536 {
                    guard pending.withUnsafeBytes({ StandardStreams.writeAll($0, to: fd) }) else { return false }
                    pending.removeAll(keepingCapacity: true)
                }
            }
            return pending.withUnsafeBytes { StandardStreams.writeAll($0, to: fd) }
        }
    }

    /// The terminal a recording is made for: `$TERM` when this machine's terminfo knows it (and it can move
    /// the cursor), else xterm-256color, with the codes and colour depth `play` would take there (DESIGN §26.2).
    private static func recordedTerminal(colors: Bool) -> (type: String, codes: TerminalCodes, depth: ColorDepth) {
        if let name = TerminalInfo.environment("TERM"), !name.isEmpty,
            let found = NCursesScreen.codes(ofType: name, colors: colors)
        {
            return (name, found.codes, found.depth)
        }
        if let found = NCursesScreen.codes(ofType: "xterm-256color", colors: colors) {
            return ("xterm-256color", found.codes, found.depth)
        }
        // No terminfo entry for it on this machine: Debian's, as the core spells it.
        return ("xterm-256color", TerminalCodes.xterm(), colors ? .indexed256 : .none)
    }

    /// The recording's time: `SOURCE_DATE_EPOCH` when it is set to a whole number (a reproducible file, as
    /// reproducible builds ask), else now.
    private static func timestamp() -> Int {
        if let text = TerminalInfo.environment("SOURCE_DATE_EPOCH"), let seconds = Int(text), seconds >= 0 {
            return seconds
        }
        return time(nil)
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
        return deliver(decoder.picture.ppm(), request)
    }
}
