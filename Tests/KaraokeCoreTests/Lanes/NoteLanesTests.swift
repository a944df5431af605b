import Testing
@testable import KaraokeCore

@Suite("Note lanes: a pitch's row")
struct LaneScaleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var range: ClosedRange<Int>
        var rows: Int
        var pitch: Double
        var row: Int
        var testDescription: String { "\(pitch) in \(range) on \(rows) rows is row \(row)" }
    }

    @Test(
        "a pitch lands on the row of the line's scale",
        arguments: [
            // A range narrower than the strip: one row per semitone, centred (0…4 on 7 rows sits on rows 1…5).
            Case(range: 0...4, rows: 7, pitch: 0, row: 1), Case(range: 0...4, rows: 7, pitch: 4, row: 5),
            Case(range: 0...4, rows: 7, pitch: 2, row: 3),
            // A single pitch sits in the middle.
            Case(range: 5...5, rows: 8, pitch: 5, row: 3),
            // A range within an octave but taller than the strip is compressed: lowest at the bottom, highest on top.
            Case(range: 0...9, rows: 7, pitch: 0, row: 0), Case(range: 0...9, rows: 7, pitch: 9, row: 6),
            Case(range: 0...9, rows: 7, pitch: 3, row: 2),
            // Wider than an octave: folded into the octave above the lowest note, then compressed.
            Case(range: 0...19, rows: 7, pitch: 12, row: 0), Case(range: 0...19, rows: 7, pitch: 19, row: 4),
            Case(range: 0...19, rows: 7, pitch: 7, row: 4),
            // Outside the range: moved by octaves towards its middle first.
            Case(range: 0...4, rows: 7, pitch: 14, row: 3), Case(range: 0...4, rows: 7, pitch: -12, row: 1),
            // Still outside after folding: held to the strip's edge.
            Case(range: 0...4, rows: 7, pitch: 7, row: 6), Case(range: 0...4, rows: 7, pitch: -3, row: 0),
            // A sung pitch between semitones rounds to the nearer row.
            Case(range: 0...4, rows: 7, pitch: 2.4, row: 3), Case(range: 0...4, rows: 7, pitch: 2.6, row: 4),
        ])
    func rowOfPitch(_ c: Case) {
        #expect(LaneScale(range: c.range, rows: c.rows).row(of: c.pitch) == c.row)
    }

    @Test("a sung pitch in any octave is drawn on the row of the note being sung", arguments: [-3, -2, -1, 1, 2])
    func trailFoldsToTheNote(octaves: Int) {
        let scale = LaneScale(range: 0...9, rows: 6)
        for note in [0, 3, 9] {
            let sung = Double(note + 12 * octaves)
            #expect(scale.row(of: sung, near: Double(note)) == scale.row(of: Double(note)))
        }
    }

    @Test("in a range wider than an octave, pitches an octave apart share a row", arguments: [0, 2, 5, 7, 11])
    func foldedOctavesShareARow(pitch: Int) {
        let scale = LaneScale(range: -5...14, rows: 8)
        #expect(scale.isFolded)
        #expect(scale.row(of: Double(pitch)) == scale.row(of: Double(pitch + 12)))
    }

    @Test("every pitch lands inside the strip", arguments: [1, 4, 5, 8])
    func rowsStayInTheStrip(rows: Int) {
        for range in [0...0, -3...2, 0...11, -10...20] {
            let scale = LaneScale(range: range, rows: rows)
            for pitch in stride(from: -40.0, through: 40, by: 0.7) {
                #expect((0..<rows).contains(scale.row(of: pitch)), "\(pitch) in \(range)")
            }
        }
    }

    @Test("a line with only freestyle notes is drawn on the scale of middle C")
    func noPitchedNotes() {
        #expect(LaneScale(range: nil, rows: 5) == LaneScale(range: 0...0, rows: 5))
    }
}

