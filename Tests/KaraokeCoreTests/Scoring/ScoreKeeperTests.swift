import Foundation
import Testing
@testable import KaraokeCore

/// The note track of UltraStar text given inline.
func scoringTrack(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> NoteTrack {
    let result = UltraStarParser.parse(Array(text.utf8), file: "t.txt")
    let song = try #require(result.song, "no song: \(result.diagnostics)", sourceLocation: sourceLocation)
    return try #require(song.notes, sourceLocation: sourceLocation)
}

/// A song head that makes one beat 100 ms (BPM 150 counts quarter beats: 60000 / (150 × 4) = 100).
private let head = "#TITLE:Song\n#ARTIST:Singer\n#BPM:150\n#GAP:1000\n"

/// Songs of different shapes, so that the rounding of points is exercised: odd weights, golden notes, holds.
private let songs: [String: String] = [
    "one note": head + ": 0 4 0 la\n",
    "three lines of odd lengths": head + ": 0 3 2 la\n: 3 1 4 la\n- 5\n: 6 7 -3 lo\n- 14\n: 15 1 9 li\n: 17 2 7 ~\n",
    "golden notes and seven lines": head
        + (0..<7).map { ": \($0 * 10) 3 \($0) la\n* \($0 * 10 + 3) \($0 % 3 + 1) \($0 + 2) lo\n- \($0 * 10 + 8)\n" }
        .joined(),
]

/// Songs without rap or freestyle notes, where only the pitch decides.
private let pitchedSongs = songs.keys.sorted()

/// Frames every 10 ms over each note the singer of `part` sings, at the note's pitch moved by `semitones`.
private func trace(
    _ track: NoteTrack, part: Voice? = nil, semitones: Double = 0, level: Double = -20, voiced: Bool = true,
    only kinds: Set<NoteKind> = Set(NoteKind.allCases)
) -> [PitchFrame] {
    var frames: [PitchFrame] = []
    for line in track.lines(for: part) {
        for note in line.notes where kinds.contains(note.kind) {
            var time = track.time(ofBeat: note.beat) + 5
            while time < track.time(ofBeat: note.beat + note.length) {
                frames.append(
                    PitchFrame(time: time, midi: voiced ? Double(note.midiNote) + semitones : nil, level: level))
                time += 10
            }
        }
    }
    return frames.sorted { $0.time < $1.time }
}

/// Plays `frames` to the keeper as the edge does: a tick every 20 ms hears what has arrived and judges,
/// up to `until` or a second after the song.
private func sing(_ frames: [PitchFrame], to keeper: inout ScoreKeeper, until: Double? = nil) {
    let songEnd = keeper.track.time(ofBeat: keeper.track.lines.map(\.endBeat).max() ?? 0)
    let end = until ?? max(frames.last?.time ?? 0, songEnd) + 1000
    var next = 0
    var tick = 0.0
    while tick <= end {
        while next < frames.count, frames[next].time <= tick {
            keeper.hear(frames[next])
            next += 1
        }
        keeper.judge(through: tick)
        tick += 20
    }
}

/// The score of a singer of `part` singing `frames` to `track`.
private func score(
    _ track: NoteTrack, _ frames: [PitchFrame], part: Voice? = nil, difficulty: Difficulty = .medium
) -> ScorePoints {
    var keeper = ScoreKeeper(track: track, part: part, difficulty: difficulty)
    sing(frames, to: &keeper)
    return keeper.progress.points
}

@Suite("Scoring the pitch")
struct ScoreKeeperPitchTests {
    @Test(
        "singing every note on pitch, or whole octaves away, is exactly 10,000 on every difficulty",
        arguments: pitchedSongs, [0.0, 12, -12, 24, 0.3, -0.4])
    func perfect(song: String, semitones: Double) throws {
        let track = try scoringTrack(try #require(songs[song]))
        for difficulty in Difficulty.allCases {
            let points = score(track, trace(track, semitones: semitones), difficulty: difficulty)
            #expect(points.total == 10_000, "\(difficulty)")
            #expect(points.notes + points.golden == 9000, "\(difficulty)")
            #expect(points.lineBonus == 1000, "\(difficulty)")
        }
    }

    @Test("a tritone off, either way and in any octave, scores 0 on every difficulty", arguments: [6.0, -6, 18, -18])
    func tritone(semitones: Double) throws {
        let track = try scoringTrack(try #require(songs["golden notes and seven lines"]))
        for difficulty in Difficulty.allCases {
            #expect(score(track, trace(track, semitones: semitones), difficulty: difficulty).total == 0)
        }
    }

    @Test(
        "one or two semitones off counts only where the difficulty allows it",
        arguments: [
            (1.0, Difficulty.easy, 10_000),
            (-1, .easy, 10_000),
            (2, .easy, 10_000),
            (-2, .easy, 10_000),
            (13, .easy, 10_000), // an octave and a semitone
            (3, .easy, 0),
            (1, .medium, 10_000),
            (-1, .medium, 10_000),
            (2, .medium, 0),
            (-2, .medium, 0),
            (1, .hard, 0),
            (-1, .hard, 0),
            (0.49, .hard, 10_000), // rounded to the nearest semitone
            (0.51, .hard, 0),
        ])
    func semitonesOff(semitones: Double, difficulty: Difficulty, expected: Int) throws {
        let track = try scoringTrack(try #require(songs["three lines of odd lengths"]))
        #expect(score(track, trace(track, semitones: semitones), difficulty: difficulty).total == expected)
    }

    @Test("silence scores exactly 0: no frames, unvoiced frames, or quiet ones")
    func silence() throws {
        let track = try scoringTrack(try #require(songs["golden notes and seven lines"]))
        #expect(score(track, []) == ScorePoints())
        #expect(score(track, trace(track, level: -90, voiced: false)) == ScorePoints())
    }

    @Test("golden beats are worth double and are counted as golden points")
    func golden() throws {
        // Weight 4 of normal beats and 2 × 4 of golden ones: 9,000 is shared as 3,000 and 6,000.
        let track = try scoringTrack(head + ": 0 4 0 la\n- 5\n* 6 4 2 lo\n")
        let normalOnly = score(track, trace(track, only: [.normal]))
        #expect(normalOnly == ScorePoints(notes: 3000, golden: 0, lineBonus: 500))
        let goldenOnly = score(track, trace(track, only: [.golden]))
        #expect(goldenOnly == ScorePoints(notes: 0, golden: 6000, lineBonus: 500))
    }

    @Test("a beat is a hit when at least half of its frames hit")
    func halfTheFrames() throws {
        let track = try scoringTrack(head + ": 0 2 0 la\n")
        // Beat 0 is 1000…1100 ms: two of four frames on pitch is a hit; beat 1: one of four is not.
        let beat0 = [1010.0, 1030, 1050, 1070].enumerated().map {
            PitchFrame(time: $0.element, midi: $0.offset < 2 ? 60 : 66, level: -20)
        }
        let beat1 = [1110.0, 1130, 1150, 1170].enumerated().map {
            PitchFrame(time: $0.element, midi: $0.offset < 1 ? 60 : 66, level: -20)
        }
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .hard)
        sing(beat0 + beat1, to: &keeper)
        #expect(keeper.progress.hitBeats == [0])
        #expect(keeper.lineResults.map(\.accuracy) == [0.5])
    }

    @Test(
        "a beat without frames takes the frame nearest its middle, if that is within 40 ms",
        arguments: [
            ([(1040.0, 60.0)], [2]), // 22.5 ms before beat 2's middle; 47.5 ms from beat 3's
            ([(1120, 60)], [3]), // 57.5 ms after beat 2's middle; 32.5 ms after beat 3's
            ([(1062, 60)], [2, 3]), // in beat 2, and 25.5 ms from beat 3's middle
            ([(1028, 66), (1095, 60)], [2, 3]), // for beat 2 the nearer one, on pitch, wins
            ([(1045, 66), (1100, 60)], [3]), // for beat 2 the nearer one is off pitch
            ([(1010, 60), (1140, 60)], []), // too far from both
        ] as [([(Double, Double)], Set<Int>)])
    func nearestFrame(frames: [(Double, Double)], hits: Set<Int>) throws {
        // BPM 600 makes a beat 25 ms: the note at beat 2 spans 1050…1075 and 1075…1100 (middles 1062.5, 1087.5).
        let track = try scoringTrack("#BPM:600\n#GAP:1000\n: 2 2 0 la\n")
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .hard)
        sing(frames.map { PitchFrame(time: $0.0, midi: $0.1, level: -20) }, to: &keeper)
        #expect(keeper.progress.hitBeats == hits)
    }
}

@Suite("Scoring rap, freestyle and lines")
struct ScoreKeeperKindTests {
    @Test(
        "a rap note is scored on loudness alone, voiced or not, whatever the pitch",
        arguments: [
            (-20.0, true, 5.0, 10_000), // loud and off pitch
            (-30, false, 0, 10_000), // loud, no pitch heard
            (-45, false, 0, 10_000), // just at the threshold
            (-46, true, 0, 0), // on pitch but too quiet
            (-90, false, 0, 0),
        ])
    func rap(level: Double, voiced: Bool, semitones: Double, expected: Int) throws {
        let track = try scoringTrack(head + "R 0 4 0 yo\n- 5\nG 6 2 3 yeah\n")
        let points = score(track, trace(track, semitones: semitones, level: level, voiced: voiced), difficulty: .hard)
        #expect(points.total == expected)
    }

    @Test("golden rap beats count double as golden points")
    func goldenRap() throws {
        // Weight 4 of rap and 2 × 2 of golden rap: half of 9,000 each.
        let track = try scoringTrack(head + "R 0 4 0 yo\n- 5\nG 6 2 3 yeah\n")
        let goldenOnly = score(track, trace(track, voiced: false, only: [.goldenRap]))
        #expect(goldenOnly == ScorePoints(notes: 0, golden: 4500, lineBonus: 500))
    }

    @Test("freestyle notes are never scored: they share no points and a line of them takes no line bonus")
    func freestyle() throws {
        let track = try scoringTrack(head + ": 0 4 0 la\nF 4 4 7 free\n- 9\nF 10 4 0 free\n")
        #expect(score(track, trace(track, only: [.normal])).total == 10_000)
        #expect(score(track, trace(track, only: [.freestyle])).total == 0)
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .easy)
        sing(trace(track), to: &keeper)
        #expect(keeper.lineResults.map(\.line) == [0])
        #expect(keeper.isFinished)
    }

    @Test("each line earns its share of the 1,000 bonus times its accuracy, and its grade when its last beat is judged")
    func lineBonus() throws {
        // Four lines of four beats; the singer hits 4, 3, 1 and 0 beats of them.
        let track = try scoringTrack(head + ": 0 4 0 a\n- 5\n: 6 4 0 b\n- 11\n: 12 4 0 c\n- 17\n: 18 4 0 d\n")
        let frames = trace(track).filter { frame in
            let beat = Int(track.beat(at: frame.time))
            return beat < 4 || (6..<9).contains(beat) || beat == 12
        }
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .medium)
        sing(frames, to: &keeper)
        #expect(keeper.lineResults.map(\.accuracy) == [1, 0.75, 0.25, 0])
        #expect(keeper.lineResults.map(\.grade) == [.perfect, .good, .shaky, .missed])
        // 8 of 16 beats: 4,500 note points; the bonus is 250 × (1 + 0.75 + 0.25 + 0) = 500.
        #expect(keeper.progress.points == ScorePoints(notes: 4500, golden: 0, lineBonus: 500))
        #expect(keeper.progress.lastLine?.line == 3)
    }

    @Test("a note that runs into the next one is cut at its start, so each beat is one note's")
    func overlappingNotes() throws {
        // Beats 0…3 of `a` overlap `b` at 2…3 (a file's mistake): `a` is sung for 0…1 and `b` for 2…3.
        let track = try scoringTrack(head + ": 0 4 0 a\n: 2 2 5 b\n")
        let frames = stride(from: 1005.0, to: 1400, by: 10).map {
            PitchFrame(time: $0, midi: $0 < 1200 ? 60 : 65, level: -20)
        }
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .hard)
        sing(frames, to: &keeper)
        #expect(keeper.progress.hitBeats == [0, 1, 2, 3])
        #expect(keeper.progress.points.total == 10_000)
    }

    @Test("a line is judged once its last beat ended 120 ms ago, and says when")
    func lineJudgedAt() throws {
        let track = try scoringTrack(head + ": 0 4 0 a\n- 5\n: 6 4 0 b\n")
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .medium)
        for frame in trace(track) { keeper.hear(frame) }
        // Line 0 ends at beat 4, 1400 ms; it is judged from 1520 ms on.
        keeper.judge(through: 1519)
        #expect(keeper.progress.lastLine == nil)
        #expect(keeper.progress.judgedThrough == 3)
        keeper.judge(through: 1530)
        #expect(keeper.progress.lastLine == LineResult(line: 0, accuracy: 1, grade: .perfect, judgedAt: 1530))
        #expect(keeper.progress.judgedThrough == 4)
        #expect(!keeper.isFinished)
        keeper.judge(through: 2120)
        #expect(keeper.progress.lastLine?.line == 1)
        #expect(keeper.isFinished)
        #expect(keeper.progress.points.total == 10_000)
    }
}

