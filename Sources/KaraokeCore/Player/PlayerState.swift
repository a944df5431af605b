/// The player's state and what keys and audio events do to it, on a clock given from outside (DESIGN §6).
///
/// Positions are seconds of playback. Everything here is pure: the terminal edge passes the monotonic
/// time in, so a fake clock tests it exactly. With audio, the clock follows mpv's reports (see
/// `PlaybackClock`) and keys return the `AudioCommand`s the edge must send; the offset keys move only the
/// lyrics.
public struct PlayerState: Sendable, Equatable {
    /// How long a notice (volume, a missing mpv) stays in the status bar, in seconds.
    public static let noticeDuration = 4.0
    /// How many percent a volume key moves the volume.
    public static let volumeStep = 5
    /// The loudest volume mpv allows without `--volume-max`.
    public static let maximumVolume = 130

    /// The song played; its length grows to the audio's when that is longer (DESIGN §2).
    public private(set) var song: Song
    /// Whether the user paused.
    public private(set) var isPaused = false
    /// Whether the sweep is replaced by whole units lighting (toggled by `r`).
    public private(set) var reduceMotion: Bool
    /// The user's offset in milliseconds (keys + / −, and `--offset`).
    public private(set) var userOffset: Int
    /// Whether the help overlay is shown.
    public private(set) var showsHelp = false
    /// Whether the user asked to quit.
    public private(set) var hasQuit = false
    /// Where the audio stands.
    public private(set) var audio: AudioStatus
    /// The audio's volume in percent.
    public private(set) var volume: Int
    /// Whether the audio is muted.
    public private(set) var isMuted = false
    /// The status bar's notice and when it goes away (nil: it stays).
    public private(set) var notice: (text: String, until: Double?)?
    /// The audio's length in seconds, once mpv has said.
    public private(set) var audioDuration: Double?
    /// The singer's vocals, key and tempo (DESIGN §14.1).
    public private(set) var singing: SingingSettings
    private var clock: PlaybackClock

    /// Starts playing `song` from `start` seconds at monotonic time `now`. With `audio == .starting` the
    /// clock waits at `start` for the audio's first position.
    public init(
        song: Song, start: Double, now: Double, reduceMotion: Bool = false, userOffset: Int = 0,
        audio: AudioStatus = .none, volume: Int = 100, singing: SingingSettings = SingingSettings()
    ) {
        self.song = song
        self.singing = singing
        self.reduceMotion = reduceMotion
        self.userOffset = userOffset
        self.audio = audio
        self.volume = volume
        clock = PlaybackClock(position: 0, at: now)
        clock.move(to: clamped(start), at: now)
        if audio == .starting {
            clock.pause(at: now)
            // mpv starts at this speed (see `MpvPlayer`): the lyrics run at the audio's rate from the start.
            clock.setRate(singing.tempo, at: now)
        }
    }

    public static func == (a: PlayerState, b: PlayerState) -> Bool {
        a.song == b.song && a.isPaused == b.isPaused && a.reduceMotion == b.reduceMotion
            && a.userOffset == b.userOffset && a.showsHelp == b.showsHelp && a.hasQuit == b.hasQuit
            && a.audio == b.audio && a.volume == b.volume && a.isMuted == b.isMuted
            && a.notice?.text == b.notice?.text && a.notice?.until == b.notice?.until
            && a.audioDuration == b.audioDuration && a.singing == b.singing && a.clock == b.clock
    }

    /// The song's length in seconds of playback.
    public var duration: Double { Double(song.duration) / 1000 }

    /// Whether audio is playing or about to: the audio then decides when the song ends.
    public var followsAudio: Bool { audio == .starting || audio == .playing }

    /// Where the song is at monotonic time `now`, clamped to the song.
    public func position(at now: Double) -> Double { clamped(clock.position(at: now)) }

