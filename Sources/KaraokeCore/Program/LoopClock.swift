/// When a screen paints: the frame grid while something moves every frame, the next visible change
/// otherwise, the title's clock, and the time the process spent stopped (DESIGN §17.2).
///
/// A program asks it after every event for the next wake, telling it what moves on the screen now. The
/// answer is the earliest of the frame deadline (only while something sweeps), the title's next colour
/// step (only while it drifts) and the next discrete change the program knows of (a line or word that
/// lights, the clock's second, a notice that ends); nil when nothing will change until something happens.
public struct LoopClock: Sendable, Equatable {
    /// How many times a second the title's drift moves: one step in three frames looks the same as
    /// thirty, and on a direct-colour terminal every title cell changes at every step.
    public static let titleStepsPerSecond = 10.0

    /// What moves on a screen from now on, as its program sees it.
    public struct Motion: Sendable, Equatable {
        /// Something changes every frame (a sweep, a glide, the note lanes): frames at the full rate.
        public var sweeps: Bool
        /// The title's colours drift (not under reduce motion).
        public var titleDrifts: Bool
        /// The monotonic time of the next change that is not a sweep, nil if none is known.
        public var nextChange: Double?

        /// A motion; by default nothing moves.
        public init(sweeps: Bool = false, titleDrifts: Bool = false, nextChange: Double? = nil) {
            self.sweeps = sweeps
            self.titleDrifts = titleDrifts
            self.nextChange = nextChange
        }
    }

    /// The frames a second asked for (`--fps`).
    public let framesPerSecond: Int
    private var pacer: FramePacer
    /// When the loop started: the title's clock counts from here.
    private let startedAt: Double
    /// When the process was stopped by the last `.suspend`, until it is continued.
    private var suspendedAt: Double?
    /// When the next frame is due, as the last `schedule` said; nil when none is.
    public private(set) var due: Double?

    /// A clock for a loop starting at monotonic `now`, with frames at `framesPerSecond` while something sweeps.
    public init(framesPerSecond: Int, now: Double) {
        self.framesPerSecond = framesPerSecond
        pacer = FramePacer(framesPerSecond: framesPerSecond, now: now)
        startedAt = now
    }

    /// The time the title drifts on at `now`: whole steps of `titleStepsPerSecond` since the start.
    public func titleTime(at now: Double) -> Double {
        Double(titleStep(at: now)) / LoopClock.titleStepsPerSecond
    }

    /// The whole title steps since the start at `now`; a wake meant for a step that lands a rounding error
    /// short of it counts as the step.
    private func titleStep(at now: Double) -> Int {
        let steps = ((now - startedAt) * LoopClock.titleStepsPerSecond + 1e-6).rounded(.down)
        return steps.isFinite ? Int(max(0, min(steps, 1e15))) : 0
    }

    /// Starts the frame grid anew at `now` (the first frame).
    public mutating func restart(at now: Double) {
        pacer = FramePacer(framesPerSecond: framesPerSecond, now: now)
        due = now
    }

    /// Whether the frame `schedule` asked for is due at `now`.
    public func isDue(at now: Double) -> Bool {
        guard let due else { return false }
        return now >= due
    }

    /// Records a frame painted at `now`: the frame due by the grid is this one, so the next keeps the grid
    /// rather than following at once.
    public mutating func painted(at now: Double) {
        if pacer.deadline <= now { pacer.advance(after: now) }
        if let due, due <= now { self.due = nil }
    }

    /// The next wake after `now`, for a screen where `motion` describes what moves; nil: none until
    /// something happens.
    public mutating func schedule(_ motion: Motion, at now: Double) -> Double? {
        var next = motion.nextChange
        // Every frame of a sweep shows the title's step of its moment, so the steps need no wake of their own.
        if motion.sweeps {
            next = min(next ?? .infinity, pacer.deadline)
        } else if motion.titleDrifts {
            next = min(next ?? .infinity, nextTitleStep(after: now))
        }
        due = next
        return next
    }

    /// The title's next colour step after `now`.
    public func nextTitleStep(after now: Double) -> Double {
        startedAt + Double(titleStep(at: now) + 1) / LoopClock.titleStepsPerSecond
    }

    /// Notes that the process is stopped at `now` (Ctrl-Z).
    public mutating func suspend(at now: Double) {
        suspendedAt = now
    }

    /// Notes that the process was continued at `now`; returns how long it was stopped, or nil when it was
    /// not stopped by a `.suspend` of this loop.
    public mutating func resume(at now: Double) -> Double? {
        guard let stoppedAt = suspendedAt else { return nil }
        suspendedAt = nil
        return max(0, now - stoppedAt)
    }
}
