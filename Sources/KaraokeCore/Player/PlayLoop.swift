/// The player's loop as a value: takes what happens (the time, keys, mpv, signals, resizes) and says
/// what to do (paint, send to mpv, wait, suspend, log, exit) (DESIGN §8).
///
/// It decides everything the loop decides: when the next frame is due, when the song is over, when the
/// composer must be rebuilt, how a suspension and the signals end. The edge only reads the clock, keys,
/// signals and mpv, and carries the effects out, so a fake clock tests the whole loop.
public struct PlayLoop: TerminalProgram {
    /// The player's state: position, pause, offset, reduce motion, help, notice, audio.
    public private(set) var state: PlayerState
    /// Composes the frames at the current screen size.
    public private(set) var composer: FrameComposer
    /// The frames a second asked for (`--fps`).
    public var framesPerSecond: Int { clock.framesPerSecond }
    /// When to paint: the frame grid while the sweep moves, the next visible change otherwise (DESIGN §17.2).
    private var clock: LoopClock
    /// The title shown when the lyrics have none (the audio's or the lyric file's name).
    private var fallbackTitle: String
    /// What fills the lyric area; `state.song` is its clock.
    public private(set) var content: LyricsContent
    private let logsClock: Bool
    /// Whether the song is one of a queue: its end, n and N then go to another song instead of ending
    /// the player (DESIGN §14.2).
    public var isQueued = false
    /// Keys a command adds to `play`'s in the help (`party`'s, DESIGN §20.6), listed after them.
    public var extraHelp: [HelpEntry] = []
    /// The singers scored while the song plays (`--score`, DESIGN §15.5); nil when nothing is scored.
    public private(set) var scoring: ScoringSession?
    /// Whether the loop ended because the song was over, rather than on q, n, N or a signal: a scored song
    /// then shows its score card.
    public private(set) var reachedEnd = false
    /// When the loop first saw the scored song over, while it waits for the last readings.
    private var endSeenAt: Double?
    /// Whether `s` has written an offset into this song's file: `s` with nothing more to add then says the
    /// offset is saved already, rather than that there is none.
    private var hasSavedOffset = false
    /// The CD+G pictures of a `.graphics` song (DESIGN §19.7); nil for lyrics.
    public private(set) var graphics: CDGTrack?

    /// A loop for `song` on a `columns` × `rows` screen, starting at `start` seconds at monotonic `now`.
    ///
    /// - Parameters:
    ///   - audio: `.starting` when mpv was started (the lyrics then wait for its first position), else
    ///     `.none`.
    ///   - audioProblem: why the audio could not start; shown as a notice while the song plays silently.
    ///   - logsClock: whether to write the clock log's `frame` and `audio` lines.
    ///   - singing: the vocals, key and tempo mpv was started with (DESIGN §14.1).
    public init(
        song: Song, fallbackTitle: String, options: FrameOptions, columns: Int, rows: Int, start: Double,
        framesPerSecond: Int, audio: AudioStatus = .none, volume: Int = 100, audioProblem: String? = nil,
        logsClock: Bool = false, singing: SingingSettings = SingingSettings(), now: Double
    ) {
        self.init(
            content: .timed(song), fallbackTitle: fallbackTitle, options: options, columns: columns, rows: rows,
            start: start, framesPerSecond: framesPerSecond, audio: audio, volume: volume,
            audioProblem: audioProblem, logsClock: logsClock, singing: singing, now: now)
    }

