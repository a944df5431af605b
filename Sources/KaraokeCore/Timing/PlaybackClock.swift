/// Where the song is, as a function of the monotonic clock, kept in step with an audio player.
///
/// Without audio the clock is its own truth: it advances one second a second from the last move. With
/// audio, the player's reported position is the truth, but reports come in bursts and late; between them
/// the clock extrapolates, and a small disagreement is absorbed smoothly, at most `maximumSlew` seconds
/// per second, so the sweep never jumps and never runs backwards. Only a disagreement above
/// `jumpThreshold` (a seek, a stall, a buffer underrun) is followed at once.
public struct PlaybackClock: Sendable, Equatable {
    /// A report further than this (seconds) from the clock is a jump and is followed at once.
    public static let jumpThreshold = 0.3
    /// How fast a small disagreement is absorbed: seconds of correction per second. Under 1, so the
    /// corrected clock still moves forwards (at 0.9× to 1.1× speed) while it catches up.
    public static let maximumSlew = 0.1

    /// Whether the clock stands still.
    public private(set) var isPaused = false
    /// Seconds of playback a second while it runs: 1, or a followed player's rate (DESIGN §12).
    public private(set) var rate = 1.0
    private var anchorTime: Double
    private var anchorPosition: Double
    /// The part of the last disagreement still to absorb, in seconds (positive: the clock is behind).
    private var correction = 0.0

    /// A clock at `position` seconds at monotonic time `now`, running.
    public init(position: Double, at now: Double) {
        anchorTime = now
        anchorPosition = position
    }

    /// The position at monotonic time `now` (seconds, unclamped).
    public func position(at now: Double) -> Double {
        guard !isPaused else { return anchorPosition }
        let elapsed = max(0, now - anchorTime)
        let absorbed = min(abs(correction), elapsed * PlaybackClock.maximumSlew)
        return anchorPosition + elapsed * rate + (correction < 0 ? -absorbed : absorbed)
    }

    /// The monotonic time, not before `now`, at which the clock reaches `target`; nil when it stands still
    /// and is not there. The inverse of `position(at:)`: while a disagreement is being absorbed the clock
    /// runs at `rate` ± `maximumSlew`, then at `rate`.
    public func time(reaching target: Double, after now: Double) -> Double? {
        let here = position(at: now)
        if target <= here { return now }
        guard !isPaused else { return nil }
        let elapsed = max(0, now - anchorTime)
        let left = max(0, abs(correction) - elapsed * PlaybackClock.maximumSlew)
        let absorbing = left / PlaybackClock.maximumSlew
        let speed = rate + (correction < 0 ? -PlaybackClock.maximumSlew : PlaybackClock.maximumSlew)
        let absorbed = here + absorbing * max(0, speed)
        if speed > 0, target <= absorbed { return now + (target - here) / speed }
        return now + absorbing + (target - absorbed) / rate
    }

    /// Jumps to `position` (a seek, a start).
    public mutating func move(to position: Double, at now: Double) {
        anchorPosition = position
        anchorTime = now
        correction = 0
    }

    /// Stops the clock where it is.
    public mutating func pause(at now: Double) {
        guard !isPaused else { return }
        move(to: position(at: now), at: now)
        isPaused = true
    }

    /// Starts the clock again from where it stopped.
    public mutating func resume(at now: Double) {
        guard isPaused else { return }
        anchorTime = now
        isPaused = false
    }

    /// Runs at `rate` seconds of playback a second from `now` on, from where it is (a player's speed
    /// changed); a rate that is not a positive finite number is ignored.
    public mutating func setRate(_ rate: Double, at now: Double) {
        guard rate.isFinite, rate > 0, rate != self.rate else { return }
        let here = position(at: now)
        let remaining = correction - (here - anchorPosition - max(0, now - anchorTime) * self.rate)
        anchorPosition = here
        anchorTime = now
        correction = isPaused ? correction : remaining
        self.rate = rate
    }

    /// Holds the clock still for `seconds` without moving it (the process was suspended).
    public mutating func skip(by seconds: Double) {
        anchorTime += seconds
    }

    /// Takes the audio player's report that the audio is at `position` at monotonic time `now`.
    ///
    /// A small disagreement is absorbed from here on; a large one (beyond `jumpThreshold`) is followed
    /// at once. While paused, only a jump moves the clock: the paused audio's last report differs by a
    /// few milliseconds from where the lyrics stopped, and a still screen should stay still.
    public mutating func synchronize(toAudio position: Double, at now: Double) {
        let here = self.position(at: now)
        let error = position - here
        if abs(error) > PlaybackClock.jumpThreshold {
            move(to: position, at: now)
            return
        }
        guard !isPaused else { return }
        anchorPosition = here
        anchorTime = now
        correction = error
    }
}