@Suite("Scoring over time")
struct ScoreKeeperTimeTests {
    /// Three lines of four beats, at 1000, 2000 and 3000 ms.
    static let song = head + ": 0 4 0 a\n- 5\n: 10 4 0 b\n- 15\n: 20 4 0 c\n"

    @Test("beats skipped by a seek forward get no frames and are misses")
    func seekForward() throws {
        let track = try scoringTrack(Self.song)
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .medium)
        let frames = trace(track)
        // The singer sings the first line, the song jumps from 1500 to 2900 ms, and the singer sings on.
        sing(frames.filter { $0.time < 1500 }, to: &keeper, until: 1500)
        keeper.judge(through: 2900)
        for frame in frames where frame.time >= 2900 { keeper.hear(frame) }
        keeper.judge(through: 5000)
        #expect(keeper.lineResults.map(\.accuracy) == [1, 0, 1])
        #expect(keeper.progress.points == ScorePoints(notes: 6000, golden: 0, lineBonus: 667))
    }

    @Test("a seek back never judges a beat again")
    func seekBack() throws {
        let track = try scoringTrack(Self.song)
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .medium)
        let frames = trace(track)
        sing(frames.filter { $0.time < 1500 }, to: &keeper, until: 1500)
        // At 2600 ms the second line (2000…2400 ms) is judged: missed.
        keeper.judge(through: 2600)
        let before = keeper.progress.points
        #expect(before.total > 0)
        // Back to 1800 ms: the second line, missed, is sung now; it stays missed.
        keeper.judge(through: 1800)
        for frame in frames where frame.time >= 1800 && frame.time < 2500 { keeper.hear(frame) }
        keeper.judge(through: 2600)
        #expect(keeper.progress.points == before)
        #expect(keeper.lineResults.map(\.accuracy) == [1, 0])
        #expect(keeper.progress.judgedThrough == 14)
    }

    @Test(
        "frames that arrive after their beat ended still count within the lateness, and are dropped after it",
        arguments: [(60.0, true), (110, true), (140, false), (400, false)])
    func lateFrames(delay: Double, counted: Bool) throws {
        let track = try scoringTrack(head + ": 0 1 0 a\n")
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .medium)
        // The beat spans 1000…1100 ms; its frames reach the keeper `delay` ms after it ended.
        keeper.judge(through: 1100 + delay)
        for frame in trace(track) { keeper.hear(frame) }
        keeper.judge(through: 1100 + delay + 1)
        keeper.judge(through: 3000)
        #expect(keeper.progress.hitBeats == (counted ? [0] : []))
    }

    @Test("frames may arrive a little out of order")
    func outOfOrder() throws {
        let track = try scoringTrack(Self.song)
        var frames = trace(track)
        for index in stride(from: 0, to: frames.count - 1, by: 2) { frames.swapAt(index, index + 1) }
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .hard)
        for chunk in stride(from: 0, to: frames.count, by: 4) {
            for frame in frames[chunk..<min(chunk + 4, frames.count)] { keeper.hear(frame) }
            keeper.judge(through: frames[chunk].time)
        }
        keeper.judge(through: 9000)
        #expect(keeper.progress.points.total == 10_000)
    }

    @Test("the trail keeps the frames of the last 8 s in time order, and starts again after a seek back")
    func trail() throws {
        let track = try scoringTrack(Self.song)
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .medium)
        for time in stride(from: 0.0, through: 20_000, by: 10) {
            keeper.hear(PitchFrame(time: time, midi: 60, level: -20))
        }
        let trail = keeper.progress.trail
        #expect(trail.first?.time == 12_000)
        #expect(trail.last?.time == 20_000)
        #expect(trail.map(\.time) == trail.map(\.time).sorted())
        keeper.hear(PitchFrame(time: 5000, midi: 60, level: -20))
        #expect(keeper.progress.trail.map(\.time) == [5000])
    }

    @Test("a keeper of a song of huge or hostile numbers neither crashes nor hangs")
    func hostile() throws {
        let track = try scoringTrack("#BPM:0,0001\n#GAP:-5000\n: 0 999999999 0 la\n: 999999999 999999999 5 lo\n")
        var keeper = ScoreKeeper(track: track, part: nil, difficulty: .easy)
        keeper.hear(PitchFrame(time: 10, midi: .infinity, level: .nan))
        keeper.hear(PitchFrame(time: .nan, midi: 60, level: 0))
        keeper.hear(PitchFrame(time: 20, midi: 1e300, level: 0))
        keeper.judge(through: .infinity)
        keeper.judge(through: 1e300)
        keeper.judge(through: .nan)
        #expect(keeper.progress.points.total >= 0)
    }
}

