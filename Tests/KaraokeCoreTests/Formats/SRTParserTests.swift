import Foundation
import Testing
@testable import KaraokeCore

// MARK: - Shared by the subtitle parser tests

/// The properties every parsed song must have, whatever the file: checked on every song these tests parse.
enum SubtitleSongChecks {
    /// Expects lines sorted by start, shown text without control characters or extra spaces, ends after
    /// starts, and word segments that concatenate to the text, in order, inside their line.
    static func expectWellFormed(_ song: Song, _ name: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        expectSongInvariants(
            song, name, promises: [.trimmed, .singleSpaced, .statedEnds], sourceLocation: sourceLocation)
    }

    /// Parses a fixture in `format`, checks its song if there is one, and returns the result.
    static func parse(_ text: String, _ format: LyricFormat, sourceLocation: SourceLocation = #_sourceLocation)
        -> ParseResult
    {
        parse(bytes: Array(text.utf8), format, sourceLocation: sourceLocation)
    }

    /// Parses fixture bytes in `format`, checks its song if there is one, and returns the result.
    static func parse(bytes: [UInt8], _ format: LyricFormat, sourceLocation: SourceLocation = #_sourceLocation)
        -> ParseResult
    {
        let result = LyricsReader.parse(bytes, file: "t", format: format)
        if let song = result.song { expectWellFormed(song, sourceLocation: sourceLocation) }
        return result
    }

    /// The positions of the warnings, to compare with a fixture's `‸` marks.
    static func warningPositions(_ result: ParseResult) -> [LyricsPosition] {
        result.diagnostics.filter { $0.severity == .warning }.map { LyricsPosition(line: $0.line, column: $0.column) }
    }

    /// Each line's start, end and text.
    static func timeline(_ song: Song?) -> [TimedSpan] {
        (song?.lines ?? []).map { TimedSpan($0.start, $0.end, $0.text) }
    }

    /// One line's segments as start, end and text.
    static func segments(_ line: LyricLine?) -> [TimedSpan] {
        (line?.segments ?? []).map { TimedSpan($0.start, $0.end, $0.text) }
    }
}

/// The subtitle folders of the shared corpus (`../shared/corpus` beside the repository).
enum SubtitleCorpus {
    /// `../shared/corpus` beside the repository, or the folder `KARAOKE_CORPUS` names (for a worktree
    /// checked out elsewhere).
    static let root: URL =
        ProcessInfo.processInfo.environment["KARAOKE_CORPUS"].map { URL(fileURLWithPath: $0) }
        ?? LyricsCorpus.root

    /// Whether the corpus is there; the corpus tests skip when it is not.
    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("srt").path)
    }

    /// The files of one folder as `folder/name`, without the oracle files of other formats (`.js`
    /// WPT assertion lists and `.json` vtt.js results, which are expected results, not subtitles).
    static func files(_ folder: String) -> [String] {
        let path = root.appendingPathComponent(folder).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasSuffix(".js") && !$0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
    }

    /// The file's text as the program reads it (BOM and UTF-16 handled), invalid UTF-8 repaired;
    /// nil for a file that `SourceText` refuses as not text.
    static func text(_ name: String) throws -> [UInt8]? {
        let data = try Data(contentsOf: root.appendingPathComponent(name))
        guard case .success(let utf8) = SourceText.utf8(from: Array(data)) else { return nil }
        return Array(String(decoding: utf8, as: UTF8.self).utf8)
    }

    /// The file's bytes with each NUL turned into U+FFFD, as the WebVTT standard reads them.
    static func textWithNULsReplaced(_ name: String) throws -> [UInt8] {
        let data = try Data(contentsOf: root.appendingPathComponent(name))
        return Array(data).flatMap { $0 == 0 ? [0xEF, 0xBF, 0xBD] : [$0] }
    }
}

// MARK: - SRT

