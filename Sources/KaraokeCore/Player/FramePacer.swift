/// Frame deadlines on a monotonic clock: a fixed rate without drift, and no burst after a stall.
public struct FramePacer: Sendable, Equatable {
    /// Seconds between frames.
    public let period: Double
    /// When the next frame is due.
    public private(set) var deadline: Double

    /// Starts pacing at `fps` frames a second, the first frame due at `now`.
    public init(framesPerSecond fps: Int, now: Double) {
        period = 1 / Double(max(1, fps))
        deadline = now
    }

    /// Moves to the next deadline after a frame painted at `now`. Deadlines advance by whole periods,
    /// so the rate does not drift; a deadline already missed by more than a period is dropped, not chased.
    public mutating func advance(after now: Double) {
        deadline += period
        if deadline <= now { deadline = now + period - (now - deadline).truncatingRemainder(dividingBy: period) }
    }

    /// Whole milliseconds to wait from `now` until the deadline (rounded up, so a wake is never early).
    public func millisecondsUntilDeadline(from now: Double) -> Int {
        max(0, Int(((deadline - now) * 1000).rounded(.up)))
    }
}

extension PlayerState {
    /// The frames a second the screen needs now, or nil when nothing moves and the loop can block until
    /// a key or a signal: paused under reduce motion (no sweep, no clock, no drift). Paused otherwise,
    /// only the title drifts, which looks the same at a lower rate.
    public func framesPerSecondNeeded(configured fps: Int) -> Int? {
        guard isPaused else { return fps }
        return reduceMotion ? nil : min(fps, 15)
    }
}
