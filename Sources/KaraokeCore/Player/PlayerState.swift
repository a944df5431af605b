/// The player's state and what keys do to it, on a clock given from outside (SPEC §6).
///
/// Positions are seconds of playback. The clock is a pair (when, where): at monotonic time `anchorTime`
/// the song was at `anchorPosition`; while playing it advances one second a second. Everything here is
/// pure: the terminal edge passes the monotonic time in, so a fake clock tests it exactly.
public struct PlayerState: Sendable, Equatable {
    /// The song played.
    public let song: Song
    /// Whether the clock stands still.
    public private(set) var isPaused = false
    /// Whether the sweep is replaced by whole units lighting (toggled by `r`).
    public private(set) var reduceMotion: Bool
    /// The user's offset in milliseconds (keys + / −, and `--offset`).
    public private(set) var userOffset: Int
    /// Whether the help overlay is shown.
    public private(set) var showsHelp = false
    /// Whether the user asked to quit.
    public private(set) var hasQuit = false
    private var anchorTime: Double
    private var anchorPosition: Double

    /// Starts playing `song` from `start` seconds at monotonic time `now`.
    public init(song: Song, start: Double, now: Double, reduceMotion: Bool = false, userOffset: Int = 0) {
        self.song = song
        self.reduceMotion = reduceMotion
        self.userOffset = userOffset
        anchorTime = now
        anchorPosition = 0
        anchorPosition = clamped(start)
    }

    /// The song's length in seconds of playback.
    public var duration: Double { Double(song.duration) / 1000 }

    /// Where the song is at monotonic time `now`, clamped to the song.
    public func position(at now: Double) -> Double {
        clamped(isPaused ? anchorPosition : anchorPosition + (now - anchorTime))
    }

    /// Whether the song has ended at `now` (playing and past its last line's end).
    public func hasEnded(at now: Double) -> Bool {
        !isPaused && anchorPosition + (now - anchorTime) >= duration
    }

    /// Applies `action` at monotonic time `now`.
    public mutating func apply(_ action: PlayerAction, at now: Double) {
        let current = position(at: now)
        switch action {
        case .togglePause:
            moveClock(to: current, at: now)
            isPaused.toggle()
        case .seek(let seconds):
            moveClock(to: current + seconds, at: now)
        case .previousLine:
            moveClock(to: lineStart(before: current), at: now)
        case .nextLine:
            moveClock(to: lineStart(after: current), at: now)
        case .restart:
            moveClock(to: 0, at: now)
        case .adjustOffset(let milliseconds):
            userOffset = max(-3_600_000, min(3_600_000, userOffset + milliseconds))
        case .toggleReduceMotion:
            reduceMotion.toggle()
        case .toggleHelp:
            showsHelp.toggle()
        case .quit:
            hasQuit = true
        }
    }

    /// Holds the clock still for `seconds` without changing the position (the process was suspended).
    public mutating func skipClock(by seconds: Double) {
        anchorTime += seconds
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
        LyricClock.currentLine(in: song, at: LyricClock.fileTime(playback: position, song: song, userOffset: userOffset))
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

    private mutating func moveClock(to position: Double, at now: Double) {
        anchorPosition = clamped(position)
        anchorTime = now
    }

    private func clamped(_ position: Double) -> Double { min(max(0, position), duration) }
}
