import Glibc
import KaraokeCore

/// `karaoke play`: the interactive player. The logic (state, keys, pacing, the frame) is the core's;
/// this is the loop that feeds it the clock, keys and signals, and hands frames to the screen.
enum PlayCommand {
    static func run(_ request: PlayRequest) -> Int32 {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            StandardStreams.err("karaoke: play needs a terminal on stdin and stdout; "
                + "to print frames without one, use 'karaoke render FILE --at SECONDS'")
            return 2
        }
        let choice: AudioSource.Choice
        switch AudioSource.choose(for: request) {
        case .success(let chosen): choice = chosen
        case .failure(let failure):
            StandardStreams.err("karaoke: \(failure.message)")
            return 1
        }
        guard let loaded = LyricFile.loadOrReport(choice.lyrics, maxSize: request.display.maxSize,
                                                      encoding: request.display.encoding) else {
            return 1
        }
        var audioFile = choice.audio
        if audioFile == nil, request.audio == .automatic { audioFile = AudioSource.named(by: loaded.song, lyrics: choice.lyrics) }
        var clockLog: Int32 = -1
        if let path = request.clockLog {
            clockLog = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard clockLog >= 0 else {
                StandardStreams.err("karaoke: \(ControlCharacters.strip(path)): \(LyricFile.describe(errno))")
                return 1
            }
        }
        let options = request.display.frameOptions(colorFGBG: TerminalInfo.environment("COLORFGBG"))
        let colors = request.display.color != .never && !TerminalInfo.noColorRequested

        Signals.install()
        let screen: NCursesScreen
        do {
            screen = try NCursesScreen(colors: colors)
        } catch {
            switch error {
            case .unknownTerminal(let name) where name.isEmpty:
                StandardStreams.err("karaoke: TERM is not set; set it to your terminal's type, "
                    + "for example TERM=xterm-256color")
            case .unknownTerminal(let name):
                StandardStreams.err("karaoke: unknown terminal type '\(ControlCharacters.strip(name))'; "
                    + "set TERM to one your system knows, for example TERM=xterm-256color")
            }
            return 2
        }
        var session = PlaySession(song: request.display.showsTranslations ? loaded.song : loaded.song.withoutTranslations(), fallbackTitle: loaded.fallbackTitle, options: options,
                                  request: request, screen: screen, audioFile: audioFile, clockLog: clockLog)
        let status = session.run()
        session.audio?.stop()
        screen.close()
        if clockLog >= 0 { close(clockLog) }
        // Warnings found while curses owned the screen are printed once the terminal is back.
        StandardStreams.report(loaded.diagnostics)
        return status
    }
}

/// One run of the player loop.
struct PlaySession {
    let song: Song
    let fallbackTitle: String
    let options: FrameOptions
    let framesPerSecond: Int
    let screen: NCursesScreen
    var state: PlayerState
    var composer: FrameComposer
    let startedAt: Double
    /// mpv, while it plays; nil when silent.
    private(set) var audio: MpvPlayer?
    let clockLog: Int32

    init(song: Song, fallbackTitle: String, options: FrameOptions, request: PlayRequest, screen: NCursesScreen,
         audioFile: String?, clockLog: Int32) {
        self.song = song
        self.fallbackTitle = fallbackTitle
        self.options = options
        self.framesPerSecond = request.display.framesPerSecond
        self.screen = screen
        let now = monotonicSeconds()
        startedAt = now
        self.clockLog = clockLog
        state = PlayerState(song: song, start: request.start, now: now, reduceMotion: options.reduceMotion,
                            userOffset: options.userOffset, audio: audioFile == nil ? .none : .starting,
                            volume: request.volume)
        if let audioFile {
            let shown = ControlCharacters.strip(audioFile)
            if !AudioSource.isRegularFile(audioFile) {
                state.lose("\(shown): no such audio file; playing without sound", at: now)
            } else if let mpv = MpvPlayer.find() {
                do {
                    audio = try MpvPlayer(executable: mpv, audioFile: audioFile, start: request.start, paused: false,
                                          volume: request.volume, extraOptions: request.mpvOptions)
                } catch {
                    state.lose("\(error.message); playing without sound", at: now)
                }
            } else {
                state.lose("mpv is not installed (not on PATH); playing without sound", at: now)
            }
        }
        let size = screen.size
        composer = FrameComposer(song: song, fallbackTitle: fallbackTitle, columns: size.columns, rows: size.rows,
                                 options: options)
    }

