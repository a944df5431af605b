import Glibc
import KaraokeCore
import KaraokeDriver

extension PlayCommand {
    /// `play --print lines|waybar|json FILE`: the current line written at each change instead of the screen,
    /// with no terminal at all (DESIGN §28).
    ///
    /// The song and its audio are found as `play` finds them; with audio, mpv plays it and its positions lead
    /// the clock, else karaoke's own clock runs. The core's `StatusLinePrinter` decides what to write and when;
    /// this waits on the wake pipe until the next change or one of mpv's messages, and writes. Ends when the
    /// song ends (0), on SIGINT, SIGTERM or SIGHUP (128 + N), or quietly when stdout closes (0). Keys are not read.
    static func printStatusLines(_ request: PlayRequest, form: StatusLineForm) -> Int32 {
        if case .file(let audio) = request.audio, let problem = AudioSource.namedFileProblem(audio) {
            StandardStreams.err("karaoke: \(problem)")
            return 1
        }
        let prepared: Prepared
        switch prepareReporting(request) {
        case .success(let ready): prepared = ready
        case .failure(let exit): return exit.status
        }
        let loaded = prepared.loaded
        // No screen owns stderr: the warnings come at once.
        StandardStreams.report(loaded.diagnostics)
        let request = prepared.withRememberedOffset(request)
        // The waiter before any thread starts: mpv's reader and the lookup wake it, signals come only to its wait.
        guard let waiter = PollWaiter.forCommand() else { return 1 }
        var printer = StatusLinePrinter(
            form: form, userOffset: request.display.frame.userOffset, playback: .playing, position: request.start,
            endsWithSong: true, now: monotonicSeconds())
        printer.show(loaded.shown(showsTranslations: request.display.showsTranslations))
        let audio = startAudio(prepared.audioFile, request: request, wake: waiter.wake)
        defer { audio?.stop() }
        if audio != nil { printer.waitForAudio(at: monotonicSeconds()) }
        let lookup = prepared.pendingLookup.map {
            BackgroundLookup(query: $0.query, server: $0.server, cache: LRCLIBCache.standard(), wake: waiter.wake)
        }
        while true {
            for message in audio?.takeMessages() ?? [] {
                switch message {
                case .event(let event, let at):
                    if let reason = printer.receive(event, at: at) {
                        StandardStreams.err("karaoke: \(ControlCharacters.strip(reason)); going on without sound")
                    }
                case .gone(let reason):
                    if printer.followsAudio { StandardStreams.err("karaoke: \(ControlCharacters.strip(reason))") }
                    printer.loseAudio(at: monotonicSeconds())
                }
            }
            if let answer = lookup?.take() {
                var content = answer.content
                if !request.display.showsTranslations, case .timed(let song) = content {
                    content = .timed(song.withoutTranslations())
                }
                printer.show(content)
                if let notice = answer.notice { StandardStreams.err("karaoke: \(ControlCharacters.strip(notice))") }
            }
            let now = monotonicSeconds()
            if let text = printer.output(at: now) {
                // stdout closed (the reader went away): stop quietly.
                guard StandardStreams.writeWhole(text, to: STDOUT_FILENO) else { return 0 }
            }
            if printer.isOver(at: now) { return 0 }
            _ = waiter.wait(until: printer.nextWake(after: now))
            if let signal = waiter.takeSignal() { return signal.exitStatus }
        }
    }

    /// mpv playing `audioFile` for `--print`, or nil (silent) after saying why not; a MIDI song's music, which
    /// `play` synthesises, is not played here (DESIGN §28).
    private static func startAudio(_ audioFile: String?, request: PlayRequest, wake: WakePipe) -> MpvPlayer? {
        guard let audioFile else { return nil }
        if SynthesisedMusic.isMidi(audioFile) {
            StandardStreams.err("karaoke: --print plays no MIDI music; printing on karaoke's own clock")
            return nil
        }
        switch MpvPlayer.start(
            audioFile, from: request.start, volume: request.volume, singing: request.singing,
            extraOptions: request.mpvOptions, wake: wake, otherwise: "printing on karaoke's own clock")
        {
        case .success(let started): return started
        case .failure(let failure):
            StandardStreams.err("karaoke: \(failure.message)")
            return nil
        }
    }
}
