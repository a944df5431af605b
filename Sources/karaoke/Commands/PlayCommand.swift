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
        guard let loaded = LyricFile.loadOrReport(request.display.file, maxSize: request.display.maxSize) else {
            return 1
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
        var session = PlaySession(song: loaded.song, fallbackTitle: loaded.fallbackTitle, options: options,
                                  request: request, screen: screen)
        let status = session.run()
        screen.close()
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

    init(song: Song, fallbackTitle: String, options: FrameOptions, request: PlayRequest, screen: NCursesScreen) {
        self.song = song
        self.fallbackTitle = fallbackTitle
        self.options = options
        self.framesPerSecond = request.display.framesPerSecond
        self.screen = screen
        let now = monotonicSeconds()
        startedAt = now
        state = PlayerState(song: song, start: request.start, now: now, reduceMotion: options.reduceMotion,
                            userOffset: options.userOffset)
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
                    screen.suspend()
                    Signals.suspendSelf()
                    // The song waits while the process is stopped, as a paused player would.
                    state.skipClock(by: monotonicSeconds() - stoppedAt)
                    screen.resume()
                    paint(at: monotonicSeconds())
                    continue
                }
                return 128 + signal
            }
            let now = monotonicSeconds()
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
                state.apply(action, at: at)
                if state.hasQuit { return 0 }
                composer.setReduceMotion(state.reduceMotion)
                composer.setUserOffset(state.userOffset)
                paint(at: at) // input shows within one frame, without waiting for the deadline
            case .resize:
                let size = screen.size
                composer = FrameComposer(song: song, fallbackTitle: fallbackTitle, columns: size.columns,
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

    mutating func paint(at now: Double) {
        // The title drifts on a clock that ticks ten times a second: one drift step in three frames looks
        // the same as thirty, and on a direct-colour terminal every title cell changes at every step.
        let titleTime = ((now - startedAt) * 10).rounded(.down) / 10
        let frame = composer.frame(at: state.position(at: now), titleTime: titleTime, paused: state.isPaused,
                                   showsHelp: state.showsHelp)
        screen.paint(frame)
    }
}