    /// Whether the song has ended at `now`: past its last line's end, and the audio over too.
    ///
    /// A song without lines and without a length (a message, or plain lyrics, with no audio to say how
    /// long the song is) never ends by itself: it waits for the user to quit.
    public func hasEnded(at now: Double) -> Bool {
        guard !song.lines.isEmpty || duration > 0 else { return false }
        return !isPaused && !followsAudio && clock.position(at: now) >= duration
    }

    /// Plays `song` from now on in place of the one playing, keeping the position, the pause and the
    /// audio: lasting at least the audio's length when that is known (DESIGN §2, §8).
    public mutating func changeSong(to song: Song) {
        if let audioDuration {
            self.song = song.lasting(atLeast: Int((audioDuration * 1000).rounded()))
        } else {
            self.song = song
        }
    }

    /// Shows `text` in the status bar for a while (`noticeDuration`, three times over when `long`).
    public mutating func post(notice text: String, at now: Double, long: Bool = false) {
        notice = (text, now + (long ? 3 : 1) * PlayerState.noticeDuration)
    }

    /// The monotonic time, not before `now`, at which the song reaches `position`; nil while its clock
    /// stands still (paused, or waiting for the audio's first position).
    public func time(reaching position: Double, after now: Double) -> Double? {
        clock.time(reaching: position, after: now)
    }

    /// When the notice shown at `now` goes, nil when none is shown or it stays until replaced.
    public func noticeEnd(after now: Double) -> Double? {
        guard let until = notice?.until, until > now else { return nil }
        return until
    }

    /// The notice to show in the status bar at `now`, if any.
    public func noticeText(at now: Double) -> String? {
        guard let notice, notice.until.map({ now < $0 }) ?? true else { return nil }
        return notice.text
    }

    /// Applies `action` at monotonic time `now`; returns what the audio engine must be told.
    @discardableResult
    public mutating func apply(_ action: PlayerAction, at now: Double) -> [AudioCommand] {
        let current = position(at: now)
        switch action {
        case .togglePause:
            isPaused.toggle()
            if isPaused { clock.pause(at: now) } else if audio != .starting { clock.resume(at: now) }
            return audioIsLive ? [.setPaused(isPaused)] : []
        case .seek(let seconds):
            return move(to: current + seconds, at: now)
        case .previousLine:
            return move(to: lineStart(before: current), at: now)
        case .nextLine:
            return move(to: lineStart(after: current), at: now)
        case .restart:
            return move(to: 0, at: now)
        case .adjustOffset(let milliseconds):
            userOffset = max(-3_600_000, min(3_600_000, userOffset + milliseconds))
        case .toggleReduceMotion:
            reduceMotion.toggle()
        case .toggleHelp:
            showsHelp.toggle()
        case .quit:
            hasQuit = true
        case .nextSong, .previousSong:
            // The queue is the play loop's and the edge's; the song's own state does not change.
            break
        case .changeVolume(let step):
            volume = max(0, min(PlayerState.maximumVolume, volume + step))
            isMuted = false
            show(audio == .none || audio == .lost ? "no audio" : "volume \(volume)%", at: now)
            return audioIsLive ? [.setMuted(false), .setVolume(volume)] : []
        case .toggleMute:
            isMuted.toggle()
            show(audio == .none || audio == .lost ? "no audio" : isMuted ? "muted" : "volume \(volume)%", at: now)
            return audioIsLive ? [.setMuted(isMuted)] : []
        case .saveOffset:
            break // the loop asks the edge to write the file (DESIGN §13.2)
        case .toggleVocals, .changeKey, .changeTempo:
            return changeSinging(action, at: now)
        }
        return []
    }

    /// Takes what the audio engine reported at `now`; returns what it must be told in turn.
    @discardableResult
    public mutating func receive(_ event: AudioEvent, at now: Double) -> [AudioCommand] {
        switch event {
        case .position(let seconds):
            guard audio == .starting || audio == .playing else { return [] }
            if audio == .starting {
                // The first position: the lyrics start here, with the music.
                audio = .playing
                clock.move(to: seconds, at: now)
                if !isPaused { clock.resume(at: now) }
            } else {
                clock.synchronize(toAudio: seconds, at: now)
            }
        case .duration(let seconds):
            guard seconds.isFinite, seconds > 0 else { return [] }
            audioDuration = seconds
            song = song.lasting(atLeast: Int((seconds * 1000).rounded()))
        case .reachedEnd:
            if audio == .playing || audio == .starting { audio = .ended }
        case .failed(let reason):
            lose("mpv: \(reason); playing without sound", at: now)
        }
        return []
    }

