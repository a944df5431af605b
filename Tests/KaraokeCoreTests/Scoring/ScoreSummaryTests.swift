import Testing
@testable import KaraokeCore

@Suite("The score summary")
struct ScoreSummaryTests {
    /// A duet in which P1 sang every note on pitch and P2 was silent.
    static func duetSummary() throws -> ScoreSummary {
        let text =
            "#TITLE:Paper \"Moon\"\n#ARTIST:The Folds\n#BPM:150\n#GAP:0\n"
            + "P1\n: 0 4 0 a\n- 5\n* 6 2 2 b\nP2\n: 10 4 7 c\nP3\n: 20 4 3 d\n"
        let result = UltraStarParser.parse(Array(text.utf8), file: "moon.txt")
        let song = try #require(result.song)
        let track = try #require(song.notes)
        var keepers = track.parts.map { ScoreKeeper(track: track, part: $0, difficulty: .hard) }
        for line in track.lines(for: .part(0)) {
            for note in line.notes {
                for beat in note.beat..<note.beat + note.length {
                    let time = track.time(ofBeat: beat) + 50
                    keepers[0].hear(PitchFrame(time: time, midi: Double(note.midiNote), level: -20))
                }
            }
        }
        for index in keepers.indices { keepers[index].judge(through: 10_000) }
        return ScoreSummary(
            metadata: song.metadata, file: "songs/moon.txt", difficulty: .hard,
            singers: keepers.map(ScoreSummary.Singer.init), pitchFramesPerSecond: 86.5)
    }

    @Test("every singer's part, points, rating and lines are written, with the song and the difficulty")
    func duet() throws {
        let json = try JSONValue.parse(Array(try Self.duetSummary().jsonText.utf8))
        #expect(json["title"] == .string("Paper \"Moon\""))
        #expect(json["artist"] == .string("The Folds"))
        #expect(json["file"] == .string("songs/moon.txt"))
        #expect(json["difficulty"] == .string("hard"))
        #expect(json["pitchFramesPerSecond"] == .number(86.5))
        guard case .array(let singers)? = json["singers"] else {
            Issue.record("no singers array")
            return
        }
        try #require(singers.count == 2)
        #expect(singers[0]["part"] == .string("P1"))
        #expect(singers[0]["score"] == .number(10_000))
        #expect(singers[0]["rating"] == .string("star of the night"))
        // P1 has weight 4 + 2 × 2 + 4 = 12: notes 9000 × 8 / 12, golden 9000 × 4 / 12.
        #expect(singers[0]["notes"] == .number(6000))
        #expect(singers[0]["golden"] == .number(3000))
        #expect(singers[0]["lineBonus"] == .number(1000))
        #expect(singers[1]["part"] == .string("P2"))
        // P2 sang nothing but the P3 line, which P1's frames do not reach: P2's keeper heard none of them.
        #expect(singers[1]["score"] == .number(0))
        #expect(singers[1]["rating"] == .string("silent night"))
        guard case .array(let lines)? = singers[1]["lines"] else {
            Issue.record("no lines array")
            return
        }
        #expect(lines.map { $0["line"]?.integer } == [2, 3])
        #expect(lines.map { $0["grade"] } == [.string("missed"), .string("missed")])
        #expect(lines.map { $0["accuracy"] } == [.number(0), .number(0)])
    }

    @Test("a song without parts, title or artist writes null for them; accuracies to a thousandth, lines in order")
    func exactText() {
        let singer = ScoreSummary.Singer(
            part: nil, points: ScorePoints(notes: 4500, golden: 300, lineBonus: 417),
            lines: [
                LineResult(line: 1, accuracy: 2.0 / 3, grade: .good, judgedAt: 5000),
                LineResult(line: 0, accuracy: 1, grade: .perfect, judgedAt: 3000),
            ])
        let summary = ScoreSummary(
            metadata: SongMetadata(), file: "a.txt", difficulty: .easy, singers: [singer], pitchFramesPerSecond: 43)
        let expected = """
            {
              "artist": null,
              "difficulty": "easy",
              "file": "a.txt",
              "finished": true,
              "pitchFramesPerSecond": 43,
              "singers": [
                {
                  "golden": 300,
                  "lineBonus": 417,
                  "lines": [
                    {
                      "accuracy": 1,
                      "grade": "perfect",
                      "line": 0
                    },
                    {
                      "accuracy": 0.667,
                      "grade": "good",
                      "line": 1
                    }
                  ],
                  "notes": 4500,
                  "part": null,
                  "rating": "finding the key",
                  "score": 5217
                }
              ],
              "title": null
            }

            """
        #expect(summary.jsonText == expected)
    }

    @Test(
        "parts are named as UltraStar names them",
        arguments: [(.part(0), "P1"), (.part(1), "P2"), (.together, "P3"), (nil, nil)] as [(Voice?, String?)])
    func partNames(part: Voice?, name: String?) {
        #expect(ScoreSummary.partName(part) == name)
    }
}

@Suite("Writing JSON")
struct JSONWritingTests {
    @Test(
        "a written value reads back as the same value",
        arguments: [
            JSONValue.null, .bool(true), .bool(false), .number(0), .number(-12.5), .number(1e-7), .number(3e20),
            .number(9_007_199_254_740_993), .string("a\"b\\c\n\t\u{1}歌 🎤"), .array([]), .object([:]),
            .array([.number(1), .array([.null, .object(["x": .string("y")])])]),
            .object(["b": .number(2), "a": .object(["c": .array([.bool(true)])])]),
        ])
    func roundTrip(value: JSONValue) throws {
        let text = value.writtenText()
        #expect(text.hasSuffix("\n"))
        #expect(try JSONValue.parse(Array(text.utf8)) == value)
    }

    @Test("whole numbers have no fraction and numbers JSON cannot write are null")
    func numbers() {
        #expect(JSONValue.number(10_000).writtenText() == "10000\n")
        #expect(JSONValue.number(-3).writtenText() == "-3\n")
        #expect(JSONValue.number(0.25).writtenText() == "0.25\n")
        #expect(JSONValue.array([.number(.nan), .number(.infinity)]).writtenText() == "[\n  null,\n  null\n]\n")
    }
}
