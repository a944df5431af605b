import Foundation
import Testing
@testable import KaraokeCore

@Suite("WebVTT parser")
struct WebVTTParserTests {
    @Test("a cue is a line from its start to its end; identifiers and settings are read past")
    func cueIsALine() throws {
        let result = SubtitleSongChecks.parse(
            """
            WEBVTT - a song of my own

            intro
            00:01.000 --> 00:02.500 align:start position:10%
            morning tide

            01:00:04.000 --> 01:00:06.000
            evening tide
            """, .webvtt)
        let song = try #require(result.song)
        #expect(
            SubtitleSongChecks.timeline(song) == [
                TimedSpan(1000, 2500, "morning tide"),
                TimedSpan(3_604_000, 3_606_000, "evening tide"),
            ])
        #expect(song.lines.map(\.sourceLine) == [4, 7])
        #expect(result.diagnostics.isEmpty)
    }

    @Test("header lines, NOTE, STYLE and REGION blocks are skipped quietly")
    func blocksSkipped() throws {
        let result = SubtitleSongChecks.parse(
            """
            WEBVTT
            Kind: captions
            Language: en

            NOTE written by hand
            over two lines

            STYLE
            ::cue { color: lime }

            REGION
            id:left width:40%

            00:00:01.000 --> 00:00:02.000
            only this

            NOTE trailing remark
            """, .webvtt)
        #expect(result.song?.lines.map(\.text) == ["only this"])
        #expect(result.diagnostics.isEmpty)
    }

    @Test("a timing line right under the header starts a cue")
    func timingUnderHeader() throws {
        let song = try #require(
            SubtitleSongChecks.parse("WEBVTT\n00:00:01.000 --> 00:00:02.000\nright away", .webvtt).song)
        #expect(song.lines.map(\.text) == ["right away"])
    }

    @Test("inline timestamps are word tags: the first piece from the cue's start, the last to its end")
    func inlineTimestamps() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                """
                WEBVTT

                00:00:10.000 --> 00:00:14.000
                one <00:00:11.000>two <00:11.500>three
                four
                """, .webvtt
            ).song)
        let line = try #require(song.lines.first)
        #expect(line.text == "one two three four")
        #expect(
            SubtitleSongChecks.segments(line) == [
                TimedSpan(10_000, 11_000, "one "), TimedSpan(11_000, 11_500, "two "),
                TimedSpan(11_500, 14_000, "three four"),
            ])
    }

    @Test("word tags wrapped in class spans, as caption tools write them")
    func classSpans() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                """
                WEBVTT

                00:00:01.000 --> 00:00:03.000
                <00:00:01.000><c> sun</c><00:00:02.000><c> and</c><00:00:02.500><c> rain</c>
                """, .webvtt
            ).song)
        #expect(
            SubtitleSongChecks.segments(song.lines.first) == [
                TimedSpan(1000, 2000, "sun "),
                TimedSpan(2000, 2500, "and "), TimedSpan(2500, 3000, "rain"),
            ])
    }

    @Test("word tags outside the cue or running backwards are moved, with a warning")
    func tagsClamped() throws {
        let marked = MarkedLyrics(
            """
            WEBVTT

            00:00:05.000 --> 00:00:08.000
            ‸<00:00:04.000>early <00:00:07.000>mid ‸<00:00:06.000>back ‸<00:00:09.000>late
            """)
        let result = SubtitleSongChecks.parse(bytes: marked.bytes, .webvtt)
        #expect(SubtitleSongChecks.warningPositions(result) == marked.marks)
        #expect(
            SubtitleSongChecks.segments(result.song?.lines.first) == [
                TimedSpan(5000, 7000, "early "), TimedSpan(7000, 7000, "mid "), TimedSpan(7000, 8000, "back "),
                TimedSpan(8000, 8000, "late"),
            ])
    }

    @Test(
        "formatting tags are read past and ruby readings are dropped",
        arguments: [
            ("<c.yellow.bg_blue>gold</c> leaf", "gold leaf"),
            ("<i>soft</i> <b>strong</b> <u>low</u>", "soft strong low"),
            ("<lang en-GB>colour</lang>", "colour"),
            ("<ruby>星<rt>ほし</rt></ruby>空", "星空"),
            ("<ruby>月<rt>つき</ruby>夜", "月夜"), // `</ruby>` also ends the reading
            ("<unknown attr>kept</unknown>", "kept"),
            ("text then <unclosed tag", "text then"), // a tag runs to the end of its line
        ])
    func tagsReadPast(cueText: String, shown: String) throws {
        let song = try #require(
            SubtitleSongChecks.parse("WEBVTT\n\n00:01.000 --> 00:02.000\n\(cueText)\n", .webvtt).song)
        #expect(song.lines.map(\.text) == [shown])
    }

    @Test(
        "character references are decoded",
        arguments: [
            ("fish &amp; chips", "fish & chips"),
            ("&lt;3 &gt;", "<3 >"),
            ("a&nbsp;b", "a\u{A0}b"),
            ("&lrm;x&rlm;", "\u{200E}x\u{200F}"),
            ("&#65;&#x42;&#X43;", "ABC"),
            ("&#27;[2J", "[2J"), // a decoded control character is still dropped
            ("&bogus; & &amp", "&bogus; & &amp"), // not a reference: text
        ])
    func entities(cueText: String, shown: String) throws {
        let song = try #require(
            SubtitleSongChecks.parse("WEBVTT\n\n00:01.000 --> 00:02.000\n\(cueText)\n", .webvtt).song)
        #expect(song.lines.map(\.text) == [shown])
    }

    @Test("<v Name> sets the line's voice, parts numbered by first appearance")
    func voices() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                """
                WEBVTT

                00:01.000 --> 00:02.000
                <v Mara>first verse</v>

                00:03.000 --> 00:04.000
                <v.loud Jon Bell>reply

                00:05.000 --> 00:06.000
                <v Mara>again

                00:07.000 --> 00:08.000
                nobody said
                """, .webvtt
            ).song)
        #expect(song.lines.map(\.voice) == [.part(0), .part(1), .part(0), nil])
        #expect(song.lines.map(\.text) == ["first verse", "reply", "again", "nobody said"])
    }

    @Test("a line with an arrow ends the cue before it and starts the next block")
    func arrowEndsCue() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                """
                WEBVTT

                00:01.000 --> 00:02.000
                one
                00:03.000 --> 00:04.000
                two
                """, .webvtt
            ).song)
        #expect(song.lines.map(\.text) == ["one", "two"])
    }

    @Test("bad timing lines and stray text are warnings; the rest plays")
    func badCues() throws {
        let marked = MarkedLyrics(
            """
            WEBVTT

            ‸00:00:0x.000 --> 00:00:02.000
            lost

            ‸words without a time

            00:00:03.000 --> 00:00:04.000
            kept
            """)
        let result = SubtitleSongChecks.parse(bytes: marked.bytes, .webvtt)
        #expect(result.song?.lines.map(\.text) == ["kept"])
        #expect(SubtitleSongChecks.warningPositions(result) == marked.marks)
    }

    @Test(
        "a short or missing fraction is read with a warning; a comma is not WebVTT",
        arguments: [
            ("00:00:01.5 --> 00:00:02.000", 1500 as Int?),
            ("00:00:01.25 --> 00:00:02.000", 1250),
            ("00:00:01 --> 00:00:02.000", 1000),
            ("00:00:01,000 --> 00:00:02.000", nil),
            ("00:01 --> 00:00:02.000", nil), // minutes and seconds alone need their fraction
        ])
    func lenientFraction(timing: String, start: Int?) {
        let result = SubtitleSongChecks.parse("WEBVTT\n\n\(timing)\nla\n", .webvtt)
        #expect(result.song?.lines.first?.start == start)
        #expect(result.diagnostics.contains { $0.severity == .warning })
    }

    @Test("a file without the WEBVTT header is read, with a warning")
    func missingHeader() throws {
        let result = SubtitleSongChecks.parse("00:01.000 --> 00:02.000\nno header\n", .webvtt)
        #expect(result.song?.lines.map(\.text) == ["no header"])
        #expect(result.diagnostics.map(\.message) == ["missing 'WEBVTT' header; read as WebVTT anyway"])
    }

    @Test("a file without a timed cue has no song and says why")
    func noSong() {
        let result = SubtitleSongChecks.parse("WEBVTT\n\nNOTE nothing here\n", .webvtt)
        #expect(result.song == nil)
        #expect(result.diagnostics.last?.severity == .error)
    }

    @Test("hostile input is read in one pass", arguments: ["<", "&", "&#", "<00:00:01.000>", "x\n", "-->\n", "\n"])
    func hostileInput(piece: String) {
        let text = "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n" + String(repeating: piece, count: 200_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = LyricsReader.parse(Array(text.utf8), file: "t", format: .webvtt) }
        // A guard against quadratic work (minutes), not a speed test: under ASan on a loaded machine
        // one pass takes many times longer than alone.
        #expect(elapsed < .seconds(90))
    }
}

