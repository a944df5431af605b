import Glibc
import KaraokeCore
import KaraokeDriver

/// `karaoke sync`: time lyrics by tapping along (DESIGN §13.1). The logic is the core's `SyncLoop`;
/// this checks the files, asks about an autosave, sets up the terminal and mpv, and carries the loop's
/// effects out (painting, mpv, saving, autosaving).
enum SyncCommand {
    static func run(_ request: SyncRequest) -> Int32 {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            StandardStreams.err("karaoke: sync needs a terminal on stdin and stdout")
            return 2
        }
        if request.calibrates { return calibrate(request) }
        let output = request.outputPath
        let shownOutput = ControlCharacters.strip(output)
        // Everything that would stop a save is checked before any work is done.
        if let problem = outputProblem(request) ?? request.audio.flatMap(AudioSource.namedFileProblem) {
            StandardStreams.err("karaoke: \(problem)")
            return 1
        }
        let shownFile = ControlCharacters.strip(request.file)
        let utf8: [UInt8]
        switch readText(request) {
        case .success(let text): utf8 = text
        case .failure(let failure):
            StandardStreams.err("karaoke: \(failure.message)")
            return 1
        }
        let (found, diagnostics) = SyncScript.read(utf8, file: shownFile)
        guard let script = found else {
            StandardStreams.err("karaoke: \(shownFile): no lyric line to time")
            return 1
        }
        var stamps: [SyncSession.Stamp] = []
        if AudioSource.isRegularFile(request.autosavePath) {
            switch resumeChoice(request) {
            case .none: return 1
            case .some(false): break
            case .some(true):
                guard let resumed = resumedStamps(request, script: script) else { return 1 }
                stamps = resumed
            }
        }

        let audioFile =
            request.audio ?? AudioFiles.audioCandidates(forLyrics: request.file).first(where: AudioSource.isRegularFile)
        var audio: MpvPlayer?
        var audioProblem: String?
        // Before mpv's reader starts, so that its thread wakes the driver and signals come only to the wait.
        guard let waiter = PollWaiter.forTerminal() else { return 1 }
        if let audioFile {
            // A resumed session goes on just before its last stamp, as the session's clock does.
            let start = SyncSession.startPosition(resuming: stamps, latency: request.latency)
            switch MpvPlayer.start(
                audioFile, from: start, volume: 100, extraOptions: request.mpvOptions, wake: waiter.wake,
                otherwise: "timing on a silent clock")
            {
            case .success(let started): audio = started
            case .failure(let failure): audioProblem = failure.message
            }
        } else {
            audioProblem = "no audio beside \(shownFile) (--audio names it); timing on a silent clock"
        }

