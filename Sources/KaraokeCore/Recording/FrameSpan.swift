/// The moments at which a recording of a span composes its frames (DESIGN §26.3): the frame grid `play`
/// paints on while the sweep moves, from `start` to `end` of playback at `framesPerSecond`.
///
/// Frame k shows playback `start + k / framesPerSecond`, at `k / framesPerSecond` seconds into the
/// recording, with the title on the clock `play` gives it: the whole tenths of a second since the start
/// (`LoopClock.titleTime`). The last frame is the last on the grid at or before `end`.
public struct FrameSpan: RandomAccessCollection, Sendable, Equatable {
    /// One frame's moment.
    public struct Moment: Sendable, Equatable {
        /// Seconds since the recording started: the event's time.
        public var seconds: Double
        /// Seconds of playback the frame shows.
        public var time: Double
        /// The title gradient's clock, as `play`'s loop gives it.
        public var titleTime: Double

        /// What the frame at this moment shows, running, with `userOffset` and `reduceMotion` as the
        /// command line gives them: no status notice, no help, nothing paused.
        public func input(userOffset: Int, reduceMotion: Bool) -> FrameInput {
            FrameInput(time: time, titleTime: titleTime, userOffset: userOffset, reduceMotion: reduceMotion)
        }
    }

    /// `--from`: the playback time of the first frame.
    public let start: Double
    /// `--to`: the playback time no frame is after.
    public let end: Double
    /// `--fps`.
    public let framesPerSecond: Int
    /// The clock whose title time the frames take, started at the first frame.
    private let clock: LoopClock

    /// The frames of playback `start…end` at `framesPerSecond` (at least 1); `end` before `start` gives the
    /// first frame only.
    public init(start: Double, end: Double, framesPerSecond: Int) {
        self.start = start
        self.end = Swift.max(start, end)
        self.framesPerSecond = Swift.max(1, framesPerSecond)
        clock = LoopClock(framesPerSecond: self.framesPerSecond, now: 0)
    }

    /// The first frame's index.
    public var startIndex: Int { 0 }

    /// One past the last frame's: the grid up to `end`, a rounding error short of a frame counting as it.
    public var endIndex: Int {
        let frames = ((end - start) * Double(framesPerSecond) + 1e-6).rounded(.down)
        return frames.isFinite ? Int(Swift.min(frames, 1e12)) + 1 : 1
    }

    /// Frame `index`'s moment.
    public subscript(index: Int) -> Moment {
        let seconds = Double(index) / Double(framesPerSecond)
        return Moment(seconds: seconds, time: start + seconds, titleTime: clock.titleTime(at: seconds))
    }
}
