/// `karaoke sync`'s loop as a value, as `PlayLoop` is `play`'s: takes what happens (the time, keys,
/// mpv, signals, resizes, how a save went) and says what to do (paint, send to mpv, save, autosave,
/// wait, exit) (DESIGN §13.1). The edge reads and carries out; a fake clock tests the whole loop.
public struct SyncLoop: TerminalProgram {
    /// What the sync loop asks the edge to do, in the order given; every answer ends with `.wait`,
    /// `.suspend` or `.exit`.
    ///
    /// The screen's effects (`.paint`, `.wait`, `.suspend`, `.exit`) go in `.screen` (`ProgramEffect`).
    public enum Effect: Sendable, Equatable, ProgramEffect {
        /// Paint, wait, suspend or exit: the driver carries these out.
        case screen(ScreenEffect)
        /// Send this command to mpv (nothing to do when there is no mpv).
        case send(AudioCommand)
        /// Write this text to the output file, then report `.saved`.
        case save(String)
        /// Write this text to the autosave file (`OUT.autosave`); report `.autosaveFailed` if it fails.
        case autosave(String)
        /// Remove the autosave file: what it held is saved, or was dropped on purpose.
        case discardAutosave

        /// The screen's part of the effect; nil for mpv's commands and the saves, which `sync` carries out.
        public var screenEffect: ScreenEffect? {
            if case .screen(let effect) = self { effect } else { nil }
        }
    }

    /// What happened, as the edge tells the sync loop; the screen's events (`.tick`, `.key`, `.signal`,
    /// `.resize`) come in `.screen` (`ProgramEvent`), mpv's as under `play`.
    public enum Event: Sendable, Equatable, ProgramEvent {
        /// The terminal or the process reported something: a tick, a key, a signal, a resize.
        case screen(ScreenEvent)
        /// mpv reported `event`, which arrived at monotonic time `at`.
        case audio(AudioEvent, at: Double)
        /// mpv is gone; the text says why.
        case audioGone(String)
        /// The last `.save` was written (nil) or failed for the reason given.
        case saved(failure: String?)
        /// The last `.autosave` failed for the reason given.
        case autosaveFailed(String)
    }

    /// Seconds between autosaves while something changed.
    public static let autosaveInterval = 10.0

    /// The session: stamps, clock, selection, speed.
    public private(set) var session: SyncSession
    private var composer: FrameComposer
    private let options: FrameOptions
    private let fallbackTitle: String
    /// The output file's name as shown in notices.
    private let outputName: String
    /// When to paint: the frame grid while the sweep moves, the next visible change otherwise (DESIGN §17.2).
    private var clock: LoopClock
    /// What the composer was built for: the stamps' revision and the audio's length.
    private var composedFor: (revision: Int, duration: Double?)
    /// The revision the autosave file holds, and when it was last written.
    private var autosaved: (revision: Int, at: Double)
    /// The revision a `.save` under way writes.
    private var savingRevision: Int?
    /// `--calibrate`: nothing is saved or autosaved, q quits at once, and the loop ends when every click
    /// is tapped or the clicks are over.
    public let calibrates: Bool

    /// A loop around `session` on a `columns` × `rows` screen at monotonic `now`; `outputName` is how
    /// notices name the file `s` writes; `audioProblem` is shown when the audio could not start.
    public init(
        session: SyncSession, fallbackTitle: String, outputName: String, options: FrameOptions, columns: Int,
        rows: Int, framesPerSecond: Int, audioProblem: String? = nil, calibrates: Bool = false, now: Double
    ) {
        self.session = session
        self.calibrates = calibrates
        if let audioProblem { self.session.lose(audioProblem, at: now) }
        var options = options
        options.userOffset = 0
        self.options = options
        self.fallbackTitle = fallbackTitle
        self.outputName = outputName
        clock = LoopClock(framesPerSecond: framesPerSecond, now: now)
        composedFor = (session.revision, session.audioDuration)
        // Stamps given at the start came from the autosave file, which holds them already.
        autosaved = (session.revision, now)
        composer = SyncLoop.composer(
            for: session, fallbackTitle: fallbackTitle, columns: columns, rows: rows, options: options)
    }

