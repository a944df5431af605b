extension OptionValues {
    /// The request of `command` once every option is set, with its FILEs `files`; `given` names the options
    /// the command line gave (play's `--offset` and `--vocals` beat what a song remembers).
    func invocation(of command: CommandLineOption.Command, files: [String], given: Set<String>) -> Invocation {
        var display = self.display
        display.maxSize = maxSize
        display.encoding = encoding
        display.file = files.first ?? ""
        display.lyrics = lyrics
        // render keeps today's text unless its own command line asks: a config file's size is not used.
        display.frame.size = command == .render ? (given.contains("--size") ? size : nil) ?? .fixed(1) : size ?? .auto
        switch command {
        case .play:
            var request = play
            request.display = display
            request.offsetIsGiven = given.contains("--offset")
            request.vocalsIsGiven = given.contains("--vocals")
            request.files = files
            return .play(request)
        case .render:
            // `--at`, or `--from` and `--to`, are given (`CommandShape`); a span's frames start at `--from`.
            let span = spanStart.flatMap { start in spanEnd.map { start...$0 } }
            // Lanes only when render's own command line asks, as with `--size`: a config file's `score` is
            // for playing.
            return .render(
                RenderRequest(
                    display: display, time: time ?? span?.lowerBound ?? 0, timeText: timeText, columns: columns,
                    rows: rows, format: format, span: span, output: convert.output, force: convert.force,
                    showsLanes: given.contains("--score")))
        case .check:
            return .check(
                CheckRequest(files: files, strict: strict, maxSize: maxSize, encoding: encoding, lyrics: lyrics))
        case .convert:
            var request = convert
            request.file = files.first ?? ""
            request.maxSize = maxSize
            request.encoding = encoding
            return .convert(request)
        case .fetch:
            var request = fetch
            request.audioFiles = files
            return .fetch(request)
        case .follow:
            var request = follow
            request.display = display
            return .follow(request)
        case .sync:
            var request = sync
            request.file = files.first ?? ""
            if case .file(let audio) = play.audio { request.audio = audio }
            request.output = convert.output
            request.force = convert.force
            request.mpvOptions = play.mpvOptions
            request.maxSize = maxSize
            request.encoding = encoding
            return .sync(request)
        case .calibrate:
            var request = mic
            request.mpvOptions = play.mpvOptions
            return .calibrate(request)
        case .mic:
            return .mic(mic)
        case .party:
            var request = party
            request.folders = files
            request.play = play
            request.play.display = display
            // The FOLDERs are the party's; its songs are the files found in them, one at a time.
            request.play.display.file = ""
            request.play.offsetIsGiven = given.contains("--offset")
            request.play.vocalsIsGiven = given.contains("--vocals")
            return .party(request)
        case .config:
            // `CommandLineParser` lists the settings before any value is set; this is never reached.
            preconditionFailure("config is listed by the parser")
        }
    }
}
