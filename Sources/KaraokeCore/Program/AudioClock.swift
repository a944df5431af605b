/// The clock of a screen that plays along with mpv: where the audio stands, the user's pause, the
/// audio's length, and the `PlaybackClock` that fills in between mpv's reports (DESIGN §8, §13.1).
///
/// `PlayerState` and `SyncSession` each keep one. With `.starting` the clock waits for mpv's first
/// position; after that mpv's positions correct it smoothly; when mpv is lost the clock runs on alone.
public struct AudioClock: Sendable, Equatable {
    /// Where the audio stands.
    public private(set) var audio: AudioStatus
    /// Whether the user paused.
    public private(set) var isPaused = false
    /// The audio's length in seconds, once mpv has said.
    public private(set) var audioDuration: Double?
    private var clock: PlaybackClock

    /// A clock at `position` seconds at monotonic `now`; with `audio == .starting` it stands still until mpv's
    /// first position.
    public init(audio: AudioStatus, position: Double = 0, now: Double) {
        self.audio = audio
        clock = PlaybackClock(position: position, at: now)
        if audio == .starting { clock.pause(at: now) }
    }

    /// The clock's position at `now`, unclamped (the owner holds it within the song or the audio).
    public func position(at now: Double) -> Double { clock.position(at: now) }

    /// The monotonic time, not before `now`, at which the clock reaches `position`; nil while it stands
    /// still.
    public func time(reaching position: Double, after now: Double) -> Double? {
        clock.time(reaching: position, after: now)
    }

    /// Whether mpv is there to be told things.
    public var isLive: Bool { audio.isLive }

    /// Whether audio is playing or about to: the audio then decides when the song ends.
    public var followsAudio: Bool { audio == .starting || audio == .playing }

    /// Pauses or resumes at `now`; returns what mpv must be told.
    public mutating func togglePause(at now: Double) -> [AudioCommand] {
        isPaused.toggle()
        // While mpv starts, the clock waits for its first position, paused or not.
        if isPaused { clock.pause(at: now) } else if audio != .starting { clock.resume(at: now) }
        return isLive ? [.setPaused(isPaused)] : []
    }

    /// Moves to `target` seconds (held within what the owner allows) at `now`; returns what mpv must be told.
    public mutating func move(to target: Double, at now: Double) -> [AudioCommand] {
        clock.move(to: target, at: now)
        if isPaused || audio == .starting { clock.pause(at: now) }
        return audio.seekCommands(to: target, paused: isPaused, duration: audioDuration)
    }

    /// Runs the clock at `rate` from `now` on (mpv's speed).
    public mutating func setRate(_ rate: Double, at now: Double) {
        clock.setRate(rate, at: now)
    }

    /// Takes what mpv reported at `now`; returns the reason when mpv failed, which the owner turns into its
    /// own notice and `lose`.
    public mutating func receive(_ event: AudioEvent, at now: Double) -> String? {
        switch event {
        case .position(let seconds):
            guard followsAudio else { return nil }
            if audio == .starting {
                // The first position: the clock starts here, with the music.
                audio = .playing
                clock.move(to: seconds, at: now)
                if !isPaused { clock.resume(at: now) }
            } else {
                clock.synchronize(toAudio: seconds, at: now)
            }
        case .duration(let seconds):
            guard seconds.isFinite, seconds > 0 else { return nil }
            audioDuration = seconds
        case .reachedEnd:
            if followsAudio { audio = .ended }
        case .failed(let reason):
            return reason
        }
        return nil
    }

    /// mpv is gone at `now` (missing, or died): the clock goes on silently from where it is.
    public mutating func lose(at now: Double) {
        if audio == .starting && !isPaused { clock.resume(at: now) }
        audio = .lost
    }

    /// Holds the clock still for `seconds` without changing the position (the process was suspended).
    public mutating func skip(by seconds: Double) {
        clock.skip(by: seconds)
    }

    /// What mpv must be told as the process is stopped (Ctrl-Z): a pause, unless the user paused already.
    public var suspendCommands: [AudioCommand] { !isPaused && isLive ? [.setPaused(true)] : [] }

    /// What mpv must be told as the process is continued: the pause `suspendCommands` asked for, undone.
    public var resumeCommands: [AudioCommand] { !isPaused && isLive ? [.setPaused(false)] : [] }
}
