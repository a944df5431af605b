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
    /// The notice, the help, reduce motion and the user offset (DESIGN §8).
    public private(set) var overlay: Overlay
    /// Whether the user asked to quit.
    public private(set) var hasQuit = false
    /// mpv's status, the pause and the clock that follows mpv's positions.
    public private(set) var audioClock: AudioClock
    /// The audio's volume in percent.
    public private(set) var volume: Int
    /// Whether the audio is muted.
    public private(set) var isMuted = false
    /// The singer's vocals, key and tempo (DESIGN §14.1).
    public private(set) var singing: SingingSettings
    /// The notice the singer's keys posted last: the next of those keys takes it back, so it never
    /// contradicts the status bar.
    private var singingNotice: String?

    /// Starts playing `song` from `start` seconds at monotonic time `now`. With `audio == .starting` the
    /// clock waits at `start` for the audio's first position.
    public init(
        song: Song, start: Double, now: Double, reduceMotion: Bool = false, userOffset: Int = 0,
        audio: AudioStatus = .none, volume: Int = 100, singing: SingingSettings = SingingSettings()
    ) {
        self.song = song
        self.singing = singing
        overlay = Overlay(reduceMotion: reduceMotion, userOffset: userOffset)
        self.volume = volume
        audioClock = AudioClock(audio: audio, position: min(max(0, start), Double(song.duration) / 1000), now: now)
        // mpv starts at this speed (see `MpvPlayer`): the lyrics run at the audio's rate from the start.
        if audio == .starting { audioClock.setRate(singing.tempo, at: now) }
    }

    /// Whether the user paused.
    public var isPaused: Bool { audioClock.isPaused }
    /// Where the audio stands.
    public var audio: AudioStatus { audioClock.audio }
    /// The audio's length in seconds, once mpv has said.
    public var audioDuration: Double? { audioClock.audioDuration }
    /// Whether the sweep is replaced by whole units lighting (toggled by `r`).
    public var reduceMotion: Bool { overlay.reduceMotion }
    /// The user's offset in milliseconds (keys + / −, and `--offset`).
    public var userOffset: Int { overlay.userOffset }
    /// Whether the help overlay is shown.
    public var showsHelp: Bool { overlay.showsHelp }

    /// The song's length in seconds of playback.
    public var duration: Double { Double(song.duration) / 1000 }

    /// Whether audio is playing or about to: the audio then decides when the song ends.
    public var followsAudio: Bool { audioClock.followsAudio }

    /// Where the song is at monotonic time `now`, clamped to the song.
    public func position(at now: Double) -> Double { clamped(audioClock.position(at: now)) }

    /// Whether the song has ended at `now`: past its last line's end, and the audio over too.
    ///
    /// A song without lines and without a length (a message, or plain lyrics, with no audio to say how
    /// long the song is) never ends by itself: it waits for the user to quit.
    public func hasEnded(at now: Double) -> Bool {
        guard !song.lines.isEmpty || duration > 0 else { return false }
        return !isPaused && !followsAudio && audioClock.position(at: now) >= duration
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
        overlay.post(text, at: now, for: (long ? 3 : 1) * PlayerState.noticeDuration)
    }

    /// The monotonic time, not before `now`, at which the song reaches `position`; nil while its clock
    /// stands still (paused, or waiting for the audio's first position).
    public func time(reaching position: Double, after now: Double) -> Double? {
        audioClock.time(reaching: position, after: now)
    }

    /// The notice to show in the status bar at `now`, if any.
    public func noticeText(at now: Double) -> String? { overlay.noticeText(at: now) }

    /// Applies `action` at monotonic time `now`; returns what the audio engine must be told. `helpPages` is
    /// how many pages the help box has on the screen now, for a key that turns them.
    @discardableResult
    public mutating func apply(_ action: PlayerAction, at now: Double, helpPages: Int = 1) -> [AudioCommand] {
        let current = position(at: now)
        switch action {
        case .togglePause:
            return audioClock.togglePause(at: now)
        case .seek(let seconds):
            return move(to: current + seconds, at: now)
        case .previousLine:
            return move(to: lineStart(before: current), at: now)
        case .nextLine:
            return move(to: lineStart(after: current), at: now)
        case .restart:
            return move(to: 0, at: now)
        case .overlay(let change):
            overlay.apply(change, at: now, noticeFor: PlayerState.noticeDuration, helpPages: helpPages)
        case .quit:
            hasQuit = true
        case .nextSong, .previousSong, .toggleMonitor:
            // The queue and the monitor are the play loop's and the edge's; the song's own state does not change.
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
        case .stepSize:
            break // the loop makes a composer of the new size (DESIGN §23)
        case .stepVocals, .changeKey, .changeTempo:
            return changeSinging(action, at: now)
        }
        return []
    }

    /// Takes what the audio engine reported at `now`; returns what it must be told in turn.
    @discardableResult
    public mutating func receive(_ event: AudioEvent, at now: Double) -> [AudioCommand] {
        if let failure = audioClock.receive(event, at: now) {
            lose("mpv: \(failure); playing without sound", at: now)
        } else if case .duration = event, let seconds = audioDuration {
            song = song.lasting(atLeast: Int((seconds * 1000).rounded()))
        }
        return []
    }

    /// The audio engine is gone (missing, or died): the lyrics go on silently from where they are.
    public mutating func lose(_ reason: String, at now: Double) {
        // The audio never played: nothing sets the pace but karaoke's own clock, at one second a second.
        if audio == .starting { audioClock.setRate(1, at: now) }
        audioClock.lose(at: now)
        overlay.post(reason, at: now, for: 3 * PlayerState.noticeDuration)
    }

    /// The user offset is now in the lyric file, whose song `changeSong` gave: it starts again from 0,
    /// so the lyrics stay where they were (DESIGN §13.2).
    public mutating func offsetSaved() {
        overlay.clearOffset()
    }

    /// Holds the clock still for `seconds` without changing the position (the process was suspended).
    public mutating func skipClock(by seconds: Double) {
        audioClock.skip(by: seconds)
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
    public var audioIsLive: Bool { audioClock.isLive }

    private mutating func show(_ text: String, at now: Double) {
        overlay.post(text, at: now, for: PlayerState.noticeDuration)
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
        // A changed setting shows in the status bar (`key +2  tempo 0.85×  vocals 50 %`), which is its one
        // mention; a notice says only what the bar cannot: a return to normal, which leaves it, or a limit.
        switch action {
        case .stepVocals:
            singing.stepVocals()
            announce(singing.vocalsPercent == 100 ? singing.vocalsText : nil, at: now)
            return [.setAudioFilters(singing.audioFilters)]
        case .changeKey(let steps):
            let before = singing.key
            singing.changeKey(by: steps)
            guard singing.key != before else {
                announce(steps > 0 ? "the key goes no higher" : "the key goes no lower", at: now)
                return []
            }
            announce(singing.key == 0 ? singing.keyText : nil, at: now)
            return [.setAudioFilters(singing.audioFilters)]
        case .changeTempo(let percent):
            let before = singing.tempoPercent
            singing.changeTempo(by: percent)
            guard singing.tempoPercent != before else {
                announce(percent > 0 ? "the tempo goes no faster" : "the tempo goes no slower", at: now)
                return []
            }
            audioClock.setRate(singing.tempo, at: now)
            announce(singing.tempoPercent == 100 ? singing.tempoText : nil, at: now)
            return [.setSpeed(singing.tempo)]
        default:
            return []
        }
    }

    /// Takes back the singer's last notice while it shows, then posts `text`, if any, in its place.
    private mutating func announce(_ text: String?, at now: Double) {
        if let singingNotice { overlay.withdraw(singingNotice) }
        singingNotice = text
        if let text { show(text, at: now) }
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
        audioClock.move(to: clamped(position), at: now)
    }

    private func clamped(_ position: Double) -> Double { min(max(0, position), duration) }
}

extension PlayerState {
    /// What the frame at monotonic `now` shows of the player: its position, pause, help (`play`'s keys),
    /// notice, offset, reduce motion and singer's settings, the title drifting on `titleTime`; `singers`
    /// while scoring.
    public func frameInput(at now: Double, titleTime: Double?, singers: [SingerProgress] = []) -> FrameInput {
        FrameInput(
            time: position(at: now), titleTime: titleTime, paused: isPaused, overlay: overlay, keys: PlayerAction.help,
            at: now, singing: singing.statusText, singers: singers)
    }
}
