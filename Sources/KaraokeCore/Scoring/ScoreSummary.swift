/// What a scored song came to, as `--score-out` writes it: the song, the difficulty and every singer's points
/// and lines (DESIGN §15.2).
public struct ScoreSummary: Sendable, Equatable {
    /// One singer's result.
    public struct Singer: Sendable, Equatable {
        /// The part sung; nil in a song without parts.
        public var part: Voice?
        /// The points.
        public var points: ScorePoints
        /// The results of the lines judged, in any order (they are written by line).
        public var lines: [LineResult]

        /// The result of a singer of `part`.
        public init(part: Voice?, points: ScorePoints, lines: [LineResult]) {
            self.part = part
            self.points = points
            self.lines = lines
        }

        /// Where a keeper's singer stands now.
        public init(_ keeper: ScoreKeeper) {
            self.init(part: keeper.progress.part, points: keeper.progress.points, lines: keeper.lineResults)
        }
    }

    /// The song's title, if the file names one.
    public var title: String?
    /// The song's artist, if the file names one.
    public var artist: String?
    /// The lyric file, as the user named it.
    public var file: String
    /// The difficulty sung at.
    public var difficulty: Difficulty
    /// Every singer, in the order of their parts.
    public var singers: [Singer]
    /// How many pitch frames a second the detector gave (the edge measures it).
    public var pitchFramesPerSecond: Double
    /// Whether the song was sung to its end; false when it was left early (q, a signal, the next song).
    public var finished = true

    /// A summary of `singers` singing the song of `metadata` from `file`.
    public init(
        metadata: SongMetadata, file: String, difficulty: Difficulty, singers: [Singer], pitchFramesPerSecond: Double
    ) {
        title = metadata.title
        artist = metadata.artist
        self.file = file
        self.difficulty = difficulty
        self.singers = singers
        self.pitchFramesPerSecond = pitchFramesPerSecond
    }

    /// The name UltraStar gives `part` (`P1`, `P2`, `P3` for a line sung together), nil for none.
    public static func partName(_ part: Voice?) -> String? {
        switch part {
        case .part(let number): "P\(number + 1)"
        case .together: "P3"
        case nil: nil
        }
    }

    /// The summary as a JSON value: names in camel case, accuracies to a thousandth.
    var json: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }
        let singers = singers.map { singer -> JSONValue in
            let lines = singer.lines.sorted { $0.line < $1.line }.map { result -> JSONValue in
                .object([
                    "line": .number(Double(result.line)),
                    "accuracy": .number((result.accuracy * 1000).rounded() / 1000),
                    "grade": .string(result.grade.rawValue),
                ])
            }
            return .object([
                "part": text(ScoreSummary.partName(singer.part)),
                "score": .number(Double(singer.points.total)),
                "notes": .number(Double(singer.points.notes)),
                "golden": .number(Double(singer.points.golden)),
                "lineBonus": .number(Double(singer.points.lineBonus)),
                "rating": .string(SongRating(score: singer.points.total).rawValue),
                "lines": .array(lines),
            ])
        }
        return .object([
            "title": text(title),
            "artist": text(artist),
            "file": .string(file),
            "difficulty": .string(difficulty.rawValue),
            "pitchFramesPerSecond": .number((pitchFramesPerSecond * 10).rounded() / 10),
            "finished": .bool(finished),
            "singers": .array(singers),
        ])
    }

    /// The JSON text written to the `--score-out` file, ending in a newline.
    public var jsonText: String { json.writtenText() }

    /// The JSON text of a queue's `--score-out` file: an array of the scored songs so far, in the order sung.
    public static func jsonText(of summaries: [ScoreSummary]) -> String {
        JSONValue.array(summaries.map(\.json)).writtenText()
    }
}
