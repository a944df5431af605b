/// Frame deadlines on a monotonic clock: a fixed rate without drift, and no burst after a stall.
///
/// Every deadline is the first one plus a whole number of periods, computed from that count rather
/// than by adding periods up, so rounding cannot creep in over a long song.
public struct FramePacer: Sendable, Equatable {
    /// Seconds between frames.
    public let period: Double
    /// When the first frame was due.
    private let origin: Double
    /// How many periods after `origin` the next frame is due.
    private var frame = 0

    /// When the next frame is due.
    public var deadline: Double { origin + Double(frame) * period }

    /// Starts pacing at `fps` frames a second, the first frame due at `now`.
    public init(framesPerSecond fps: Int, now: Double) {
        period = 1 / Double(max(1, fps))
        origin = now
    }

    /// Moves to the next deadline after a frame painted at `now`. Deadlines advance by whole periods,
    /// so the rate does not drift; deadlines already missed are dropped, not chased.
    ///
    /// A deadline within a hair of `now` counts as missed: a stall that ends on the grid would
    /// otherwise leave, through rounding, a deadline a femtosecond ahead and paint twice at once.
    public mutating func advance(after now: Double) {
        frame += 1
        let slack = period * 1e-6
        guard deadline <= now + slack, now.isFinite else { return }
        frame = max(frame, Int(((now - origin) / period).rounded(.down)))
        while deadline <= now + slack { frame += 1 }
    }

    /// Whole milliseconds to wait from `now` until the deadline (rounded up, so a wake is never early).
    public func millisecondsUntilDeadline(from now: Double) -> Int {
        max(0, Int(((deadline - now) * 1000).rounded(.up)))
    }
}
