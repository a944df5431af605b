import Foundation
import Testing
@testable import KaraokeCore

/// An ASS script around some event lines, with the usual header.
private func script(title: String = "Harbour Song", _ events: String) -> String {
    """
    [Script Info]
    ; a comment
    Title: \(title)
    ScriptType: v4.00+

    [V4+ Styles]
    Format: Name, Fontname, Fontsize, PrimaryColour
    Style: Default,Arial,20,&H00FFFFFF

    [Events]
    Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
    \(events)
    """
}

@Suite("ASS parser")
struct ASSParserTests {
    @Test("a dialogue line is a line from its start to its end; the title comes from Script Info")
    func dialogueIsALine() throws {
        let result = SubtitleSongChecks.parse(
            script(
                """
                Dialogue: 0,0:00:01.00,0:00:02.50,Default,,0,0,0,,ropes and sails
                Dialogue: 0,1:02:03.04,1:02:05.00,Default,,0,0,0,,a, b, and c
                """), .ass)
        let song = try #require(result.song)
        #expect(song.metadata.title == "Harbour Song")
        #expect(
            SubtitleSongChecks.timeline(song) == [
                TimedSpan(1000, 2500, "ropes and sails"),
                TimedSpan(3_723_040, 3_725_000, "a, b, and c"),
            ])
        #expect(song.lines.map(\.sourceLine) == [12, 13])
        #expect(song.lines.allSatisfy { $0.voice == nil && !$0.isWordTimed })
        #expect(result.diagnostics.isEmpty)
    }

    @Test("Aegisub's placeholder title is no title")
    func placeholderTitle() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                script(
                    title: "Default Aegisub file",
                    "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,la"), .ass
            ).song)
        #expect(song.metadata.title == nil)
    }

    @Test("the Format line gives the field order; the usual order without one")
    func formatOrder() throws {
        let custom = SubtitleSongChecks.parse(
            """
            [Events]
            Format: End, Effect, Start, Text
            Dialogue: 0:00:03.00,,0:00:01.00,first, with a comma
            """, .ass)
        #expect(SubtitleSongChecks.timeline(custom.song) == [TimedSpan(1000, 3000, "first, with a comma")])
        let usual = SubtitleSongChecks.parse(
            "[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,no format line\n", .ass)
        #expect(SubtitleSongChecks.timeline(usual.song) == [TimedSpan(1000, 2000, "no format line")])
    }

    @Test("SSA v4 events with a Marked field")
    func ssaMarked() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                """
                [Script Info]
                ScriptType: v4.00

                [Events]
                Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
                Dialogue: Marked=0,0:00:04.00,0:00:05.00,*Default,,0000,0000,0000,,old style
                """, .ass
            ).song)
        #expect(SubtitleSongChecks.timeline(song) == [TimedSpan(4000, 5000, "old style")])
    }

    @Test("karaoke tags make segments, each from the running time", arguments: ["k", "K", "kf", "ko"])
    func karaokeTags(tag: String) throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                script(
                    "Dialogue: 0,0:00:10.00,0:00:12.00,Default,,0,0,0,,{\\\(tag)50}sea {\\\(tag)25}and {\\\(tag)100}sky"
                ), .ass
            ).song)
        let line = try #require(song.lines.first)
        #expect(line.text == "sea and sky")
        #expect(
            SubtitleSongChecks.segments(line) == [
                TimedSpan(10_000, 10_500, "sea "), TimedSpan(10_500, 10_750, "and "),
                TimedSpan(10_750, 11_750, "sky"),
            ])
    }

    @Test("text before the first karaoke tag is a zero-length segment at the line's start")
    func leadIn() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                script(
                    "Dialogue: 0,0:00:10.00,0:00:12.00,Default,,0,0,0,,(all) {\\k50}row {\\k50}on"), .ass
            ).song)
        #expect(
            SubtitleSongChecks.segments(song.lines.first) == [
                TimedSpan(10_000, 10_000, "(all) "),
                TimedSpan(10_000, 10_500, "row "), TimedSpan(10_500, 11_000, "on"),
            ])
    }

    @Test("syllables past the line's end are cut at it")
    func syllablesClamped() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                script(
                    "Dialogue: 0,0:00:10.00,0:00:11.00,Default,,0,0,0,,{\\k80}long {\\k80}longer {\\k80}gone"), .ass
            ).song)
        #expect(
            SubtitleSongChecks.segments(song.lines.first) == [
                TimedSpan(10_000, 10_800, "long "),
                TimedSpan(10_800, 11_000, "longer "), TimedSpan(11_000, 11_000, "gone"),
            ])
    }

    @Test(
        "override blocks are read past; \\N, \\n and \\h are spaces; drawings are not text",
        arguments: [
            ("{\\pos(10,20)\\c&H00FF00&}green{\\r}", "green"),
            ("two\\Nrows\\nand\\ha space", "two rows and a space"),
            ("{a note to the typesetter}shown", "shown"),
            ("{\\p1}m 0 0 l 10 0 10 10{\\p0}after", "after"),
            ("back\\slash {unclosed", "back\\slash {unclosed"),
            ("{\\fnKomika\\fs20}styled", "styled"),
        ])
    func overridesReadPast(text: String, shown: String) throws {
        let song = try #require(
            SubtitleSongChecks.parse(script("Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,\(text)"), .ass).song)
        #expect(song.lines.map(\.text) == [shown])
    }

    @Test("Comment lines are skipped")
    func commentsSkipped() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                script(
                    """
                    Comment: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,not sung
                    Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,sung
                    Comment: 0,0:00:05.00,0:00:06.00,Default,,0,0,0,karaoke,{\\k10}also not sung
                    """), .ass
            ).song)
        #expect(song.lines.map(\.text) == ["sung"])
    }

    @Test("in a karaoke-templater file the karaoke comments are read and the fx lines skipped")
    func templaterFile() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                script(
                    """
                    Comment: 0,0:00:00.00,0:00:00.00,Default,,0,0,0,template syl,{\\pos($x,$y)}
                    Comment: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,karaoke,{\\k100}tide {\\k100}turns
                    Dialogue: 1,0:00:01.00,0:00:02.00,Default,,0,0,0,fx,{\\pos(100,50)\\an5}tide
                    Dialogue: 1,0:00:02.00,0:00:03.00,Default,,0,0,0,fx,{\\pos(200,50)\\an5}turns
                    Dialogue: 0,0:00:04.00,0:00:05.00,Default,,0,0,0,,a sign left alone
                    """), .ass
            ).song)
        #expect(song.lines.map(\.text) == ["tide turns", "a sign left alone"])
        #expect(
            SubtitleSongChecks.segments(song.lines.first) == [
                TimedSpan(1000, 2000, "tide "), TimedSpan(2000, 3000, "turns"),
            ])
    }

    @Test("furigana after | or ｜ is dropped and a # syllable continues the one before")
    func furigana() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                script(
                    "Dialogue: 0,0:00:01.00,0:00:05.00,Default,,0,0,0,,{\\k20}海|う{\\k30}#|み{\\k10}の{\\k40}波｜なみ"), .ass
            ).song)
        let line = try #require(song.lines.first)
        #expect(line.text == "海の波")
        #expect(
            SubtitleSongChecks.segments(line) == [
                TimedSpan(1000, 1500, "海"), TimedSpan(1500, 1600, "の"),
                TimedSpan(1600, 2000, "波"),
            ])
    }

    @Test("a | on a line without karaoke is text")
    func barWithoutKaraoke() throws {
        let song = try #require(
            SubtitleSongChecks.parse(script("Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,this | that"), .ass).song
        )
        #expect(song.lines.map(\.text) == ["this | that"])
    }

    @Test("a dialogue line with a bad time or too few fields is a warning and is skipped")
    func badLines() throws {
        let marked = MarkedLyrics(
            script(
                """
                Dialogue: 0,‸0:00:0x.00,0:00:02.00,Default,,0,0,0,,bad start
                Dialogue: 0,0:00:01.00,‸soon,Default,,0,0,0,,bad end
                ‸Dialogue: 0,0:00:01.00,0:00:02.00
                Dialogue: 0,0:00:03.00,0:00:04.00,Default,,0,0,0,,good
                """))
        let result = SubtitleSongChecks.parse(bytes: marked.bytes, .ass)
        #expect(result.song?.lines.map(\.text) == ["good"])
        // A warning about a whole line has column 0; the mark stands at its start.
        let positions = SubtitleSongChecks.warningPositions(result)
        #expect(positions.map(\.line) == marked.marks.map(\.line))
        #expect(positions.map(\.column) == [marked.marks[0].column, marked.marks[1].column, 0])
        #expect(result.diagnostics[0].message == "malformed time '0:00:0x.00'; expected 'h:mm:ss.cc'; line skipped")
    }

    @Test("a script without a dialogue line has no song and says why")
    func noSong() {
        let result = SubtitleSongChecks.parse(
            script("Comment: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,only a comment"), .ass)
        #expect(result.song == nil)
        #expect(result.diagnostics.last?.severity == .error)
    }

    @Test(
        "hostile input is read in one pass", arguments: ["{", "{\\k1}", "\\N", "|", "{\\k", "Dialogue: 0,0:00:01.00\n"])
    func hostileInput(piece: String) {
        let text = script(
            "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\k1}" + String(repeating: piece, count: 200_000))
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = LyricsReader.parse(Array(text.utf8), file: "t", format: .ass) }
        // A guard against quadratic work (minutes), not a speed test: under ASan on a loaded machine
        // one pass takes many times longer than alone.
        #expect(elapsed < .seconds(90))
    }
}

