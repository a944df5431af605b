/// `karaoke sync`'s loop as a value, as `PlayLoop` is `play`'s: takes what happens (the time, keys,
/// mpv, signals, resizes, how a save went) and says what to do (paint, send to mpv, save, autosave,
/// wait, exit) (DESIGN §13.1). The edge reads and carries out; a fake clock tests the whole loop.
public struct SyncLoop {
    /// What the sync loop asks the edge to do, in the order given; every answer ends with `.wait`,
    /// `.suspend` or `.exit`.
    public enum Effect: Sendable, Equatable {
        /// Paint this frame.
        case paint(Frame)
        /// Send this command to mpv (nothing to do when there is no mpv).
        case send(AudioCommand)
        /// Write this text to the output file, then report `.saved`.
        case save(String)
        /// Write this text to the autosave file (`OUT.autosave`); report `.autosaveFailed` if it fails.
        case autosave(String)
        /// Remove the autosave file: what it held is saved, or was dropped on purpose.
        case discardAutosave
        /// Wait for a key, a resize, a signal or mpv until this monotonic time (nil: until one comes), then
        /// report `.tick`.
        case wait(until: Double?)
        /// Give the terminal back and stop the process; once continued, report `.signal(.resumed)`.
        case suspend
        /// Restore the terminal and end with this status.
        case exit(Int32)
    }

    /// What happened, as the edge tells the sync loop.
    public enum Event: Sendable, Equatable {
        /// The wait ended with nothing else to report.
        case tick
        /// A key was read.
        case key(Key)
        /// mpv reported `event`, which arrived at monotonic time `at`.
        case audio(AudioEvent, at: Double)
        /// mpv is gone; the text says why.
        case audioGone(String)
        /// A signal was caught, or the process was continued after a suspension.
        case signal(TerminalSignal)
        /// The terminal is now `columns` × `rows` cells.
        case resize(columns: Int, rows: Int)
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
    private let framesPerSecond: Int
    private var pacer: FramePacer
    private let startedAt: Double
    /// What the composer was built for: the stamps' revision and the audio's length.
    private var composedFor: (revision: Int, duration: Double?)
    /// The revision the autosave file holds, and when it was last written.
    private var autosaved: (revision: Int, at: Double)
    /// The revision a `.save` under way writes.
    private var savingRevision: Int?
    /// When the process was stopped by the last `.suspend`.
    private var suspendedAt: Double?
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
        options.keys = .sync
        options.userOffset = 0
        self.options = options
        self.fallbackTitle = fallbackTitle
        self.outputName = outputName
        self.framesPerSecond = framesPerSecond
        pacer = FramePacer(framesPerSecond: framesPerSecond, now: now)
        startedAt = now
        composedFor = (session.revision, session.audioDuration)
        // Stamps given at the start came from the autosave file, which holds them already.
        autosaved = (session.revision, now)
        composer = SyncLoop.composer(
            for: session, fallbackTitle: fallbackTitle, columns: columns, rows: rows, options: options)
    }

    /// The first frame, at once, and the first wait.
    public mutating func start(at now: Double) -> [Effect] {
        pacer = FramePacer(framesPerSecond: framesPerSecond, now: now)
        var effects = [paint(at: now)]
        pacer.advance(after: now)
        effects += next(at: now)
        return effects
    }

    /// Takes `event`, which happened at monotonic time `now`, and returns what to do about it.
    public mutating func handle(_ event: Event, at now: Double) -> [Effect] {
        var effects: [Effect] = []
        switch event {
        case .tick:
            if now >= pacer.deadline {
                effects.append(paint(at: now))
                pacer.advance(after: now)
            }
        case .key(let key):
            guard let action = SyncAction.bound(to: key, helpShown: session.showsHelp) else { break }
            if calibrates {
                switch action {
                case .stamp, .enter, .togglePause, .toggleHelp: break
                case .quit: return [.exit(0)]
                default: return next(at: now)
                }
            }
            effects += session.apply(action, at: now).map(Effect.send)
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
            session.receive(event, at: at)
            if calibrates && event == .reachedEnd { return [.exit(0)] }
        case .audioGone(let reason):
            if session.audio != .lost { session.lose(reason, at: now) }
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
        case .signal(.suspend):
            suspendedAt = now
            if !session.isPaused && session.audioIsLive { effects.append(.send(.setPaused(true))) }
            return effects + [.suspend]
        case .signal(.resumed):
            guard let stoppedAt = suspendedAt else { break }
            suspendedAt = nil
            if !session.isPaused && session.audioIsLive { effects.append(.send(.setPaused(false))) }
            session.skipClock(by: max(0, now - stoppedAt))
            effects.append(paint(at: now))
        case .signal(let signal):
            // The terminal went away or the user asked to end: keep the work in the autosave file.
            if !calibrates && session.revision != autosaved.revision && session.hasUnsavedStamps {
                effects.append(.autosave(session.savedText()))
            }
            return effects + [.exit(signal.exitStatus)]
        case .resize(let columns, let rows):
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

    /// The next wait: until the next frame, or the next autosave when that is sooner.
    private func next(at now: Double) -> [Effect] {
        var deadline = pacer.deadline
        if !calibrates, session.hasUnsavedStamps, session.revision != autosaved.revision {
            deadline = min(deadline, max(now, autosaved.at + SyncLoop.autosaveInterval))
        }
        return [.wait(until: deadline)]
    }

    /// The frame at `now`: `play`'s frame of the stamps so far, with sync's state in the status bar.
    private mutating func paint(at now: Double) -> Effect {
        if composedFor.revision != session.revision || composedFor.duration != session.audioDuration {
            composer = SyncLoop.composer(
                for: session, fallbackTitle: fallbackTitle, columns: composer.columns, rows: composer.rows,
                options: options)
            composedFor = (session.revision, session.audioDuration)
        }
        let steps = LoopClock.titleStepsPerSecond
        let titleTime = ((now - startedAt) * steps).rounded(.down) / steps
        return .paint(
            composer.frame(
                at: session.position(at: now), titleTime: titleTime, paused: session.isPaused,
                showsHelp: session.showsHelp, notice: session.noticeText(at: now) ?? status))
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