@Suite("Scoring a duet")
struct ScoreKeeperDuetTests {
    /// P1 and P2 a tritone apart, each with a line of their own, and a P3 line both sing.
    static let duet = head + "P1\n: 0 4 0 a\n- 5\n: 10 4 0 b\nP2\n: 5 4 6 c\n- 10\n: 15 4 6 d\nP3\n: 20 4 3 e\n"

    @Test("each part is scored on its own lines and the lines sung together")
    func partsSeparately() throws {
        let track = try scoringTrack(Self.duet)
        let p1 = trace(track, part: .part(0)), p2 = trace(track, part: .part(1))
        #expect(score(track, p1, part: .part(0), difficulty: .hard).total == 10_000)
        #expect(score(track, p2, part: .part(1), difficulty: .hard).total == 10_000)
        // Singing the other part hits only the P3 line: a third of the weight and of the bonus.
        #expect(score(track, p2, part: .part(0), difficulty: .hard) == ScorePoints(notes: 3000, lineBonus: 333))
        #expect(score(track, p1, part: .part(1), difficulty: .hard) == ScorePoints(notes: 3000, lineBonus: 333))
    }

    @Test("both singers get a result for the line sung together, by its index in the track")
    func togetherLine() throws {
        let track = try scoringTrack(Self.duet)
        let together = try #require(track.lines.firstIndex { $0.voice == .together })
        for part in track.parts {
            var keeper = ScoreKeeper(track: track, part: part, difficulty: .medium)
            sing(trace(track, part: part), to: &keeper)
            #expect(keeper.lineResults.count == 3)
            #expect(keeper.lineResults.last?.line == together)
            #expect(keeper.progress.part == part)
        }
    }

    @Test("each part of the bundled duet sung on pitch scores 10,000, and silence 0")
    func bundledDuet() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("lyrics/harbour-bells.txt")
        let bytes = try #require(FileManager.default.contents(atPath: file.path))
        let song = try #require(UltraStarParser.parse(Array(bytes), file: "harbour-bells.txt").song)
        let track = try #require(song.notes)
        #expect(track.parts == [.part(0), .part(1)])
        #expect(track.lines.contains { $0.voice == .together })
        for part in track.parts {
            for difficulty in Difficulty.allCases {
                #expect(score(track, trace(track, part: part), part: part, difficulty: difficulty).total == 10_000)
                #expect(score(track, [], part: part, difficulty: difficulty).total == 0)
            }
        }
    }
}
