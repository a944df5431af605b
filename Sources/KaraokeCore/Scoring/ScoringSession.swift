/// One analysis window of the microphone, as the capture thread heard it (DESIGN §15.1): its monotonic time, not
/// yet on the song's clock.
public struct MicReading: Sendable, Equatable {
    /// When the window's middle reached the microphone, in CLOCK_MONOTONIC seconds: the read time moved back by
    /// what PulseAudio still had buffered and by half a window.
    public var monotonic: Double
    /// The detected pitch as a MIDI note number (fractional), or nil: too quiet, or aubio not confident.
    public var midi: Double?
    /// The window's loudness in dBFS (RMS; 0 is a full-scale square wave).
    public var level: Double

    /// A reading heard at `monotonic`.
    public init(monotonic: Double, midi: Double?, level: Double) {
        self.monotonic = monotonic
        self.midi = midi
        self.level = level
    }
}

/// The singers of one song being scored while it plays (DESIGN §15.5): puts the microphone's readings on the
/// song's clock and keeps a `ScoreKeeper` per singer.
///
/// A reading heard at monotonic time t belongs to the song's position at t − the microphone delay: the sound
/// the singer sang along to left the speakers that much earlier. While the song is paused nothing is heard.
public struct ScoringSession: Sendable {
    /// The notes scored.
    public let track: NoteTrack
    /// The tolerance of every singer.
    public let difficulty: Difficulty
    /// `--mic-delay`, in seconds.
    public let micDelay: Double
    /// One scorer per singer, in the order of the microphones.
    public private(set) var keepers: [ScoreKeeper]
    /// The pitch readings taken so far, all singers together, for the summary's frames-a-second figure.
    public private(set) var readingsHeard = 0
    /// The monotonic time of the first and the last reading heard.
    private var heardSpan: (first: Double, last: Double)?

    /// Scores `parts` (one singer each; nil for a song without parts) of `track`.
    public init(track: NoteTrack, parts: [Voice?], difficulty: Difficulty, micDelayMilliseconds: Int) {
        self.track = track
        self.difficulty = difficulty
        micDelay = Double(micDelayMilliseconds) / 1000
        keepers = parts.map { ScoreKeeper(track: track, part: $0, difficulty: difficulty) }
    }

    /// Where each singer stands, in the order of the microphones.
    public var singers: [SingerProgress] { keepers.map(\.progress) }

    /// Whether every singer's every line has been judged.
    public var isFinished: Bool { keepers.allSatisfy(\.isFinished) }

    /// The analyses a second the microphones delivered, per singer; nil before two readings.
    public var readingsPerSecond: Double? {
        guard let heardSpan, heardSpan.last > heardSpan.first, !keepers.isEmpty else { return nil }
        return Double(readingsHeard - 1) / (heardSpan.last - heardSpan.first) / Double(keepers.count)
    }

    /// The file time (ms) of the song at monotonic `now`, moved back by the microphone delay.
    public func fileTime(heardAt now: Double, state: PlayerState) -> Double {
        LyricClock.fileTime(
            playback: state.position(at: now - micDelay), song: state.song, userOffset: state.userOffset)
    }

    /// Gives singer `singer`'s readings to its scorer; dropped while the song is paused or its audio has not
    /// started, since the song's clock does not move then.
    public mutating func hear(_ readings: [MicReading], singer: Int, state: PlayerState) {
        guard keepers.indices.contains(singer), !readings.isEmpty else { return }
        for reading in readings {
            readingsHeard += 1
            heardSpan = (heardSpan?.first ?? reading.monotonic, reading.monotonic)
        }
        guard !state.isPaused, state.audio != .starting else { return }
        for reading in readings {
            let time = fileTime(heardAt: reading.monotonic, state: state)
            keepers[singer].hear(PitchFrame(time: time, midi: reading.midi, level: reading.level))
        }
    }

    /// Judges every beat that the microphones have had time to hear by monotonic `now`.
    public mutating func judge(at now: Double, state: PlayerState) {
        let time = fileTime(heardAt: now, state: state)
        for index in keepers.indices { keepers[index].judge(through: time) }
    }

    /// Judges every beat that is left: the song is over.
    public mutating func finish() {
        // Past the last beat by more than the lateness: a finite time, which the keepers take.
        let lastBeat = track.lines.map(\.endBeat).max() ?? 0
        let end = track.time(ofBeat: lastBeat) + ScoreKeeper.lateness + 1
        for index in keepers.indices { keepers[index].judge(through: end) }
    }

    /// How long after the song's end the last readings take to arrive and be judged: the microphone delay and
    /// the scorer's lateness, in seconds.
    public var grace: Double { micDelay + ScoreKeeper.lateness / 1000 }

    /// The status bar's words when singer `singer`'s microphone stops: in a duet it names the part, since the
    /// others are still scored.
    public func lostNotice(singer: Int, reason: String) -> String {
        var who = "the microphone"
        if keepers.count > 1, keepers.indices.contains(singer), case .part(let n) = keepers[singer].progress.part {
            who = "P\(n + 1)'s microphone"
        }
        return "\(who) stopped: \(reason); no more scoring from it"
    }
}