    /// A loop showing `content` on a `columns` × `rows` screen, starting at `start` seconds at monotonic
    /// `now`; the other parameters are as for `init(song:…)`. Plain lyrics and messages play on a song
    /// without lines that lasts as long as the audio (DESIGN §8).
    public init(
        content: LyricsContent, fallbackTitle: String, options: FrameOptions, columns: Int, rows: Int,
        start: Double, framesPerSecond: Int, audio: AudioStatus = .none, volume: Int = 100,
        audioProblem: String? = nil, logsClock: Bool = false, singing: SingingSettings = SingingSettings(),
        now: Double
    ) {
        self.content = content
        state = PlayerState(
            song: content.song, start: start, now: now, reduceMotion: options.reduceMotion,
            userOffset: options.userOffset, audio: audio, volume: volume, singing: singing)
        if let audioProblem { state.lose(audioProblem, at: now) }
        composer = FrameComposer(
            content: content, fallbackTitle: fallbackTitle, columns: columns, rows: rows, options: options)
        if composer.bigFontMissing { state.post(notice: composer.sizeNotice, at: now, long: true) }
        self.fallbackTitle = fallbackTitle
        self.logsClock = logsClock
        clock = LoopClock(framesPerSecond: framesPerSecond, now: now)
    }

    /// What moves on the screen from `now` on: the sweep (frames at the full rate), the title's drift
    /// (not under reduce motion) and the next discrete change (a line or row that lights, the clock's
    /// next second, the progress bar's next cell, a notice's end, the song's end). Paused, the song's
    /// clock stands still; paused under reduce motion nothing moves and the loop sleeps until a key or
    /// a signal (DESIGN §17.2).
    public mutating func motion(at now: Double) -> LoopClock.Motion {
        var motion = LoopClock.Motion(
            titleDrifts: !state.reduceMotion, nextChange: state.overlay.noticeEnd(after: now))
        guard !state.isPaused else { return motion }
        // The note lanes scroll and the singers' trails grow with every frame.
        if scoring != nil { motion.sweeps = true }
        let position = state.position(at: now)
        var next: Double? = position < state.duration ? state.duration : nil
        if let change = pictureChange(after: position) {
            // Packets come up to 300 a second: one due within a frame waits for the frame grid.
            if change - position < 1 / Double(max(1, clock.framesPerSecond)) {
                motion.sweeps = true
            } else {
                next = min(next ?? .infinity, change)
            }
        }
        switch composer.nextChange(for: state.frameInput(at: now, titleTime: nil)) {
        case .continuous: motion.sweeps = true
        case .at(let position): next = min(next ?? .infinity, position)
        case .never: break
        }
        // Past the song's end the position the frame shows is held there while the audio plays on: a change
        // the clock has already passed will not come.
        if let next, let when = state.time(reaching: next, after: now), when > now {
            motion.nextChange = min(motion.nextChange ?? .infinity, when)
        }
        return motion
    }

    /// The notice of `n` (`next`) or `N` when one song plays, not a queue.
    public static func notInQueueNotice(next: Bool) -> String {
        "no \(next ? "next" : "previous") song: not in a queue"
    }

    /// The first frame, at once, and the first wait.
    public mutating func start(at now: Double) -> [Effect] {
        clock.restart(at: now)
        scoring?.judge(at: now, state: state)
        return paint(at: now) + next(at: now)
    }

