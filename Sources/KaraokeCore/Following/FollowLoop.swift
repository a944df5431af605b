/// `karaoke follow`'s loop as a value: takes what happens (the time, keys, the player's reports, lyrics
/// found, signals, resizes) and says what to do (paint, ask the player, look lyrics up, wait, exit)
/// (DESIGN §12).
///
/// The player is the truth for the track, the pause and the position; karaoke's clock only fills in
/// between its reports, with the same smoothing as mpv's clock under `play` (`PlaybackClock`). The edge
/// reads keys and the connection and carries the effects out, so a fake clock tests the whole loop.
public struct FollowLoop: TerminalProgram {
    /// What the follow loop asks the edge to do, in order; every answer ends with `.wait`, `.suspend` or
    /// `.exit`.
    ///
    /// The screen's effects (`.paint`, `.wait`, `.suspend`, `.exit`) go in `.screen` (`ProgramEffect`).
    public enum Effect: Sendable, Equatable, ProgramEffect {
        /// Paint, wait, suspend or exit: the driver carries these out.
        case screen(ScreenEffect)
        /// Ask the player to do this.
        case command(PlayerCommand)
        /// Find the lyrics of this track (the same search as `play`'s), and answer with `.lyrics`.
        case lookUp(FollowedTrack)
        /// Write this line, without its line feed, to the clock log.
        case log(String)

        /// The screen's part of the effect; nil for the player's commands, the lookups and the clock log.
        public var screenEffect: ScreenEffect? {
            if case .screen(let effect) = self { effect } else { nil }
        }
    }

    /// What happened, as the edge tells the loop; the screen's events (`.tick`, `.key`, `.signal`,
    /// `.resize`) come in `.screen` (`ProgramEvent`).
    public enum Event: Sendable, Equatable, ProgramEvent {
        /// The terminal or the process reported something: a tick, a key, a signal, a resize.
        case screen(ScreenEvent)
        /// The connection said something.
        case player(FollowMessage)
        /// The lyrics of the track `track` (as `.lookUp` gave it): what to show, the title when the lyrics
        /// have none, and a notice (a lookup that failed).
        case lyrics(LyricsContent, title: String, notice: String?, for: FollowedTrack)
    }

    /// How long a notice stays in the status bar, in seconds.
    public static let noticeDuration = 4.0
    /// What the screen says before the first report.
    public static let lookingForPlayer = "looking for a player…"

    /// The player's last report, nil before the first and while it is gone.
    public private(set) var report: PlayerReport?
    /// What the lyric area shows.
    public private(set) var content: LyricsContent
    /// The notice, the help, reduce motion (`r`) and the user offset (+ / −, `--offset`).
    public private(set) var overlay: Overlay
    /// Composes the frames.
    public private(set) var composer: FrameComposer
    /// The frames a second asked for (`--fps`).
    public var framesPerSecond: Int { frames.framesPerSecond }
    private var clock: PlaybackClock
    /// When to paint: the frame grid while the sweep moves, the next visible change otherwise (DESIGN §17.2).
    private var frames: LoopClock
    private var title: String
    /// The track whose lyrics are shown or looked up.
    private var track: FollowedTrack?
    private let logsClock: Bool

    /// A loop on a `columns` × `rows` screen at monotonic `now`, waiting for the player's first report;
    /// with `logsClock`, each frame's position (`frame NOW POSITION`) and each position the player reported
    /// (`player AT POSITION`) go to the clock log.
    public init(
        options: FrameOptions, columns: Int, rows: Int, framesPerSecond: Int, logsClock: Bool = false, now: Double
    ) {
        self.logsClock = logsClock
        overlay = Overlay(reduceMotion: options.reduceMotion, userOffset: options.userOffset)
        content = .message(FollowLoop.lookingForPlayer)
        title = "karaoke follow"
        composer = FrameComposer(
            content: content, fallbackTitle: title, columns: columns, rows: rows, options: options)
        clock = PlaybackClock(position: 0, at: now)
        clock.pause(at: now)
        frames = LoopClock(framesPerSecond: framesPerSecond, now: now)
    }

    /// Where the track is at monotonic time `now`, by the player's last report and the clock between.
    public func position(at now: Double) -> Double {
        let position = max(0, clock.position(at: now))
        guard let length = track?.length, length > 0 else { return position }
        return min(position, length)
    }

    /// Whether the sweep is replaced by whole units lighting (`r`).
    public var reduceMotion: Bool { overlay.reduceMotion }
    /// The user's offset in milliseconds (+ / −, `--offset`).
    public var userOffset: Int { overlay.userOffset }
    /// Whether the help overlay is shown.
    public var showsHelp: Bool { overlay.showsHelp }

    /// Whether the player plays (its last report said so).
    public var isPlaying: Bool { report?.playback == .playing }