    /// The audio engine is gone (missing, or died): the lyrics go on silently from where they are.
    public mutating func lose(_ reason: String, at now: Double) {
        if audio == .starting {
            // The audio never played: nothing sets the pace but karaoke's own clock, at one second a second.
            clock.setRate(1, at: now)
            if !isPaused { clock.resume(at: now) }
        }
        audio = .lost
        notice = (reason, now + 3 * PlayerState.noticeDuration)
    }

    /// The user offset is now in the lyric file, whose song `changeSong` gave: it starts again from 0,
    /// so the lyrics stay where they were (DESIGN §13.2).
    public mutating func offsetSaved() {
        userOffset = 0
    }

    /// Holds the clock still for `seconds` without changing the position (the process was suspended).
    public mutating func skipClock(by seconds: Double) {
        clock.skip(by: seconds)
    }

    /// Where a line starts, in playback seconds, under the current offsets.
    ///
    /// A microsecond later than the stamp, so that converting back to file time cannot land a rounding
    /// error before the line and leave the previous one current.
    public func playbackStart(ofLine index: Int) -> Double {
        Double(song.lines[index].start - song.metadata.offset - userOffset) / 1000 + 0.000_001
    }

    /// The index of the line being sung at `position`, or nil before the first.
    public func currentLine(at position: Double) -> Int? {
        LyricClock.currentLine(
            in: song, at: LyricClock.fileTime(playback: position, song: song, userOffset: userOffset))
    }

    /// Whether mpv is there to be told things.
    public var audioIsLive: Bool { audio.isLive }

    private mutating func show(_ text: String, at now: Double) {
        notice = (text, now + PlayerState.noticeDuration)
    }

    /// The vocals, key or tempo changed by `action`; without audio only a notice says there is none.
    ///
    /// The tempo moves the lyric clock's rate with mpv's speed, so the sweep stays with the music
    /// between mpv's reports, and the song ends when the audio ends at the new tempo.
    private mutating func changeSinging(_ action: PlayerAction, at now: Double) -> [AudioCommand] {
        guard audioIsLive else {
            show("no audio", at: now)
            return []
        }
        switch action {
        case .toggleVocals:
            singing.vocals = singing.vocals == .reduced ? .normal : .reduced
            show(singing.vocalsText, at: now)
            return [.setAudioFilters(singing.audioFilters)]
        case .changeKey(let steps):
            singing.changeKey(by: steps)
            show(singing.keyText, at: now)
            return [.setAudioFilters(singing.audioFilters)]
        case .changeTempo(let percent):
            singing.changeTempo(by: percent)
            clock.setRate(singing.tempo, at: now)
            show(singing.tempoText, at: now)
            return [.setSpeed(singing.tempo)]
        default:
            return []
        }
    }

    private func lineStart(before position: Double) -> Double {
        guard let current = currentLine(at: position), current > 0 else { return 0 }
        return playbackStart(ofLine: current - 1)
    }

    private func lineStart(after position: Double) -> Double {
        let next = (currentLine(at: position) ?? -1) + 1
        guard next < song.lines.count else { return duration }
        return playbackStart(ofLine: next)
    }

    private mutating func move(to position: Double, at now: Double) -> [AudioCommand] {
        let target = clamped(position)
        clock.move(to: target, at: now)
        if isPaused || audio == .starting { clock.pause(at: now) }
        return audio.seekCommands(to: target, paused: isPaused, duration: audioDuration)
    }

    private func clamped(_ position: Double) -> Double { min(max(0, position), duration) }
}