    /// What moves on the screen from `now` on: the sweep of the line being stamped (frames at the full rate),
    /// the title's drift (not under reduce motion) and the next discrete change (a line or word that lights,
    /// the clock's next second, the progress bar's next cell, a notice's end). Paused under reduce motion
    /// nothing moves and the loop sleeps until a key, mpv or a signal, or the next autosave (DESIGN §17.2).
    public mutating func motion(at now: Double) -> LoopClock.Motion {
        refreshComposer()
        var motion = LoopClock.Motion(
            titleDrifts: !options.reduceMotion, nextChange: session.overlay.noticeEnd(after: now))
        guard !session.isPaused else { return motion }
        switch composer.nextChange(for: frameInput(at: now, titleTime: nil)) {
        case .continuous: motion.sweeps = true
        case .at(let next):
            // Past the audio's end the position is held there: a change beyond it will not come.
            if let duration = session.audioDuration, next > duration + FrameComposer.changeMargin { break }
            if let when = session.audioClock.time(reaching: next, after: now), when > now {
                motion.nextChange = min(motion.nextChange ?? .infinity, when)
            }
        case .never: break
        }
        return motion
    }

    /// The first frame, at once, and the first wait.
    public mutating func start(at now: Double) -> [Effect] {
        clock.restart(at: now)
        return [paint(at: now)] + next(at: now)
    }