    /// What moves on the screen from `now` on: the sweep while the player plays, the title's drift (not
    /// under reduce motion), the next discrete change and the notice's end (DESIGN §17.2).
    public mutating func motion(at now: Double) -> LoopClock.Motion {
        var motion = LoopClock.Motion(titleDrifts: !reduceMotion, nextChange: overlay.noticeEnd(after: now))
        guard isPlaying else { return motion }
        switch composer.nextChange(for: frameInput(at: now, titleTime: nil)) {
        case .continuous: motion.sweeps = true
        case .at(let next):
            if let length = track?.length, next > length { break }
            if let when = clock.time(reaching: next, after: now), when > now {
                motion.nextChange = min(motion.nextChange ?? .infinity, when)
            }
        case .never: break
        }
        return motion
    }

    /// The first frame, at once, and the first wait.
    public mutating func start(at now: Double) -> [Effect] {
        frames.restart(at: now)
        return paint(at: now) + next(at: now)
    }

    /// Takes `event`, which happened at monotonic time `now`, and returns what to do about it.
    public mutating func handle(_ event: Event, at now: Double) -> [Effect] {
        var effects: [Effect] = []
        var repaint = false
        switch event {
        case .screen(.tick):
            repaint = frames.isDue(at: now)
        case .screen(.key(let key)):
            guard let action = FollowAction.bound(to: key, helpShown: showsHelp) else { break }
            if action == .quit { return [.exit(0)] }
            effects += apply(action, at: now)
            repaint = true
        case .player(let message):
            effects += receive(message, at: now)
            repaint = true
        case .lyrics(let found, let foundTitle, let foundNotice, let wanted):
            guard let track, FollowLoop.sameLyrics(track, wanted) else { break }
            show(found, title: foundTitle)
            if let foundNotice { overlay.post(foundNotice, at: now, for: FollowLoop.noticeDuration) }
            repaint = true
        case .screen(.signal(.suspend)):
            frames.suspend(at: now)
            return [.suspend]
        case .screen(.signal(.resumed)):
            guard frames.resume(at: now) != nil else { break }
            repaint = true
        case .screen(.signal(let signal)):
            return [.exit(signal.exitStatus)]
        case .screen(.resize(let columns, let rows)):
            makeComposer(columns: columns, rows: rows)
            repaint = true
        }
        if repaint { effects += paint(at: now) }
        return effects + next(at: now)
    }

    /// Whether two descriptions of a track ask for the same lyrics: the same track, and the same names
    /// and file (a player may first give the file name as the title, then the tag's).
    public static func sameLyrics(_ a: FollowedTrack, _ b: FollowedTrack) -> Bool {
        a.id == b.id && a.title == b.title && a.artist == b.artist && a.file == b.file && a.location == b.location
    }

    /// What the status bar says in the key hints' place: the player, its state and the track.
    public var playerText: String {
        guard let report else { return FollowLoop.lookingForPlayer }
        var text = report.player
        if report.playback == .stopped { text += " (stopped)" }
        if let track = report.track { text += ": " + FollowLoop.name(of: track) }
        return text
    }

    /// What the lyric area says when nothing was found for `track`: `no lyrics for ARTIST — TITLE`, and for an
    /// MPD file in a music folder karaoke does not know (so the lyrics beside it were never looked for), why,
    /// and how to give the folder.
    public static func noLyrics(for track: FollowedTrack) -> String {
        let none = "no lyrics for \(name(of: track))"
        guard track.isInUnknownMusicFolder else { return none }
        return none + ": MPD names its files relative to its music folder, which karaoke does not know; "
            + "give the folder with --music-dir DIR (or music-dir = DIR in the config file)"
    }

    /// `ARTIST — TITLE`, or what there is of it, else the file's or stream's name.
    public static func name(of track: FollowedTrack) -> String {
        switch (track.artist, track.title) {
        case (let artist?, let title?): return "\(artist) — \(title)"
        case (nil, let title?): return title
        case (let artist?, nil): return artist
        case (nil, nil):
            let location = track.file ?? track.location ?? track.id
            return String(location.split(separator: "/").last ?? Substring(location))
        }
    }

