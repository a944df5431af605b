/// Where one singer stands: what the note lanes draw and the status bar and the final card report (DESIGN §15).
///
/// `ScoreKeeper` produces it from pitch frames; the frame composer only reads it.
public struct SingerProgress: Sendable, Equatable {
    /// The part this singer sings (`.part(0)` is P1); nil when the song has no parts.
    public var part: Voice?
    /// The beats of this singer's notes that were judged hits (absolute beats; notes of one part never share
    /// a beat, so a beat names one note).
    public var hitBeats: Set<Int>
    /// Every beat before this one has been judged; the lanes fill hits only up to here.
    public var judgedThrough: Int
    /// The recent pitch frames, oldest first, in file time: the sung trail.
    public var trail: [PitchFrame]
    /// The points so far.
    public var points: ScorePoints
    /// The rating of the line finished last, with the file time it was given; nil before the first line ends.
    public var lastLine: LineResult?

    /// A singer of `part` who has not sung yet.
    public init(part: Voice?) {
        self.part = part
        hitBeats = []
        judgedThrough = Int.min
        trail = []
        points = ScorePoints()
        lastLine = nil
    }
}

/// A score in UltraStar Deluxe's proportions: 9,000 points for the notes (golden beats count double) and
/// 1,000 for the line bonus, 10,000 for a perfect song.
public struct ScorePoints: Sendable, Equatable {
    /// Points from hit beats of normal and rap notes.
    public var notes = 0
    /// Points from hit beats of golden notes.
    public var golden = 0
    /// Points from the line bonus.
    public var lineBonus = 0

    /// An empty score.
    public init(notes: Int = 0, golden: Int = 0, lineBonus: Int = 0) {
        self.notes = notes
        self.golden = golden
        self.lineBonus = lineBonus
    }

    /// The whole score, 0…10,000.
    public var total: Int { notes + golden + lineBonus }
}

/// How one finished line went.
public struct LineResult: Sendable, Equatable {
    /// The line's index in `NoteTrack.lines`.
    public var line: Int
    /// The share of the line's weighted beats that were hit, 0…1.
    public var accuracy: Double
    /// The word shown for it.
    public var grade: LineGrade
    /// The file time (ms) at which it was judged, so the status bar shows it for a while and then drops it.
    public var judgedAt: Double
}

/// The word a line earns, by its accuracy.
public enum LineGrade: String, Sendable, CaseIterable {
    case missed, shaky, fair, good, great, perfect

    /// The grade of a line sung with `accuracy` (0…1): `missed` below 0.1, `shaky` below 0.35, `fair`
    /// below 0.6, `good` below 0.8, `great` below 0.95, else `perfect`.
    public init(accuracy: Double) { self = Self.allCases[band(of: accuracy, below: [0.1, 0.35, 0.6, 0.8, 0.95])] }
}

/// The title a whole song earns, by its score out of 10,000.
public enum SongRating: String, Sendable, CaseIterable {
    case silent = "silent night"
    case warmingUp = "warming up"
    case findingTheKey = "finding the key"
    case inTune = "in tune"
    case showstopper = "showstopper"
    case starOfTheNight = "star of the night"

    /// The rating of `score` (0…10,000): `silent night` below 500, `warming up` below 3000, `finding the
    /// key` below 5500, `in tune` below 7500, `showstopper` below 9000, else `star of the night`.
    public init(score: Int) { self = Self.allCases[band(of: score, below: [500, 3000, 5500, 7500, 9000])] }
}

/// Which band of the ascending `bounds` `value` falls in: the index of the first bound it is below, or
/// `bounds.count` above them all (or when it is NaN), so a grade's cases, in order, are its bands.
private func band<Value: Comparable>(of value: Value, below bounds: [Value]) -> Int {
    bounds.firstIndex { value < $0 } ?? bounds.count
}