@Suite("SRT parser")
struct SRTParserTests {
    @Test("a cue is a line from its start to its end, numbered or not")
    func cueIsALine() throws {
        let result = SubtitleSongChecks.parse(
            """
            1
            00:00:01,000 --> 00:00:02,500
            paper boats

            00:00:04,000 --> 00:00:06,000
            sail at dawn
            """, .srt)
        let song = try #require(result.song)
        #expect(
            SubtitleSongChecks.timeline(song) == [
                TimedSpan(1000, 2500, "paper boats"), TimedSpan(4000, 6000, "sail at dawn"),
            ])
        #expect(song.lines.map(\.sourceLine) == [2, 5])
        #expect(song.lines.allSatisfy { !$0.isWordTimed && $0.voice == nil && $0.translations.isEmpty })
        #expect(result.diagnostics.isEmpty)
    }

    @Test(
        "timing forms",
        arguments: [
            ("00:00:01,500", 1500), // the standard form
            ("00:00:01.500", 1500), // a dot instead of the comma
            ("0:00:01,500", 1500), // one digit of hours
            ("01:02:03,004", 3_723_004),
            ("00:00:01,5", 1500), // a fraction is a decimal fraction
            ("00:00:01,05", 1050),
            ("00:00:01", 1000), // no milliseconds at all
            ("00:01,250", 1250), // no hours
        ])
    func timingForms(stamp: String, milliseconds: Int) throws {
        let song = try #require(SubtitleSongChecks.parse("\(stamp) --> 10:00:00,000\nla\n", .srt).song)
        #expect(song.lines.first?.start == milliseconds)
    }

    @Test("position coordinates after the times are ignored")
    func coordinatesIgnored() throws {
        let result = SubtitleSongChecks.parse(
            "1\n00:00:01,000 --> 00:00:02,000 X1:40 X2:600 Y1:20 Y2:50\nhigh up\n", .srt)
        #expect(SubtitleSongChecks.timeline(result.song) == [TimedSpan(1000, 2000, "high up")])
        #expect(result.diagnostics.isEmpty)
    }

    @Test("the text lines of a cue are joined with a space, white space collapsed")
    func linesJoined() throws {
        let song = try #require(
            SubtitleSongChecks.parse("1\n00:00:01,000 --> 00:00:02,000\n  two\t\tlanterns  \nby   the river\n", .srt)
                .song)
        #expect(song.lines.map(\.text) == ["two lanterns by the river"])
    }

    @Test("styling tags are read past; other angle brackets and braces are text")
    func stylingTags() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                """
                1
                00:00:01,000 --> 00:00:02,000
                {\\an8}<i>quiet</i> <B>loud</B> <u>under</u> <s>gone</s>
                <font color="#ff0000" face="Serif">red</font> I <3 you {sighs} a<b

                """, .srt
            ).song)
        #expect(song.lines.map(\.text) == ["quiet loud under gone red I <3 you {sighs} a<b"])
    }

    @Test("CRLF and lone CR end lines")
    func lineEnds() throws {
        for separator in ["\r\n", "\r"] {
            let text = [
                "1", "00:00:01,000 --> 00:00:02,000", "one", "", "2", "00:00:03,000 --> 00:00:04,000", "two", "",
            ]
            .joined(separator: separator)
            let result = SubtitleSongChecks.parse(text, .srt)
            #expect(
                SubtitleSongChecks.timeline(result.song) == [
                    TimedSpan(1000, 2000, "one"), TimedSpan(3000, 4000, "two"),
                ])
            #expect(result.diagnostics.isEmpty)
        }
    }

    @Test("a cue without a valid timing line is a warning and is skipped")
    func cueWithoutTiming() throws {
        let marked = MarkedLyrics(
            """
            1
            00:00:01,000 --> 00:00:02,000
            kept

            2
            ‸00:00:0x,000 --> 00:00:04,000
            lost to a typo

            3
            ‸stray words

            ‸orphan text

            4
            00:00:05,000 --> 00:00:06,000
            kept too
            """)
        let result = SubtitleSongChecks.parse(bytes: marked.bytes, .srt)
        #expect(result.song?.lines.map(\.text) == ["kept", "kept too"])
        #expect(SubtitleSongChecks.warningPositions(result) == marked.marks)
        #expect(result.diagnostics[0].message.contains("'00:00:0x,000 --> 00:00:04,000'"))
        #expect(result.diagnostics[1].message.contains("cue '3' has no timing line"))
        #expect(result.diagnostics[2].message.contains("'orphan text'"))
    }

    @Test("sequence numbers may be missing, wrong, or lack the blank line before them")
    func sequenceNumbers() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                """
                7
                00:00:01,000 --> 00:00:02,000
                first
                3
                00:00:03,000 --> 00:00:04,000
                second
                00:00:05,000 --> 00:00:06,000
                third
                """, .srt
            ).song)
        #expect(song.lines.map(\.text) == ["first", "second", "third"])
    }

    @Test("a line of digits in a cue's text is text unless a timing line follows")
    func digitsAsText() throws {
        let song = try #require(
            SubtitleSongChecks.parse("1\n00:00:01,000 --> 00:00:02,000\ncount to\n99\n\n", .srt).song)
        #expect(song.lines.map(\.text) == ["count to 99"])
    }

    @Test("cues are sorted by start and keep their own ends, overlaps included")
    func sortedWithOwnEnds() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                """
                00:00:05,000 --> 00:00:09,000
                later

                00:00:01,000 --> 00:00:07,000
                earlier and long
                """, .srt
            ).song)
        #expect(
            SubtitleSongChecks.timeline(song) == [
                TimedSpan(1000, 7000, "earlier and long"), TimedSpan(5000, 9000, "later"),
            ])
    }

    @Test("an empty cue is not shown")
    func emptyCue() throws {
        let song = try #require(
            SubtitleSongChecks.parse(
                "00:00:01,000 --> 00:00:02,000\n<i></i>\n\n00:00:03,000 --> 00:00:04,000\nla\n", .srt
            ).song)
        #expect(song.lines.map(\.text) == ["la"])
    }

    @Test("control characters never reach the text")
    func controlCharacters() throws {
        let song = try #require(
            SubtitleSongChecks.parse("00:00:01,000 --> 00:00:02,000\nbell\u{7}\u{1B}]52;x\u{202E}end\n", .srt).song)
        #expect(song.lines.map(\.text) == ["bell]52;xend"])
    }

    @Test("a file without a timed cue has no song and says why")
    func noSong() {
        let result = SubtitleSongChecks.parse("just some words\n", .srt)
        #expect(result.song == nil)
        #expect(result.diagnostics.last?.severity == .error)
        #expect(result.diagnostics.last?.message.contains("-->") == true)
    }

    @Test("hostile input is read in one pass", arguments: ["<font", "{\\", "<", "1\n", "-->\n"])
    func hostileInput(piece: String) {
        let text = "00:00:01,000 --> 00:00:02,000\n" + String(repeating: piece, count: 200_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure { _ = LyricsReader.parse(Array(text.utf8), file: "t", format: .srt) }
        // A guard against quadratic work (minutes), not a speed test: under ASan on a loaded machine
        // one pass takes many times longer than alone.
        #expect(elapsed < .seconds(90))
    }

    @Test("at most 100 warnings are kept, then a count")
    func warningLimit() {
        let text = String(repeating: "stray\n\n", count: 150) + "00:00:01,000 --> 00:00:02,000\nla\n"
        let result = SubtitleSongChecks.parse(text, .srt)
        #expect(result.song != nil)
        #expect(result.diagnostics.count == 101)
        #expect(result.diagnostics.last?.message == "50 more warnings not shown")
    }
}