    /// Takes `event`, which happened at monotonic time `now`, and returns what to do about it.
    public mutating func handle(_ event: Event, at now: Double) -> [Effect] {
        var effects: [Effect] = []
        // The singers are judged up to the moment of every event, so any frame it paints shows the lines sung
        // so far; readings just heard are judged with the next event, as they were at the next frame.
        if case .heard = event {} else { scoring?.judge(at: now, state: state) }
        switch event {
        case .screen(.tick):
            if clock.isDue(at: now) { effects += paint(at: now) }
        case .screen(.key(let key)):
            guard let action = PlayerAction.bound(to: key, helpShown: state.showsHelp) else { break }
            if action == .nextSong || action == .previousSong {
                if isQueued { return [action == .nextSong ? .nextSong : .previousSong] }
                // One song plays: the key is answered, so it does not look ignored.
                state.post(notice: PlayLoop.notInQueueNotice(next: action == .nextSong), at: now)
                effects += paint(at: now)
                break
            }
            if action == .stepSize {
                var options = composer.options
                options.size = options.size.next
                rebuildComposer(columns: composer.columns, rows: composer.rows, options: options)
                state.post(notice: composer.sizeNotice, at: now)
                effects += paint(at: now)
                break
            }
            let pages = state.showsHelp ? composer.helpPageCount(for: PlayerAction.help + extraHelp) : 1
            effects += state.apply(action, at: now, helpPages: pages).map(Effect.send)
            if state.hasQuit { return effects + [.exit(0)] }
            if action == .saveOffset { effects.append(.saveOffset(state.userOffset)) }
            // The edge turns the monitor and answers with its notice (`.notice`), which paints then.
            if action == .toggleMonitor { return effects + [.toggleMonitor] + next(at: now) }
            // Input shows at once, without waiting for the frame's deadline.
            effects += paint(at: now)
        case .audio(let event, let at):
            if logsClock, case .position(let seconds) = event { effects.append(.log("audio \(at) \(seconds)")) }
            let knownDuration = state.audioDuration
            effects += state.receive(event, at: at).map(Effect.send)
            if state.audioDuration != knownDuration {
                // The audio is longer than the lyrics: the status bar's total and the last line's end follow it.
                rebuildComposer(columns: composer.columns, rows: composer.rows)
            }
        case .audioGone(let reason):
            if state.audio != .lost {
                state.lose(reason, at: now)
                // The notice shows at once, even when nothing else would paint for a while.
                effects += paint(at: now)
            }
        case .screen(.signal(.suspend)):
            return clock.suspend(at: now, playing: state).map(Effect.send) + [.suspend]
        case .screen(.signal(.resumed)):
            // The song waits while the process is stopped, as a paused player would.
            guard let commands = clock.resume(at: now, playing: &state) else { break }
            effects += commands.map(Effect.send) + paint(at: now)
        case .screen(.signal(let signal)):
            return [.exit(signal.exitStatus)]
        case .screen(.resize(let columns, let rows)):
            let wasMissing = composer.bigFontMissing
            rebuildComposer(columns: columns, rows: rows)
            if composer.bigFontMissing && !wasMissing { state.post(notice: composer.sizeNotice, at: now, long: true) }
            effects += paint(at: now)
        case .offsetSaved(let outcome):
            if case .saved(let song, _) = outcome {
                // The file now holds the offset: its song, shown without a user offset, is where the lyrics were.
                content = .timed(song)
                state.changeSong(to: song)
                state.offsetSaved()
                rebuildComposer(columns: composer.columns, rows: composer.rows)
            }
            state.post(notice: outcome.notice(savedBefore: hasSavedOffset), at: now, long: outcome.isLong)
            if case .saved = outcome { hasSavedOffset = true }
            effects += paint(at: now)
        case .heard(let readings, let singer):
            scoring?.hear(readings, singer: singer, state: state)
        case .lyricsArrived(let content, let fallbackTitle, let notice):
            return show(content, fallbackTitle: fallbackTitle, notice: notice, at: now)
        case .microphoneLost(let singer, let reason):
            guard let scoring else { break }
            state.post(notice: scoring.lostNotice(singer: singer, reason: reason), at: now, long: true)
            effects += paint(at: now)
        case .notice(let text):
            state.post(notice: text, at: now)
            effects += paint(at: now)
        }
        effects += next(at: now)
        return effects
    }

    /// After an event: exit at the song's end, else how long to wait: until the next frame the screen
    /// needs (`motion(at:)`), or until something happens.
    private mutating func next(at now: Double) -> [Effect] {
        // A wake for the song's end can land a rounding error short of it (the end as a monotonic time,
        // turned back into a position), so the end is looked for a microsecond ahead.
        if state.hasEnded(at: now + 0.000_001) {
            // A scored song waits for what the singers sang last: it is heard the microphone delay later.
            if let scoring, !scoring.isFinished {
                let graceEnd = (endSeenAt ?? now) + scoring.grace
                endSeenAt = endSeenAt ?? now
                if now < graceEnd { return [.wait(until: graceEnd)] }
            }
            reachedEnd = true
            scoring?.finish()
            return [isQueued ? .nextSong : .exit(0)]
        }
        return [.wait(until: clock.schedule(motion(at: now), at: now))]
    }