@Suite("Note lanes: where beats fall")
struct LaneWindowTests {
    /// The solo fixture's lanes.
    static let lanes = NoteLanes(track: LaneFixtures.track(parts: [LaneFixtures.solo]), parts: [nil])

    @Test(
        "a column stands for one beat, or more when beats are shorter than 40 ms",
        arguments: [(50.0, 1), (40.0, 1), (30.0, 2), (15.0, 3), (10.0, 4)])
    func beatsPerColumn(millisecondsPerBeat: Double, expected: Int) {
        let lanes = NoteLanes(track: NoteTrack(millisecondsPerBeat: millisecondsPerBeat, gap: 0, lines: []), parts: [])
        #expect(lanes.beatsPerColumn == expected)
    }

    @Test("now is a quarter across the strip and the beat being sung sits on it", arguments: [0.0, 7.5, 18.2, 63.9])
    func nowColumn(beat: Double) {
        let window = LaneWindowTests.lanes.window(at: beat, page: nil, areaStart: 2, areaWidth: 76, reduceMotion: false)
        #expect(window.nowColumn == 2 + 19)
        #expect(window.column(of: beat) == 21)
        #expect(window.columns(ofBeat: Int(beat.rounded(.down))) == 21...21)
    }

    @Test("one beat later every note has moved one column left", arguments: [0, 5, 17, 40])
    func scrollsRightToLeft(beat: Int) {
        let lanes = LaneWindowTests.lanes
        let now = lanes.window(at: Double(beat) + 0.3, page: nil, areaStart: 2, areaWidth: 76, reduceMotion: false)
        let later = lanes.window(at: Double(beat) + 1.3, page: nil, areaStart: 2, areaWidth: 76, reduceMotion: false)
        for note in [beat - 10, beat, beat + 3, beat + 40] {
            #expect(later.column(of: Double(note)) == now.column(of: Double(note)) - 1)
        }
        // The past a quarter of the width, the future three quarters.
        #expect(now.beats.lowerBound == beat - 19)
        #expect(now.beats.upperBound >= beat + 57)
    }

    @Test("with two beats to a column, a beat pair shares one column and moves every second beat")
    func twoBeatsPerColumn() {
        let lanes = NoteLanes(track: NoteTrack(millisecondsPerBeat: 25, gap: 0, lines: []), parts: [])
        let window = lanes.window(at: 10.5, page: nil, areaStart: 0, areaWidth: 80, reduceMotion: false)
        #expect(window.column(of: 10) == window.column(of: 11))
        #expect(window.column(of: 12) == window.column(of: 10) + 1)
        let later = lanes.window(at: 11.5, page: nil, areaStart: 0, areaWidth: 80, reduceMotion: false)
        #expect(later == window)
    }

    @Test("under reduce motion the current line is a page across the width that stays put while it is sung")
    func pageAcrossTheWidth() throws {
        let lanes = LaneWindowTests.lanes
        let lines = lanes.lines(for: nil)
        for beat in [32.0, 40.5, 59.9] {
            let line = try #require(NoteLanes.currentLine(of: lines, at: beat))
            #expect(line.firstBeat == 32)
            let window = lanes.window(at: beat, page: line, areaStart: 2, areaWidth: 76, reduceMotion: true)
            #expect(window.nowColumn == nil)
            #expect(window.columns(ofBeat: 32).lowerBound == 2)
            #expect(window.columns(ofBeat: line.endBeat - 1).upperBound == 77)
        }
    }

    @Test(
        "the page turns when the next line starts, and shows the first line before it",
        arguments: [
            (-5.0, 0), (0.0, 0), (31.9, 0), (32.0, 32), (63.9, 32), (64.0, 64), (200.0, 64),
        ])
    func pageTurns(beat: Double, firstBeat: Int) throws {
        let lines = LaneWindowTests.lanes.lines(for: nil)
        #expect(try #require(NoteLanes.currentLine(of: lines, at: beat)).firstBeat == firstBeat)
    }
}