    /// Takes `event`, which happened at monotonic time `now`, and returns what to do about it.
    public mutating func handle(_ event: Event, at now: Double) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case .screen(.tick):
            if clock.isDue(at: now) { effects.append(paint(at: now)) }
        case .screen(.key(let key)):
            guard let action = SyncAction.bound(to: key, helpShown: session.showsHelp) else { break }
            if calibrates {
                switch action {
                case .stamp, .enter, .togglePause, .toggleHelp, .turnHelpPage: break
                case .quit: return [.exit(0)]
                default: return next(at: now)
                }
            }
            refreshComposer()
            let pages = session.showsHelp ? composer.helpPageCount(for: SyncAction.help) : 1
            effects += session.apply(action, at: now, helpPages: pages).map(Effect.send)
            if calibrates && session.nextMark == nil { return effects + [paint(at: now), .exit(0)] }
            if session.hasQuit {
                // Saved, or dropped on purpose (the question was answered): an autosave left now would only
                // offer stale stamps next time, such as those a Backspace removed after the last autosave.
                return effects + [.discardAutosave, .exit(0)]
            }
            if action == .save {
                if session.stamps.isEmpty {
                    session.post("nothing stamped yet", at: now)
                } else {
                    savingRevision = session.revision
                    effects.append(.save(session.savedText()))
                }
            }
            effects.append(paint(at: now))
        case .audio(let event, let at):
            let shown = (session.audioDuration, session.noticeText(at: now))
            session.receive(event, at: at)
            if calibrates && event == .reachedEnd { return [.exit(0)] }
            // A length lays the lines not stamped yet out anew, and a failure posts a notice: both show at once.
            if shown != (session.audioDuration, session.noticeText(at: now)) { effects.append(paint(at: now)) }
        case .audioGone(let reason):
            if session.audio != .lost {
                session.lose(reason, at: now)
                effects.append(paint(at: now))
            }
        case .saved(let failure):
            if let failure {
                session.post("not saved: \(failure)", at: now)
            } else {
                if let savingRevision { session.saved(revision: savingRevision) }
                session.post("saved \(outputName)", at: now)
                autosaved = (session.revision, now)
                effects.append(.discardAutosave)
            }
            savingRevision = nil
            effects.append(paint(at: now))
        case .autosaveFailed(let reason):
            session.post("autosave failed: \(reason)", at: now)
            effects.append(paint(at: now))
        case .screen(.signal(.suspend)):
            return clock.suspend(at: now, playing: session).map(Effect.send) + [.suspend]
        case .screen(.signal(.resumed)):
            // Stamps are taken on the audio's time, which waits while the process is stopped.
            guard let commands = clock.resume(at: now, playing: &session) else { break }
            effects += commands.map(Effect.send)
            effects.append(paint(at: now))
        case .screen(.signal(let signal)):
            // The terminal went away or the user asked to end: keep the work in the autosave file.
            if !calibrates && session.revision != autosaved.revision && session.hasUnsavedStamps {
                effects.append(.autosave(session.savedText()))
            }
            return effects + [.exit(signal.exitStatus)]
        case .screen(.resize(let columns, let rows)):
            composer = SyncLoop.composer(
                for: session, fallbackTitle: fallbackTitle, columns: columns, rows: rows, options: options)
            effects.append(paint(at: now))
        }
        if !calibrates, session.hasUnsavedStamps, session.revision != autosaved.revision,
            now >= autosaved.at + SyncLoop.autosaveInterval
        {
            autosaved = (session.revision, now)
            effects.insert(.autosave(session.savedText()), at: 0)
        }
        return effects + next(at: now)
    }

    /// The next wait: until the next frame the screen needs (`motion(at:)`), or the next autosave when that
    /// is sooner; without either, until something happens.
    private mutating func next(at now: Double) -> [Effect] {
        var deadline = clock.schedule(motion(at: now), at: now)
        if !calibrates, session.hasUnsavedStamps, session.revision != autosaved.revision {
            // The autosave is not a frame: its wake leaves `clock.due` alone, so it paints nothing.
            deadline = min(deadline ?? .infinity, max(now, autosaved.at + SyncLoop.autosaveInterval))
        }
        return [.wait(until: deadline)]
    }

    /// A new composer when the stamps or the audio's length changed since the last: the song shown is built
    /// from them.
    private mutating func refreshComposer() {
        guard composedFor.revision != session.revision || composedFor.duration != session.audioDuration else { return }
        composer = SyncLoop.composer(
            for: session, fallbackTitle: fallbackTitle, columns: composer.columns, rows: composer.rows,
            options: options)
        composedFor = (session.revision, session.audioDuration)
    }

    /// What the frame at `now` shows: the audio's position, the overlay with sync's keys, the selected line
    /// marked, and sync's state in the status bar between notices.
    private func frameInput(at now: Double, titleTime: Double?) -> FrameInput {
        var input = FrameInput(
            time: session.position(at: now), titleTime: titleTime, paused: session.isPaused,
            overlay: session.overlay, keys: SyncAction.help, at: now)
        input.notice = input.notice ?? status
        input.reduceMotion = options.reduceMotion
        // The song shown has a line for each of the script's, in order: the selection's index is the line's.
        input.selectedLine = session.selectedLine
        return input
    }

    /// The frame at `now`: `play`'s frame of the stamps so far, with sync's state in the status bar.
    private mutating func paint(at now: Double) -> Effect {
        refreshComposer()
        let input = frameInput(at: now, titleTime: clock.titleTime(at: now))
        clock.painted(at: now)
        return .paint(composer.frame(input))
    }

    /// What the status bar says between notices: progress, speed, whether it is saved, the main keys.
    var status: String {
        let lines = session.script.lines.count
        if calibrates { return "\(session.startedLines)/\(lines) clicks · ␣ tap  q quit" }
        var parts = ["\(session.startedLines)/\(lines) lines"]
        if session.speed != 1 { parts.append(SyncSession.speedText(session.speed)) }
        if session.hasUnsavedStamps { parts.append("unsaved") }
        parts.append("␣ stamp  ? keys")
        return parts.joined(separator: " · ")
    }

    /// A composer for the session's song at this size, the lines not stamped yet past the audio's end.
    private static func composer(
        for session: SyncSession, fallbackTitle: String, columns: Int, rows: Int, options: FrameOptions
    ) -> FrameComposer {
        let lastStamp = session.stamps.last?.time ?? 0
        // Past the audio's end (or, without a length, an hour past the last stamp): never reached.
        let horizon =
            session.audioDuration.map { max(Int(($0 * 1000).rounded(.up)) + SyncSession.minimumGap, lastStamp + 3000) }
            ?? lastStamp + 3_600_000
        return FrameComposer(
            song: session.song(pendingFrom: horizon),
            fallbackTitle: fallbackTitle, columns: columns, rows: rows, options: options)
    }
}