        // The lyrics being timed may hold emoji: the terminal is asked (DESIGN §3.6).
        guard let screen = NCursesScreen.openOrExplain(colors: !TerminalInfo.noColorRequested, graphemes: .auto)
        else {
            audio?.stop()
            return 2
        }
        var options = FrameOptions()
        options.theme = Theme.resolve(.auto, colorFGBG: TerminalInfo.environment("COLORFGBG"))
        options.graphemes = screen.graphemes
        options.bidi = FriBidi.choice
        let now = monotonicSeconds()
        let session = SyncSession(
            script: script, wordMode: request.words, latency: request.latency, stamps: stamps,
            audio: audio == nil ? .none : .starting, now: now)
        let size = screen.size
        let name = shownFile.split(separator: "/").last.map(String.init) ?? shownFile
        var run = SyncRun(
            loop: SyncLoop(
                session: session, fallbackTitle: name, outputName: shownOutput, options: options,
                columns: size.columns, rows: size.rows, framesPerSecond: 30, audioProblem: audioProblem, now: now),
            screen: screen, waiter: waiter, audio: audio, output: output, autosave: request.autosavePath,
            replacesOutput: request.force)
        let status = run.run()
        audio?.stop()
        screen.close()
        StandardStreams.report(diagnostics)
        return status
    }

    /// `--calibrate`: the clicks through mpv, the taps on sync's screen, then the median lateness and the
    /// `--latency` it suggests on stdout once the terminal is back.
    static func calibrate(_ request: SyncRequest) -> Int32 {
        guard let mpv = MpvPlayer.find() else {
            StandardStreams.err("karaoke: calibration plays clicks through mpv, which is not installed (not on PATH)")
            return 1
        }
        let clickTrack: ClickTrack, audio: MpvPlayer
        guard let waiter = PollWaiter.forTerminal() else { return 1 }
        switch ClickTrack.play(Calibration.wav(), executable: mpv, extraOptions: request.mpvOptions, wake: waiter.wake)
        {
        case .success(let started): (clickTrack, audio) = started
        case .failure(let failure):
            StandardStreams.err("karaoke: \(failure.message)")
            return 1
        }
        defer { clickTrack.remove() }
        // The clicks have no text to paint whole: the terminal is not asked.
        guard let screen = NCursesScreen.openOrExplain(colors: !TerminalInfo.noColorRequested, graphemes: .reduced)
        else {
            audio.stop()
            return 2
        }
        var options = FrameOptions()
        options.theme = Theme.resolve(.auto, colorFGBG: TerminalInfo.environment("COLORFGBG"))
        let now = monotonicSeconds()
        let size = screen.size
        var run = SyncRun(
            loop: SyncLoop(
                session: SyncSession(script: Calibration.script, wordMode: false, audio: .starting, now: now),
                fallbackTitle: "calibration", outputName: "", options: options, columns: size.columns,
                rows: size.rows, framesPerSecond: 30, calibrates: true, now: now),
            screen: screen, waiter: waiter, audio: audio, output: "", autosave: "", replacesOutput: false)
        let status = run.run()
        audio.stop()
        screen.close()
        guard status == 0 else { return status }
        guard let result = Calibration.result(taps: run.loop.session.stamps.map(\.time)) else {
            StandardStreams.err(
                "karaoke: too few taps near the clicks (at least \(Calibration.clickCount / 2) of "
                    + "\(Calibration.clickCount)); run 'karaoke sync --calibrate' again")
            return 1
        }
        let sign = result.medianError < 0 ? "" : "+"
        StandardStreams.out(
            "median tap error \(sign)\(result.medianError) ms over \(result.taps) taps\n"
                + "use: karaoke sync FILE --latency \(result.suggestedLatency)\n")
        return 0
    }

    /// Why OUT could not be written, or nil: it exists (without --force), it is FILE itself (without
    /// --force), it is a folder, or its folder is missing or not writable.
    static func outputProblem(_ request: SyncRequest) -> String? {
        let output = request.outputPath
        let shown = ControlCharacters.strip(output)
        if AudioSource.isDirectory(output) { return "\(shown): is a directory" }
        if !request.force {
            if output == request.file {
                return "\(shown) is the file being timed; name another with -o OUT, or --force replaces it"
            }
            var info = stat()
            if lstat(output, &info) == 0 { return "\(shown) exists; --force replaces it" }
        }
        let folder = AudioFiles.folder(of: output)
        let shownFolder = folder.isEmpty ? "." : ControlCharacters.strip(folder)
        guard AudioSource.isDirectory(folder.isEmpty ? "." : folder) else {
            return "\(shownFolder): no such folder to write \(shown) in"
        }
        if access(folder.isEmpty ? "." : folder, W_OK) != 0 {
            return "\(shownFolder): cannot write \(shown) there (\(LyricFile.describe(errno)))"
        }
        return nil
    }

    /// FILE's text as UTF-8: decoded from `--encoding`, else read as UTF-8 (UTF-16 with a BOM converted).
    static func readText(_ request: SyncRequest) -> Result<[UInt8], LyricFile.Failure> {
        let shown = ControlCharacters.strip(request.file)
        let bytes: [UInt8]
        switch LyricFile.read(request.file, maxSize: request.maxSize) {
        case .success(let data): bytes = data
        case .failure(let failure): return .failure(.init(message: "\(shown): \(failure.message)"))
        }
        if let encoding = request.encoding {
            switch TextEncoding.convert(bytes, from: encoding) {
            case .success(let text):
                return .success(text.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(text.dropFirst(3)) : text)
            case .failure: return .failure(.init(message: "\(shown): not valid \(ControlCharacters.strip(encoding))"))
            }
        }
        switch SourceText.utf8(from: bytes) {
        case .success(let text): return .success(text)
        case .failure: return .failure(.init(message: "\(shown): not a text file (binary data)"))
        }
    }

    /// Whether to go on from the autosave: `--resume`/`--no-resume`, else a y/n question on the terminal
    /// before the screen starts. Nil when the question could not be answered (end of input).
    static func resumeChoice(_ request: SyncRequest) -> Bool? {
        if let resume = request.resume { return resume }
        let shown = ControlCharacters.strip(request.autosavePath)
        StandardStreams.write("karaoke: \(shown) holds unsaved stamps; go on from them? [Y/n] ", to: STDERR_FILENO)
        guard let answer = readLine() else {
            StandardStreams.err("")
            return nil
        }
        return !answer.lowercased().hasPrefix("n")
    }

    /// The stamps the autosave holds, or nil (after saying why) when it cannot be read or does not fit FILE.
    static func resumedStamps(_ request: SyncRequest, script: SyncScript) -> [SyncSession.Stamp]? {
        let shown = ControlCharacters.strip(request.autosavePath)
        guard case .success(let bytes) = LyricFile.read(request.autosavePath, maxSize: request.maxSize),
            case .success(let utf8) = SourceText.utf8(from: bytes)
        else {
            StandardStreams.err("karaoke: \(shown): cannot be read; move it away, or --no-resume starts afresh")
            return nil
        }
        guard let song = LRCParser.parse(utf8, file: shown).song,
            let stamps = SyncSession.stamps(from: song, script: script, wordMode: request.words)
        else {
            StandardStreams.err(
                "karaoke: \(shown) does not fit \(ControlCharacters.strip(request.file))"
                    + (request.words ? "" : " (was it made with --words?)")
                    + "; move it away, or --no-resume starts afresh")
            return nil
        }
        return stamps
    }
}