    /// The frame at `now`, preceded by its clock-log line: the state and the singers as the events so far
    /// left them.
    private mutating func paint(at now: Double) -> [Effect] {
        var input = state.frameInput(at: now, titleTime: clock.titleTime(at: now), singers: scoring?.singers ?? [])
        if !extraHelp.isEmpty, let help = input.help { input.help = help + extraHelp }
        if graphics != nil, case .graphics = content {
            let size = composer.pictureSize
            input.picture = graphics!.cells(
                at: pictureTime(playback: input.time, userOffset: input.userOffset), columns: size.columns,
                rows: size.rows)
        }
        clock.painted(at: now)
        var effects: [Effect] = []
        if logsClock { effects.append(.log("frame \(now) \(input.time)")) }
        effects.append(.paint(composer.frame(input)))
        return effects
    }

    /// Scores the singers of `session` from the first frame on: the note lanes appear above the lyrics and the
    /// score in the status bar (DESIGN §15.5). Called before `start(at:)`.
    public mutating func startScoring(_ session: ScoringSession) {
        scoring = session
        rebuildComposer(columns: composer.columns, rows: composer.rows)
    }

    /// Shows the CD+G pictures of `track` in the lyric area while the content is `.graphics` (DESIGN §19.7).
    /// Called before `start(at:)`.
    public mutating func showGraphics(_ track: CDGTrack) {
        graphics = track
    }

    /// The moment of the CD+G file shown at playback `time`: the user's offset moves the pictures as it
    /// moves lyrics (positive shows them earlier).
    private func pictureTime(playback time: Double, userOffset: Int) -> Double {
        time + Double(userOffset) / 1000
    }

    /// The playback position at which the picture may next change after `position`; nil without one.
    private func pictureChange(after position: Double) -> Double? {
        guard let graphics, case .graphics = content else { return nil }
        let offset = Double(state.overlay.userOffset) / 1000
        return graphics.nextChange(after: position + offset).map { $0 - offset }
    }

    /// Shows `text` in the status bar for a while (three notice spans): what the edge could not set up.
    public mutating func post(notice text: String, at now: Double) {
        state.post(notice: text, at: now, long: true)
    }

    /// Shows `content` from `now` on in place of what is shown, without touching the clock or the audio:
    /// the position, the pause and the offset stay (DESIGN §8). `notice`, when given, goes to the status
    /// bar for a while (why a lookup failed, say). Returns the new frame and the next wait.
    public mutating func show(
        _ content: LyricsContent, fallbackTitle: String, notice: String? = nil, at now: Double
    ) -> [Effect] {
        self.content = content
        self.fallbackTitle = fallbackTitle
        state.changeSong(to: content.song)
        if let notice { state.post(notice: notice, at: now, long: true) }
        rebuildComposer(columns: composer.columns, rows: composer.rows)
        return paint(at: now) + next(at: now)
    }

    /// A new composer for the content at `columns` × `rows`: its laid-out lines and status total
    /// belong to the old size and length.
    private mutating func rebuildComposer(columns: Int, rows: Int, options: FrameOptions? = nil) {
        // The state's song is the content's, stretched by every audio length reported so far.
        let shown: LyricsContent, length: Int?
        if case .timed = content {
            (shown, length) = (.timed(state.song), nil)
        } else {
            (shown, length) = (content, state.song.duration)
        }
        composer = FrameComposer(
            content: shown, fallbackTitle: fallbackTitle, columns: columns, rows: rows,
            options: options ?? composer.options,
            length: length, lanes: lanes)
    }

    /// The note lanes to draw: the scored singers' parts, while the lyrics shown are the scored song's.
    private var lanes: NoteLanes? {
        guard let scoring, case .timed(let song) = content, song.notes != nil else { return nil }
        return NoteLanes(track: scoring.track, parts: scoring.keepers.map(\.progress.part))
    }
}