@Suite("WebVTT parser on the shared corpus", .enabled(if: SubtitleCorpus.isAvailable, "../shared/corpus is not there"))
struct WebVTTCorpusTests {
    /// How many lines each `.vtt` of the corpus gives; nil where the file gives no song.
    ///
    /// Where the file has a WPT (`.js`) or vtt.js (`.json`) expectation, the count is its cue count
    /// unless a comment says why it differs.
    static let expectedLines: [String: Int?] = [
        "vtt/astisub__example-in-carriage-return.vtt": 3,
        "vtt/astisub__example-in-non-utf8.vtt": 6, // 2-digit fractions: read, with warnings
        "vtt/vttjs-cuetimes__max-spots-over-sixty.vtt": 1, // 120 hours, as vtt.js reads it
        // vtt.js reads `120:00.000` as 120 hours; the WebVTT standard (and WPT timings-too-long)
        // refuses a 3-digit first field without hours. We follow the standard: no song.
        "vtt/vttjs-cuetimes__minimum-spots-over-sixty.vtt": nil,
        "vtt/vttjs-timestamp__out-of-cue-range.vtt": 1,
        "vtt/w3c-webvtt__arrows.vtt": 6,
        "vtt/w3c-webvtt__header-timings.vtt": 1,
        "vtt/w3c-webvtt__newlines.vtt": 4,
        "vtt/w3c-webvtt__nulls.vtt": nil, // NUL bytes: not text to SourceText (see below)
        "vtt/w3c-webvtt__signature-bom.vtt": nil, // a header and no cue at all
        "vtt/w3c-webvtt__timestamps.vtt": nil, // NUL bytes: not text to SourceText (see below)
        "vtt/w3c-webvtt__timings-60.vtt": 2,
        "vtt/w3c-webvtt__timings-eof.vtt": nil, // the file ends inside its only timing line
        "vtt/w3c-webvtt__timings-garbage.vtt": nil, // every timing line is broken on purpose
        "vtt/w3c-webvtt__timings-negative.vtt": 4,
        "vtt/w3c-webvtt__timings-omitted-hours.vtt": 3,
        "vtt/w3c-webvtt__timings-too-long.vtt": 2,
        // WPT expects 2: we also read the 5 cues whose fraction has 1 or 2 digits or is missing
        // (`00:00:00.00`, `00:00:00.0`, `00:00:00`, `00:00.00`, `00:00.0`), each with a warning.
        "vtt/w3c-webvtt__timings-too-short.vtt": 7,
        "vtt/w3c-webvtt__whitespace-chars.vtt": 3,
    ]

