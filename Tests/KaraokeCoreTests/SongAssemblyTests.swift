import Testing
@testable import KaraokeCore

@Suite("Song assembly")
struct SongAssemblyTests {
    // MARK: Ends

    @Test("a line ends where the next line starts")
    func lineEndsAtNextStamp() throws {
        let song = try #require(LRC.parse("[00:01.00]a\n[00:03.50]b\n[00:04.00]c").song)
        #expect(song.lines.map(\.end).prefix(2) == [3_500, 4_000])
        #expect(song.lines.map(\.endIsEstimated) == [false, false, true])
    }

    @Test("a timestamp with empty text ends the line before it and is not shown")
    func endMarker() throws {
        let song = try #require(
            LRC.parse(
                """
                [00:01.00]sung
                [00:03.00]
                [00:10.00]after a break
                [00:12.00]   
                """
            ).song)
        #expect(LRC.timeline(song) == [TimedText(1_000, "sung"), TimedText(10_000, "after a break")])
        #expect(song.lines.map(\.end) == [3_000, 12_000])
        #expect(song.lines.map(\.endIsEstimated) == [false, false])
    }

    @Test("an end marker at the same stamp as a line neither hides it nor becomes its translation")
    func endMarkerAtSameStamp() throws {
        let song = try #require(LRC.parse("[00:01.00]a\n[00:05.00]\n[00:05.00]b\n[00:07.00]").song)
        #expect(LRC.timeline(song) == [TimedText(1_000, "a"), TimedText(5_000, "b")])
        #expect(song.lines.map(\.translations) == [[], []])
        #expect(song.lines.map(\.end) == [5_000, 7_000])
    }

    @Test("the last line ends at [length:] when that is later than its estimate")
    func lastLineEndsAtLength() throws {
        let song = try #require(LRC.parse("[length:01:00.00]\n[00:10.00]a\n[00:20.00]last").song)
        #expect(song.lines.last?.end == 60_000)
        #expect(song.lines.last?.endIsEstimated == true)
        #expect(song.endTime == 60_000)
    }

    @Test("[length:] is in playback time: the file's offset moves it into file time")
    func lengthWithOffset() throws {
        let song = try #require(LRC.parse("[offset:-1000]\n[length:01:00]\n[00:20.00]last").song)
        #expect(song.lines.last?.end == 59_000)
        #expect(song.duration == 60_000)
    }

    @Test(
        "without a later [length:] the last line ends after the documented estimate from its width",
        arguments: [
            (file: "[00:20.00]last", end: 20_000 + SongAssembly.lastLineEstimate(width: 4)),
            (file: "[00:20.00]\(String(repeating: "x", count: 45))", end: 20_000 + 4_500),
            // A [length:] before the line's start says nothing about it.
            (file: "[length:00:10]\n[00:20.00]last", end: 22_000),
            // A [length:] only just after the start would cut the line short of its estimate.
            (file: "[length:00:20.50]\n[00:20.00]last", end: 22_000),
            // Wide characters count their cells: 30 ideographs are 60 cells.
            (file: "[00:20.00]\(String(repeating: "歌", count: 30))", end: 26_000),
        ])
    func lastLineEstimate(file: String, end: Int) throws {
        let song = try #require(LRC.parse(file).song)
        #expect(song.lines.last?.end == end)
        #expect(song.lines.last?.endIsEstimated == true)
    }

    @Test(
        "the estimate for the last line is at least 2 s and 0.1 s a cell",
        arguments: [
            (width: 0, milliseconds: 2_000), (width: 1, milliseconds: 2_000), (width: 20, milliseconds: 2_000),
            (width: 21, milliseconds: 2_100), (width: 80, milliseconds: 8_000),
        ])
    func estimateFormula(width: Int, milliseconds: Int) {
        #expect(SongAssembly.lastLineEstimate(width: width) == milliseconds)
    }

    @Test("a word-timed last line lasts past its last word tag")
    func wordTimedLastLine() throws {
        let song = try #require(LRC.parse("[00:01.00]<00:01.00>a <00:09.00>b<00:10.00>").song)
        let line = try #require(song.lines.last)
        #expect(line.end > 10_000)
        #expect(line.segments.last?.end == 10_000)
    }

    // MARK: Translations

    @Test("lines that share a timestamp: the first in the file is sung, the others are its translations")
    func translations() throws {
        let result = LRC.parse(
            """
            [00:05.00]Hello
            [00:10.00]Goodbye
            [00:05.00]Bonjour
            [00:10.00]Au revoir
            [00:05.00]Hallo
            """)
        let song = try #require(result.song)
        #expect(LRC.timeline(song) == [TimedText(5_000, "Hello"), TimedText(10_000, "Goodbye")])
        #expect(song.lines.map(\.translations) == [["Bonjour", "Hallo"], ["Au revoir"]])
        #expect(song.lines[0].end == 10_000)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("translations of a line with several leading stamps follow it to every stamp")
    func translationsOfRepeatedLine() throws {
        let song = try #require(LRC.parse("[00:01.00][00:09.00]Chorus\n[00:01.00][00:09.00]Refrain").song)
        #expect(LRC.timeline(song) == [TimedText(1_000, "Chorus"), TimedText(9_000, "Chorus")])
        #expect(song.lines.map(\.translations) == [["Refrain"], ["Refrain"]])
    }

    @Test("a word-timed sung line keeps its segments and its translations carry only text")
    func wordTimedWithTranslation() throws {
        let song = try #require(
            LRC.parse(
                """
                [00:01.00]<00:01.00>la <00:02.00>di
                [00:01.00]<00:01.00>ra <00:02.00>da
                [00:03.00]
                """
            ).song)
        #expect(song.lines.count == 1)
        #expect(song.lines[0].segments.map(\.text) == ["la ", "di"])
        #expect(song.lines[0].translations == ["ra da"])
    }

    @Test("five or more lines at one stamp give one warning on the sung line")
    func manySharedStamps() throws {
        let fixture = MarkedLyrics(
            """
            [00:01.00]one
            [00:01.00]two
            [00:01.00]three
            [00:01.00]four
            [00:02.00]a
            [00:02.00]b
            [00:02.00]c
            [00:02.00]d
            [00:02.00]e
            """)
        let result = fixture.parse()
        let song = try #require(result.song)
        #expect(song.lines.map(\.translations.count) == [3, 4])
        let warnings = result.diagnostics.filter { $0.severity == .warning }
        #expect(
            warnings.map { LyricsPosition(line: $0.line, column: $0.column) } == [LyricsPosition(line: 5, column: 0)])
        #expect(
            warnings.first?.message
                == "5 lines share the timestamp [00:02.00]; the first is sung, the others are shown as translations")
    }

    // MARK: The median M and the sweep cap

    @Test(
        "M is the median of line-timed spans ended by a stamp",
        arguments: [
            // Spans 1, 2 and 9 s: the middle one.
            (file: "[00:00.00]a\n[00:01.00]b\n[00:03.00]c\n[00:12.00]d", median: 2_000),
            // An even count, 1, 2, 3 and 20 s: the mean of the two middle values.
            (file: "[00:00.00]a\n[00:01.00]b\n[00:03.00]c\n[00:06.00]d\n[00:26.00]e", median: 2_500),
            // The last line's estimated end does not count, even when [length:] sets it.
            (file: "[length:10:00]\n[00:00.00]a\n[00:01.00]b\n[00:04.00]c", median: 2_000),
            // An end marker ends a line as well as a stamp does, and the last line ended by one counts.
            (file: "[00:00.00]a\n[00:01.00]\n[00:10.00]b\n[00:12.00]", median: 1_500),
            // Word-timed lines are not line-timed: only a (4 s) and c (2 s) count.
            (file: "[00:00.00]a\n[00:04.00]<00:04.00>b\n[00:05.00]c\n[00:07.00]d", median: 3_000),
            // Translations do not add spans of their own.
            (file: "[00:00.00]a\n[00:00.00]A\n[00:00.00]Á\n[00:02.00]b\n[00:10.00]c", median: 5_000),
        ])
    func median(file: String, median: Int) throws {
        let song = try #require(LRC.parse(file).song)
        #expect(song.medianLineDuration == median)
    }

    @Test("without a line ended by a stamp there is no M and no cap")
    func noMedian() throws {
        let lonely = try #require(LRC.parse("[00:05.00]only line").song)
        #expect(lonely.medianLineDuration == nil)
        #expect(lonely.sweepCap == Int.max)
    }

    @Test("a song timed only word by word takes M from its word-timed lines, so an open segment is capped")
    func wordTimedMedian() throws {
        let song = try #require(
            LRC.parse(
                """
                [00:01.00]<00:01.00>a
                [00:03.00]<00:03.00>b
                [00:05.00]<00:05.00>c
                [01:00.00]<01:00.00>d
                """
            ).song)
        // Spans 2 s, 2 s and 55 s: M = 2 s, the cap 4 s, so "c" sweeps from 5 s to 9 s, not to 1:00.
        #expect(song.medianLineDuration == 2_000)
        #expect(LRC.segments(song.lines[2]) == [TimedSpan(5_000, 9_000, "c")])
        #expect(song.lines[2].end == 60_000)
    }

    @Test(
        "the sweep cap is max(2 s, 2 × M)",
        arguments: [
            (median: 500, cap: 2_000), // the 2 s floor
            (median: 1_000, cap: 2_000), // where the two meet
            (median: 1_001, cap: 2_002),
            (median: 4_000, cap: 8_000), // twice M
        ])
    func sweepCap(median: Int, cap: Int) {
        #expect(Song(metadata: SongMetadata(), lines: [], medianLineDuration: median).sweepCap == cap)
    }

    @Test("a long instrumental gap after one line does not move M")
    func gapDoesNotMoveMedian() throws {
        let song = try #require(
            LRC.parse(
                """
                [00:00.00]a
                [00:03.00]b
                [00:06.00]c
                [03:00.00]d
                [03:03.00]e
                """
            ).song)
        try #require(song.lines.count == 5)
        #expect(song.medianLineDuration == 3_000)
        #expect(song.lines[2].end == 180_000)
        #expect(LineFill.progress(of: song.lines[2], at: 12_000, cap: song.sweepCap) == 1)
    }

    // MARK: Offset

    @Test("an offset that moves lines before 0:00 gives one warning that counts them")
    func offsetBeforeZero() throws {
        let result = LRC.parse("[offset:+2500]\n[00:01.00]a\n[00:02.00]b\n[00:03.00]c")
        let song = try #require(result.song)
        #expect(song.metadata.offset == 2_500)
        #expect(result.diagnostics.count == 1)
        let warning = try #require(result.diagnostics.first)
        #expect(warning.severity == .warning)
        #expect(warning.line == 0)
        #expect(warning.message.hasPrefix("the offset 2500 ms moves 2 lines before 0:00"))
    }

    @Test("a negative offset delays lyrics and never moves them before 0:00")
    func negativeOffset() throws {
        let result = LRC.parse("[offset:-2500]\n[00:00.00]a\n[00:02.00]b")
        #expect(result.song != nil)
        #expect(result.diagnostics.isEmpty)
    }
}
