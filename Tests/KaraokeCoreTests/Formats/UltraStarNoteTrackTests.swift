import Testing
@testable import KaraokeCore

/// The note track of UltraStar text given inline.
private func noteTrack(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> NoteTrack {
    let result = UltraStarParser.parse(Array(text.utf8), file: "t.txt")
    let song = try #require(result.song, "no song: \(result.diagnostics)", sourceLocation: sourceLocation)
    return try #require(song.notes, "no notes", sourceLocation: sourceLocation)
}

/// `(beat, length, pitch)` of a line's notes, for compact comparisons.
private func beats(_ line: NoteLine) -> [[Int]] { line.notes.map { [$0.beat, $0.length, $0.pitch] } }

/// A song head that makes one beat 100 ms (BPM 150 counts quarter beats: 60000 / (150 × 4) = 100).
private let head = "#TITLE:Song\n#ARTIST:Singer\n#BPM:150\n#GAP:0\n"

@Suite("UltraStar notes kept for scoring")
struct UltraStarNoteTrackTests {
    @Test(
        "each note type gives its kind",
        arguments: [
            (":", NoteKind.normal),
            ("*", .golden),
            ("F", .freestyle),
            ("R", .rap),
            ("G", .goldenRap),
        ])
    func kinds(letter: String, kind: NoteKind) throws {
        let track = try noteTrack(head + "\(letter) 0 2 5 la\nE\n")
        #expect(track.lines.count == 1)
        #expect(track.lines.first?.notes.map(\.kind) == [kind])
    }

    @Test("the beat grid is #GAP and 15000 / BPM, also when the BPM has a decimal comma")
    func beatGrid() throws {
        let track = try noteTrack("#BPM:312,5\n#GAP:1234,5\n: 0 2 0 la\n")
        #expect(track.millisecondsPerBeat == 15_000 / 312.5)
        #expect(track.gap == 1234.5)
        #expect(track.time(ofBeat: 10) == 1234.5 + 480)
    }

    @Test("a file without a usable #BPM is on the assumed tempo's grid")
    func assumedTempo() throws {
        let track = try noteTrack(": 0 2 0 la\n")
        #expect(track.millisecondsPerBeat == 50)
    }

    @Test(
        "pitches are kept as written, negative and high ones too",
        arguments: [0, -12, 7, 19, -30, 40])
    func pitches(pitch: Int) throws {
        let track = try noteTrack(head + ": 0 2 \(pitch) la\n")
        let note = try #require(track.lines.first?.notes.first)
        #expect(note.pitch == pitch)
        #expect(note.midiNote == pitch + 60)
    }

    @Test("each phrase is one line with its notes, lengths and the file line of its first note")
    func phrases() throws {
        let track = try noteTrack(head + ": 0 2 0 a\n: 2 3 2 b\n- 6\n: 8 1 4 c\n* 9 2 5 d\nE\n")
        #expect(track.lines.map(beats) == [[[0, 2, 0], [2, 3, 2]], [[8, 1, 4], [9, 2, 5]]])
        #expect(track.lines.map(\.sourceLine) == [5, 8])
        #expect(track.lines.map(\.voice) == [nil, nil])
        #expect(track.lines[1].notes.map(\.syllable) == ["c", "d"])
    }

    @Test("holds and notes without a syllable are notes too, also in a phrase that shows nothing")
    func holdsAndEmptySyllables() throws {
        let text = head + ": 0 2 0 la\n: 2 2 0 ~\n: 4 2 0 \n- 8\n: 10 2 3 ~\n: 12 2 3  \n- 16\n: 20 2 0 end\n"
        let result = UltraStarParser.parse(Array(text.utf8), file: "t.txt")
        let song = try #require(result.song)
        let track = try #require(song.notes)
        // The middle phrase shows nothing, so the song has two lyric lines but three note lines.
        #expect(song.lines.count == 2)
        #expect(
            track.lines.map(beats) == [
                [[0, 2, 0], [2, 2, 0], [4, 2, 0]], [[10, 2, 3], [12, 2, 3]], [[20, 2, 0]],
            ])
        #expect(track.lines[0].notes.map(\.syllable) == ["la", "~", ""])
    }

    @Test("notes written out of order are sorted by beat within their line, ties in file order")
    func notesSorted() throws {
        let track = try noteTrack(head + ": 4 2 1 c\n: 0 2 2 a\n: 4 1 3 d\n: 2 2 4 b\n")
        #expect(beats(track.lines[0]) == [[0, 2, 2], [2, 2, 4], [4, 2, 1], [4, 1, 3]])
    }

    @Test("relative beats become absolute, counted from each line break's last number")
    func relativeMode() throws {
        let track = try noteTrack(head + "#RELATIVE:yes\n: 0 2 0 a\n- 4 10\n: 0 2 1 b\n: 3 1 2 c\n- 5\n: 2 2 3 d\n")
        #expect(track.lines.map(beats) == [[[0, 2, 0]], [[10, 2, 1], [13, 1, 2]], [[17, 2, 3]]])
    }

    @Test("duet parts keep their voice, P3 is sung together, and lines are sorted by first beat")
    func duetParts() throws {
        let text =
            head + "P1\n: 0 2 0 a\n- 3\n: 10 2 0 b\nP2\n: 4 2 7 c\n- 7\n: 10 2 7 d\nP3\n: 20 2 4 e\nE\n"
        let track = try noteTrack(text)
        #expect(track.lines.map(\.firstBeat) == [0, 4, 10, 10, 20])
        // Lines on the same first beat keep file order: P1's before P2's.
        #expect(track.lines.map(\.voice) == [.part(0), .part(1), .part(0), .part(1), .together])
        #expect(track.lines.map { $0.notes.map(\.pitch) } == [[0], [7], [0], [7], [4]])
        #expect(track.parts == [.part(0), .part(1)])
        #expect(track.lines(for: .part(0)).map(\.firstBeat) == [0, 10, 20])
        #expect(track.lines(for: .part(1)).map(\.firstBeat) == [4, 10, 20])
    }

    @Test("each part counts relative beats from the song's start again")
    func relativeDuet() throws {
        let track = try noteTrack(head + "#RELATIVE:yes\nP1\n: 0 2 0 a\n- 4 10\n: 0 2 0 b\nP2\n: 1 2 0 c\n")
        #expect(track.lines.map(\.firstBeat) == [0, 1, 10])
        #expect(track.lines.map(\.voice) == [.part(0), .part(1), .part(0)])
    }

    @Test(
        "formats without notes leave the track out",
        arguments: [
            (LyricFormat.lrc, "[00:01.00]la\n"),
            (.srt, "1\n00:00:01,000 --> 00:00:02,000\nla\n"),
            (.webvtt, "WEBVTT\n\n00:01.000 --> 00:02.000\nla\n"),
        ])
    func otherFormats(format: LyricFormat, text: String) throws {
        let result = LyricsReader.parse(Array(text.utf8), file: "a", format: format)
        #expect(try #require(result.song).notes == nil)
    }
}