    private mutating func apply(_ action: FollowAction, at now: Double) -> [Effect] {
        switch action {
        case .player(let command):
            guard report != nil else {
                overlay.post("no player", at: now, for: FollowLoop.noticeDuration)
                return []
            }
            return [.command(command)]
        case .previousLine, .nextLine:
            guard report != nil, case .timed(let song) = content else { return [] }
            let here = position(at: now)
            let fileTime = LyricClock.fileTime(playback: here, song: song, userOffset: userOffset)
            let current = LyricClock.currentLine(in: song, at: fileTime)
            let target: Int
            if action == .previousLine {
                target = max(0, (current ?? 0) - 1)
            } else {
                target = (current ?? -1) + 1
                guard target < song.lines.count else { return [] }
            }
            let start = Double(song.lines[target].start - song.metadata.offset - userOffset) / 1000 + 0.000_001
            return [.command(.seek(to: max(0, start)))]
        case .overlay(let change):
            // The status bar shows a user offset that is not 0 by itself, as under `play`.
            let pages = showsHelp ? composer.helpPageCount(for: FollowAction.help) : 1
            overlay.apply(change, at: now, noticeFor: FollowLoop.noticeDuration, helpPages: pages)
        case .stepSize:
            makeComposer(columns: composer.columns, rows: composer.rows, size: composer.options.size.next)
            overlay.post(composer.sizeNotice, at: now, for: FollowLoop.noticeDuration)
        case .quit:
            break
        }
        return []
    }

    private mutating func receive(_ message: FollowMessage, at now: Double) -> [Effect] {
        switch message {
        case .notice(let text):
            overlay.post(text, at: now, for: FollowLoop.noticeDuration)
            return []
        case .gone(let reason):
            report = nil
            track = nil
            clock.pause(at: now)
            show(.message(reason), title: "karaoke follow")
            return []
        case .report(let new, let at):
            let previous = report
            report = new
            var effects: [Effect] = []
            if logsClock, let position = new.position { effects.append(.log("player \(at) \(position)")) }
            let changed = FollowLoop.changedLyrics(from: track, to: new.track)
            track = new.track
            if changed {
                if let newTrack = new.track {
                    show(
                        .message("looking for the lyrics of \(FollowLoop.name(of: newTrack))…"),
                        title: FollowLoop.name(of: newTrack))
                    effects.append(.lookUp(newTrack))
                } else {
                    show(.message("\(new.player) plays nothing"), title: "karaoke follow")
                }
            }
            follow(new, previous: previous, trackChanged: changed || previous?.track?.id != new.track?.id, at: at)
            return effects
        }
    }

    /// Whether a report's track needs other lyrics than the one shown.
    private static func changedLyrics(from old: FollowedTrack?, to new: FollowedTrack?) -> Bool {
        switch (old, new) {
        case (nil, nil): false
        case (let old?, let new?): !sameLyrics(old, new)
        default: true
        }
    }

    /// Moves the clock to the report: the position (a jump when the track changed or it differs by more
    /// than `PlaybackClock.jumpThreshold`, smoothed otherwise), the rate, and the pause.
    private mutating func follow(_ new: PlayerReport, previous: PlayerReport?, trackChanged: Bool, at: Double) {
        let playing = new.playback == .playing
        clock.setRate(new.rate, at: at)
        if let position = new.position {
            // While it plays on, a report corrects the clock smoothly; a new track, a pause or a start
            // takes the player's position exactly.
            if playing && previous?.playback == .playing && !trackChanged {
                clock.synchronize(toAudio: position, at: at)
            } else {
                clock.move(to: position, at: at)
            }
        }
        if playing { clock.resume(at: at) } else { clock.pause(at: at) }
    }

    /// Shows `new` in the lyric area under `newTitle` (the lyrics' own title wins).
    private mutating func show(_ new: LyricsContent, title newTitle: String) {
        content = new
        title = newTitle
        makeComposer(columns: composer.columns, rows: composer.rows)
    }

    /// A new composer for the content at `columns` × `rows`, lasting the track's length.
    private mutating func makeComposer(columns: Int, rows: Int, size: LyricSize? = nil) {
        var options = composer.options
        options.reduceMotion = reduceMotion
        if let size { options.size = size }
        composer = FrameComposer(
            content: content, fallbackTitle: title, columns: columns, rows: rows, options: options,
            length: track?.length.map { Int(($0 * 1000).rounded()) })
    }

    /// After an event: how long to wait, until the next frame the screen needs (`motion(at:)`), or until
    /// something happens.
    private mutating func next(at now: Double) -> [Effect] {
        [.wait(until: frames.schedule(motion(at: now), at: now))]
    }

    /// What the frame at `now` shows: the track's position, the overlay with `follow`'s keys, and in the key
    /// hints' place the notice while it lasts, else the player.
    private func frameInput(at now: Double, titleTime: Double?) -> FrameInput {
        var input = FrameInput(
            time: position(at: now), titleTime: titleTime, paused: !isPlaying, overlay: overlay,
            keys: FollowAction.help, at: now)
        input.notice = input.notice ?? playerText
        return input
    }

    /// The frame at `now`, preceded by its clock-log line.
    private mutating func paint(at now: Double) -> [Effect] {
        let input = frameInput(at: now, titleTime: frames.titleTime(at: now))
        frames.painted(at: now)
        let frame = composer.frame(input)
        return logsClock ? [.log("frame \(now) \(input.time)"), .paint(frame)] : [.paint(frame)]
    }
}