    @Test("every WebVTT file gives the expected lines, well formed", arguments: SubtitleCorpus.files("vtt"))
    func everyFile(name: String) throws {
        let expected = try #require(Self.expectedLines[name], "a corpus file this test does not know: \(name)")
        guard let utf8 = try SubtitleCorpus.text(name) else {
            #expect(expected == nil, "\(name) is not text to SourceText")
            return
        }
        #expect(LyricFormat.detect(utf8: utf8, fileName: name) == .webvtt)
        let result = LyricsReader.parse(utf8, file: name)
        #expect(result.song?.lines.count == expected, "\(result.diagnostics)")
        if let song = result.song { SubtitleSongChecks.expectWellFormed(song, name) }
        if result.song == nil { #expect(result.diagnostics.last?.severity == .error) }
    }

    @Test("WPT nulls: with NULs read as U+FFFD, as the standard says, the 7 expected cues")
    func nulls() throws {
        let result = LyricsReader.parse(
            try SubtitleCorpus.textWithNULsReplaced("vtt/w3c-webvtt__nulls.vtt"),
            file: "nulls.vtt", format: .webvtt)
        let song = try #require(result.song)
        SubtitleSongChecks.expectWellFormed(song)
        #expect(
            song.lines.map(\.text) == ["text0", "text1", "\u{FFFD}text\u{FFFD}2", "text3", "text4", "text5", "text6"])
    }

    @Test("WPT timestamps: broken inline timestamps hide their text; good ones are word tags")
    func timestamps() throws {
        let result = LyricsReader.parse(
            try SubtitleCorpus.textWithNULsReplaced("vtt/w3c-webvtt__timestamps.vtt"),
            file: "timestamps.vtt", format: .webvtt)
        let song = try #require(result.song)
        SubtitleSongChecks.expectWellFormed(song)
        // The first six cues hold only a tag (an unclosed `<` runs to the end of its line): no text.
        #expect(song.lines.map(\.text) == ["testtest", "testtest", "testtest", "testtest"])
        #expect(song.lines.allSatisfy { $0.segments.map(\.text) == ["test", "test"] })
    }

    @Test(
        "the WPT cue texts match, tags aside",
        arguments: [
            ("vtt/w3c-webvtt__arrows.vtt", (0..<6).map { "text\($0)" }),
            ("vtt/w3c-webvtt__newlines.vtt", (0..<4).map { "text\($0)" }),
            ("vtt/w3c-webvtt__timings-negative.vtt", (0..<4).map { "text\($0)" }),
            ("vtt/w3c-webvtt__whitespace-chars.vtt", (0..<3).map { "text\($0)" }),
        ])
    func cueTexts(name: String, texts: [String]) throws {
        let utf8 = try #require(try SubtitleCorpus.text(name))
        #expect(LyricsReader.parse(utf8, file: name).song?.lines.map(\.text) == texts)
    }
}
