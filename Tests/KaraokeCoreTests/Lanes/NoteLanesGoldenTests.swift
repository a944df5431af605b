import Foundation
import Testing
@testable import KaraokeCore

/// Whole 80×24 screens with the note lanes and the final score card, checked in as golden text
/// (DESIGN §15.3, §15.4); `RECORD_GOLDEN=1` rewrites them and fails on purpose.
@Suite("Golden frames with note lanes")
struct NoteLanesGoldenTests {
    /// The solo fixture's song, track and composer at 80×24.
    static func soloComposer(reduceMotion: Bool = false) throws -> (FrameComposer, NoteTrack) {
        let song = try LaneFixtures.song(title: "Golden Song", parts: [LaneFixtures.solo])
        let track = LaneFixtures.track(parts: [LaneFixtures.solo])
        var options = FrameOptions()
        options.reduceMotion = reduceMotion
        let composer = FrameComposer(
            song: song, fallbackTitle: "lanes.txt", columns: 80, rows: 24, options: options,
            lanes: NoteLanes(track: track, parts: [nil]))
        return (composer, track)
    }

    @Test("solo, mid-line: hit and missed beats, a golden note part hit, the trail sung an octave low")
    func soloMidLine() throws {
        var (composer, track) = try NoteLanesGoldenTests.soloComposer()
        let hits = Array(0...3) + Array(8...13) + [16, 17]
        let singer = LaneFixtures.progress(
            part: nil, track: track, hits: hits, judgedThrough: 18, from: 0, off: [4, 5, 6, 7, 14, 15], octave: -1,
            points: 2340)
        let frame = composer.frame(at: LaneFixtures.seconds(atBeat: 18.5), singers: [singer])
        try GoldenFrameTests.check(frame, golden: "lanes-solo-80x24-mid-line")
    }

    @Test("reduce motion: the second line as a page, the first line's grade in the status bar")
    func reducedPage() throws {
        var (composer, track) = try NoteLanesGoldenTests.soloComposer(reduceMotion: true)
        var singer = LaneFixtures.progress(
            part: nil, track: track, hits: [32, 33, 34, 36, 37, 38, 39, 44, 45, 46, 47], judgedThrough: 48, from: 30,
            off: [35], points: 4210)
        singer.lastLine = LineResult(line: 0, accuracy: 0.9, grade: .great, judgedAt: track.time(ofBeat: 30))
        let frame = composer.frame(at: LaneFixtures.seconds(atBeat: 48.2), singers: [singer])
        try GoldenFrameTests.check(frame, golden: "lanes-solo-80x24-reduced")
    }

    @Test("a duet: one strip per singer in their inks, both scores in the status bar")
    func duet() throws {
        let parts = LaneFixtures.duet
        let song = try LaneFixtures.song(title: "Two Voices", parts: parts)
        let track = LaneFixtures.track(parts: parts)
        var composer = FrameComposer(
            song: song, fallbackTitle: "lanes.txt", columns: 80, rows: 24, options: FrameOptions(),
            lanes: NoteLanes(track: track, parts: [.part(0), .part(1)]))
        var first = LaneFixtures.progress(
            part: .part(0), track: track, hits: Array(0...9) + Array(12...19), judgedThrough: 20, from: 0,
            points: 1200)
        first.lastLine = LineResult(line: 0, accuracy: 0.9, grade: .great, judgedAt: track.time(ofBeat: 20))
        let second = LaneFixtures.progress(
            part: .part(1), track: track, hits: [24, 25, 26, 30, 31], judgedThrough: 33, from: 24,
            off: [27, 28, 29, 32],
            points: 450)
        let frame = composer.frame(at: LaneFixtures.seconds(atBeat: 33.4), singers: [first, second])
        try GoldenFrameTests.check(frame, golden: "lanes-duet-80x24")
    }

    @Test("the final card of a duet: title, each singer's score and rating, their line grades, the keys")
    func finalCard() throws {
        let card = ScoreCard(
            title: "Two Voices — The Lanes",
            entries: [
                ScoreCard.Entry(
                    part: .part(0), name: "Ana", points: ScorePoints(notes: 6120, golden: 900, lineBonus: 640),
                    grades: [.perfect, .great, .great, .good, .missed]),
                ScoreCard.Entry(
                    part: .part(1), points: ScorePoints(notes: 3020, golden: 180, lineBonus: 300),
                    grades: [.good, .fair, .shaky, .fair]),
            ])
        try GoldenFrameTests.check(
            card.frame(columns: 80, rows: 24, options: FrameOptions()), golden: "score-card-80x24")
    }
}