/// One run of `sync`: the core's `SyncLoop` decides, the driver runs it on the terminal, and this carries
/// out its own effects on mpv and the files (DESIGN §13.1, §17).
struct SyncRun {
    var loop: SyncLoop
    let screen: NCursesScreen
    let waiter: PollWaiter
    let audio: MpvPlayer?
    /// The file `s` writes, and the autosave beside it.
    let output: String
    let autosave: String
    /// Whether a save replaces OUT: `--force`, or once this run has written it.
    var replacesOutput: Bool

    /// Runs until q or a signal; returns the exit status.
    mutating func run() -> Int32 {
        var driver = TerminalDriver<SyncLoop>(screen: screen, waiter: waiter)
        if let audio { driver.sources.append { audio.takeMessages().map(SyncRun.event) } }
        let audio = audio, output = output, autosave = autosave
        var replacesOutput = replacesOutput
        let ending = driver.run(&loop) { effect, _ in
            switch effect {
            case .send(let command): audio?.send(command)
            case .save(let text):
                switch TextFile.save(text, to: output, replacing: replacesOutput) {
                case .success:
                    replacesOutput = true
                    return .report([.saved(failure: nil)])
                case .failure(let failure):
                    return .report([.saved(failure: failure.message)])
                }
            case .autosave(let text):
                if case .failure(let failure) = TextFile.save(text, to: autosave, replacing: true) {
                    return .report([.autosaveFailed(failure.message)])
                }
            case .discardAutosave: unlink(autosave)
            case .screen: break
            }
            return .done
        }
        self.replacesOutput = replacesOutput
        switch ending {
        case .exit(let status): return status
        // Every effect of sync's own is carried out; none stops the run.
        case .stopped: return 1
        }
    }

    /// The sync loop's event for one of mpv's messages.
    static func event(_ message: MpvPlayer.Message) -> SyncLoop.Event {
        switch message {
        case .event(let event, let at): .audio(event, at: at)
        case .gone(let reason): .audioGone(reason)
        }
    }
}
