/// A screen's state that plays along with mpv on an `AudioClock`: `PlayerState` and `SyncSession`.
public protocol PlaysAlongWithAudio {
    /// mpv's status, the pause and the clock that follows mpv's positions.
    var audioClock: AudioClock { get }
    /// Holds the clock still for `seconds` without changing the position.
    mutating func skipClock(by seconds: Double)
}

extension PlayerState: PlaysAlongWithAudio {}
extension SyncSession: PlaysAlongWithAudio {}

/// Ctrl-Z and `fg` on a screen that plays along with mpv (`play`, `sync`, DESIGN §8, §13.1).
extension LoopClock {
    /// Notes that the process is stopped at `now`; returns what mpv must be told: to pause while the process
    /// is stopped, unless the user paused it already.
    public mutating func suspend(at now: Double, playing state: some PlaysAlongWithAudio) -> [AudioCommand] {
        suspend(at: now)
        return state.audioClock.suspendCommands
    }

    /// Notes that the process was continued at `now`: the audio's clock holds still for the time stopped, as
    /// a paused player would. Returns what mpv must be told (the pause `suspend` asked for, undone), or nil
    /// when the process was not stopped by this loop's `.suspend`.
    public mutating func resume(at now: Double, playing state: inout some PlaysAlongWithAudio) -> [AudioCommand]? {
        guard let stopped = resume(at: now) else { return nil }
        state.skipClock(by: stopped)
        return state.audioClock.resumeCommands
    }
}
