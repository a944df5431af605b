/// What the player asks of the audio engine after a key or an event. The edge sends it to mpv.
public enum AudioCommand: Sendable, Equatable {
    case setPaused(Bool)
    /// Seek to an absolute position in seconds of audio.
    case seek(to: Double)
    /// Volume in percent, 0…130.
    case setVolume(Int)
    case setMuted(Bool)
    /// mpv's whole `af` filter list ("" for none): the vocals and key of `SingingSettings` (DESIGN §14.1).
    case setAudioFilters(String)
    /// Playback speed, 1 for the original tempo; mpv keeps the pitch (DESIGN §14.1).
    case setSpeed(Double)
    /// Play audio track `track` of the file (1: its own, 2: the first `--audio-file`): a MIDI song's
    /// accompaniment in place of the whole song (DESIGN §18.4).
    case setAudioTrack(Int)
}

/// What the audio engine reported, decoded by the edge (see `MpvProtocol`).
public enum AudioEvent: Sendable, Equatable {
    /// The audio is at this many seconds.
    case position(Double)
    /// The audio's length in seconds.
    case duration(Double)
    /// The audio reached its end (mpv keeps the file open, paused on its last frame).
    case reachedEnd
    /// The file could not be played; the reason in mpv's words.
    case failed(String)
}

/// Where the audio stands, as the player sees it.
public enum AudioStatus: Sendable, Equatable {
    /// Silent by choice (`--no-audio`, or no audio file found).
    case none
    /// mpv is starting; the lyrics wait for its first position.
    case starting
    /// mpv plays; its position leads the clock.
    case playing
    /// The audio has ended; the lyrics may go on to their own end.
    case ended
    /// mpv is missing, failed or died: the lyrics go on silently.
    case lost
}

extension AudioStatus {
    /// Whether mpv is there to be told things: starting, playing, or holding its ended file open.
    public var isLive: Bool { self == .starting || self == .playing || self == .ended }

    /// What mpv must be told to seek to `target` seconds (the lyric clock has moved already): nothing without
    /// mpv; after the end, a seek back into the file plays it again (mpv holds it open and paused), so the
    /// status becomes `.playing` and, unless the user paused, mpv is unpaused. `play` and `sync` share it.
    public mutating func seekCommands(to target: Double, paused: Bool, duration: Double?) -> [AudioCommand] {
        guard isLive else { return [] }
        var commands: [AudioCommand] = [.seek(to: target)]
        if self == .ended, let duration, target < duration {
            self = .playing
            if !paused { commands.append(.setPaused(false)) }
        }
        return commands
    }
}
