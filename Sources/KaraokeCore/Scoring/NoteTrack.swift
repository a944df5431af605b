/// The notes of an UltraStar song, or the melody of a MIDI karaoke song (DESIGN §7.7), kept for scoring and the note
/// lanes (DESIGN §15).
///
/// Lyric lines keep only the syllables and their times; the pitch, the note kind and the beat grid live
/// here, because scoring counts beats and compares pitches, which the sweep never needs.
public struct NoteTrack: Sendable, Equatable {
    /// Milliseconds one beat lasts: `60000 / (BPM × 4)`, since UltraStar's BPM counts quarter beats.
    public var millisecondsPerBeat: Double
    /// `#GAP`: the file time of beat 0, in milliseconds.
    public var gap: Double
    /// The phrases (the notes between two line breaks) of every part, sorted by start.
    public var lines: [NoteLine]

    /// A track on the beat grid `gap + beat × millisecondsPerBeat`.
    public init(millisecondsPerBeat: Double, gap: Double, lines: [NoteLine]) {
        self.millisecondsPerBeat = millisecondsPerBeat
        self.gap = gap
        self.lines = lines
    }

    /// The file time of `beat`, in milliseconds (unrounded).
    public func time(ofBeat beat: Int) -> Double { gap + Double(beat) * millisecondsPerBeat }

    /// The beat sung at file time `milliseconds` (fractional: 2.5 is halfway through beat 2).
    public func beat(at milliseconds: Double) -> Double { (milliseconds - gap) / millisecondsPerBeat }

    /// The lines a singer of `part` sings: that part's and those sung together; every line when the song has
    /// no parts or `part` is nil.
    public func lines(for part: Voice?) -> [NoteLine] { lineIndices(for: part).map { lines[$0] } }

    /// The indices in `lines` of the lines a singer of `part` sings (see `lines(for:)`), in order.
    public func lineIndices(for part: Voice?) -> [Int] {
        guard let part else { return Array(lines.indices) }
        return lines.indices.filter { index in
            let voice = lines[index].voice
            return voice == nil || voice == part || voice == .together
        }
    }

    /// The parts that sing in the track, in order (`.part(0)`, `.part(1)`, …); empty for a song without parts.
    public var parts: [Voice] {
        let numbers = Set(lines.compactMap { line -> Int? in if case .part(let n) = line.voice { n } else { nil } })
        return numbers.sorted().map { .part($0) }
    }
}

/// One phrase of notes: what a singer sings between two UltraStar line breaks.
public struct NoteLine: Sendable, Equatable {
    /// The notes in beat order.
    public var notes: [SungNote]
    /// The part that sings it (`P1` is `.part(0)`, `P3` is `.together`); nil in a song without parts.
    public var voice: Voice?
    /// The file line of its first note.
    public var sourceLine: Int

    /// A phrase of `notes` (already in beat order).
    public init(notes: [SungNote], voice: Voice?, sourceLine: Int) {
        self.notes = notes
        self.voice = voice
        self.sourceLine = sourceLine
    }

    /// The first beat of its first note.
    public var firstBeat: Int { notes.first?.beat ?? 0 }
    /// The beat after its last note ends.
    public var endBeat: Int { notes.map { $0.beat + $0.length }.max() ?? 0 }
    /// The lowest and highest pitch of its notes that have one (freestyle notes are left out), or nil.
    public var pitchRange: ClosedRange<Int>? {
        let pitches = notes.filter { $0.kind != .freestyle }.map(\.pitch)
        guard let low = pitches.min(), let high = pitches.max() else { return nil }
        return low...high
    }
}

/// One UltraStar note: `T beat length pitch syllable`.
public struct SungNote: Sendable, Equatable {
    /// The first beat (absolute, also in a `#RELATIVE` file).
    public var beat: Int
    /// How many beats it lasts.
    public var length: Int
    /// UltraStar's pitch: semitones from middle C (0 is C4, MIDI note 60).
    public var pitch: Int
    /// Normal, golden, freestyle, rap or golden rap.
    public var kind: NoteKind
    /// The syllable as written (spaces kept; `~` holds the previous vowel).
    public var syllable: String

    /// A note of `length` beats from `beat`.
    public init(beat: Int, length: Int, pitch: Int, kind: NoteKind, syllable: String) {
        self.beat = beat
        self.length = length
        self.pitch = pitch
        self.kind = kind
        self.syllable = syllable
    }

    /// The MIDI note number of its pitch.
    public var midiNote: Int { pitch + 60 }
}

/// The kind of an UltraStar note, by the letter that starts its line.
public enum NoteKind: String, Sendable, CaseIterable {
    /// `:` sung and scored by pitch.
    case normal
    /// `*` scored by pitch, worth double.
    case golden
    /// `F` sung freely: shown, never scored.
    case freestyle
    /// `R` spoken: scored on the voice being heard, whatever its pitch.
    case rap
    /// `G` spoken and worth double.
    case goldenRap

    /// How many times a beat of it counts: golden kinds twice, freestyle not at all.
    public var weight: Int {
        switch self {
        case .normal, .rap: 1
        case .golden, .goldenRap: 2
        case .freestyle: 0
        }
    }

    /// Whether it is scored on voice activity alone.
    public var isRap: Bool { self == .rap || self == .goldenRap }
    /// Whether it is drawn in gold.
    public var isGolden: Bool { self == .golden || self == .goldenRap }
}