@Suite("SRT parser on the shared corpus", .enabled(if: SubtitleCorpus.isAvailable, "../shared/corpus is not there"))
struct SRTCorpusTests {
    // Every SRT file of the corpus is valid. `astisub__example-out.srt` is go-astisub's expected
    // re-serialisation of `example-in.srt`, but it is SRT itself, so it is read like the others and must
    // give the same lines (checked below).
    @Test("every SRT file gives a well-formed song", arguments: SubtitleCorpus.files("srt"))
    func everyFile(name: String) throws {
        let utf8 = try #require(try SubtitleCorpus.text(name))
        #expect(LyricFormat.detect(utf8: utf8, fileName: name) == .srt)
        let result = LyricsReader.parse(utf8, file: name)
        let song = try #require(result.song, "\(result.diagnostics)")
        SubtitleSongChecks.expectWellFormed(song, name)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    @Test("the go-astisub inputs give the lines of its expected output")
    func matchesOracle() throws {
        func lines(_ name: String) throws -> [TimedSpan] {
            SubtitleSongChecks.timeline(
                LyricsReader.parse(try #require(try SubtitleCorpus.text(name)), file: name).song)
        }
        let expected = try lines("srt/astisub__example-out.srt")
        #expect(expected.count == 6)
        #expect(expected.first == TimedSpan(99_000, 101_040, "(deep rumbling)"))
        for input in [
            "srt/astisub__example-in.srt", "srt/astisub__missing-sequence-in.srt",
            "srt/astisub__example-in-non-utf8.srt",
        ] {
            let read = try lines(input)
            #expect(read == expected, "\(input)")
        }
    }
}
