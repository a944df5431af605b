import Glibc

/// One analysis of the microphone: when it was heard, how loud, and the pitch if there was one (DESIGN §15).
public struct PitchFrame: Sendable, Equatable {
    /// The song time the sound belongs to, in milliseconds of file time (the capture time moved back by the
    /// microphone delay and put on the song's clock by the edge).
    public var time: Double
    /// The detected pitch as a MIDI note number (69 is A4 = 440 Hz, fractional), or nil when nothing voiced
    /// was heard (silence, noise, or a detector confidence too low to trust).
    public var midi: Double?
    /// The loudness of the analysis window in dBFS (0 is full scale; silence is very negative).
    public var level: Double

    /// The MIDI note number of `hertz` (A4 = 440 Hz = 69); nil for a frequency that is not positive.
    public static func midi(hertz: Double) -> Double? {
        guard hertz > 0, hertz.isFinite else { return nil }
        return 69 + 12 * log2(hertz / 440)
    }
}

/// How close a sung pitch must be to the note's for a beat to count (DESIGN §15).
public enum Difficulty: String, Sendable, CaseIterable {
    case easy, medium, hard

    /// The semitones a beat may be off after octave folding: 2, 1 or 0, as UltraStar Deluxe counts.
    public var tolerance: Int {
        switch self {
        case .easy: 2
        case .medium: 1
        case .hard: 0
        }
    }
}