@Suite("ASS parser on the shared corpus", .enabled(if: SubtitleCorpus.isAvailable, "../shared/corpus is not there"))
struct ASSCorpusTests {
    // Every file here is valid ASS/SSA. `astisub__example-out.ssa` is go-astisub's expected
    // re-serialisation of `example-in.ssa`; it is SSA itself, so it is read like the others.
    @Test("every ASS/SSA file gives a well-formed song", arguments: SubtitleCorpus.files("ass"))
    func everyFile(name: String) throws {
        let utf8 = try #require(try SubtitleCorpus.text(name))
        #expect(LyricFormat.detect(utf8: utf8, fileName: name) == .ass)
        let result = LyricsReader.parse(utf8, file: name)
        let song = try #require(result.song, "\(result.diagnostics)")
        SubtitleSongChecks.expectWellFormed(song, name)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    @Test("the go-astisub input gives the lines of its expected output")
    func matchesOracle() throws {
        func lines(_ name: String) throws -> [TimedSpan] {
            SubtitleSongChecks.timeline(
                LyricsReader.parse(try #require(try SubtitleCorpus.text(name)), file: name).song)
        }
        let expected = try lines("ass/astisub__example-out.ssa")
        #expect(expected.count == 6)
        #expect(expected[1] == TimedSpan(124_080, 127_120, "MAN: How did we end up here?"))
        let input = try lines("ass/astisub__example-in.ssa")
        #expect(input == expected)
    }

    @Test("Aegisub's templater test: the \\k line is read, the template comments and the empty line are not")
    func templaterRetime() throws {
        let utf8 = try #require(try SubtitleCorpus.text("ass/aegisub__kara-templater-retime.ass"))
        let song = try #require(LyricsReader.parse(utf8, file: "retime.ass").song)
        #expect(song.metadata.title == nil) // "Default Aegisub file"
        #expect(song.lines.map(\.text) == ["hahiho"])
        #expect(
            SubtitleSongChecks.segments(song.lines.first) == [
                TimedSpan(10_000, 10_300, "ha"),
                TimedSpan(10_300, 10_500, "hi"), TimedSpan(10_500, 11_000, "ho"),
            ])
    }

    @Test("Aegisub's furigana test: readings dropped, # syllables joined, the untagged line line-timed")
    func furiganaTest() throws {
        let utf8 = try #require(try SubtitleCorpus.text("ass/aegisub__furi-test.ass"))
        let song = try #require(LyricsReader.parse(utf8, file: "furi.ass").song)
        #expect(song.lines.count == 9)
        #expect(song.lines.allSatisfy { !$0.text.contains("|") && !$0.text.contains("｜") && !$0.text.contains("#") })
        #expect(song.lines.dropLast().allSatisfy { $0.isWordTimed })
        #expect(song.lines.last.map { $0.text == "wee" && !$0.isWordTimed } == true)
    }
}