    /// Runs until the song ends, q, or a signal; returns the exit status.
    mutating func run() -> Int32 {
        var pacer = FramePacer(framesPerSecond: framesPerSecond, now: monotonicSeconds())
        paint(at: monotonicSeconds())
        pacer.advance(after: monotonicSeconds())
        while true {
            if let signal = Signals.take() {
                if signal == SIGTSTP {
                    let stoppedAt = monotonicSeconds()
                    if !state.isPaused { audio?.send(.setPaused(true)) }
                    screen.suspend()
                    Signals.suspendSelf()
                    if !state.isPaused { audio?.send(.setPaused(false)) }
                    // The song waits while the process is stopped, as a paused player would.
                    state.skipClock(by: monotonicSeconds() - stoppedAt)
                    screen.resume()
                    paint(at: monotonicSeconds())
                    continue
                }
                return 128 + signal
            }
            let now = monotonicSeconds()
            takeAudioMessages()
            if state.hasEnded(at: now) { return 0 }
            let needed = state.framesPerSecondNeeded(configured: framesPerSecond)
            // Nothing moves: sleep in the key read. A signal interrupts the read, but one that lands just
            // before it would wait for the next key (never, after SIGHUP), so the wait is capped at 1 s.
            var timeout = 1000
            if let needed {
                if pacer.period != 1 / Double(needed) {
                    pacer = FramePacer(framesPerSecond: needed, now: now)
                }
                timeout = pacer.millisecondsUntilDeadline(from: now)
                if state.isPaused == false {
                    // Wake at the song's end too, so a short last frame is not overslept.
                    let remaining = state.duration - state.position(at: now)
                    timeout = min(timeout, max(0, Int((remaining * 1000).rounded(.up))))
                }
            }
            switch screen.readInput(timeout: timeout) {
            case .key(let key):
                let at = monotonicSeconds()
                guard let action = PlayerAction.bound(to: key, helpShown: state.showsHelp) else { continue }
                for command in state.apply(action, at: at) { audio?.send(command) }
                if state.hasQuit { return 0 }
                composer.setReduceMotion(state.reduceMotion)
                composer.setUserOffset(state.userOffset)
                paint(at: at) // input shows within one frame, without waiting for the deadline
            case .resize:
                let size = screen.size
                composer = FrameComposer(song: state.song, fallbackTitle: fallbackTitle, columns: size.columns,
                                         rows: size.rows, options: composer.options)
                screen.invalidate()
                paint(at: monotonicSeconds())
            case .none:
                let at = monotonicSeconds()
                if needed != nil && at >= pacer.deadline {
                    paint(at: at)
                    pacer.advance(after: at)
                }
            }
        }
    }

    /// Hands what mpv said to the state, and passes on what the state asks of mpv in turn.
    mutating func takeAudioMessages() {
        guard let audio else { return }
        let knownDuration = state.audioDuration
        for message in audio.takeMessages() {
            switch message {
            case .event(let event, let at):
                if clockLog >= 0, case .position(let seconds) = event {
                    StandardStreams.write("audio \(at) \(seconds)\n", to: clockLog)
                }
                for command in state.receive(event, at: at) { audio.send(command) }
            case .gone(let reason):
                if state.audio != .lost { state.lose(reason, at: monotonicSeconds()) }
            }
        }
        if state.audioDuration != knownDuration {
            // The audio is longer than the lyrics: the status bar's total and the last line's end follow it.
            composer = FrameComposer(song: state.song, fallbackTitle: fallbackTitle, columns: composer.columns,
                                     rows: composer.rows, options: composer.options)
        }
    }

    mutating func paint(at now: Double) {
        // The title drifts on a clock that ticks ten times a second: one drift step in three frames looks
        // the same as thirty, and on a direct-colour terminal every title cell changes at every step.
        let titleTime = ((now - startedAt) * 10).rounded(.down) / 10
        let position = state.position(at: now)
        if clockLog >= 0 { StandardStreams.write("frame \(now) \(position)\n", to: clockLog) }
        let frame = composer.frame(at: position, titleTime: titleTime, paused: state.isPaused,
                                   showsHelp: state.showsHelp, notice: state.noticeText(at: now))
        screen.paint(frame)
    }
}
