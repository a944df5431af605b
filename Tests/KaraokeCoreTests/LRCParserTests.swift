import Foundation
import Testing
@testable import KaraokeCore

/// A place in a lyric file as diagnostics name it: 1-based line and 1-based byte column.
struct LyricsPosition: Equatable, CustomStringConvertible {
    var line: Int
    var column: Int
    var description: String { "\(line):\(column)" }
}

/// LRC fixture text with the expected diagnostic positions marked in it by `‸`.
///
/// The mark stands right before the byte a diagnostic should point at and is removed from the parsed
/// bytes, so `"[00:01.00]ok\n‸[01:7x.20]bad"` expects a diagnostic at 2:1.
struct MarkedLyrics {
    static let mark: [UInt8] = Array("‸".utf8)
    /// The fixture without its marks.
    var bytes: [UInt8] = []
    /// The marked positions in order.
    var marks: [LyricsPosition] = []

    init(_ text: String) {
        let source = Array(text.utf8)
        var line = 1, lineStart = 0, i = 0
        while i < source.count {
            if source[i...].starts(with: Self.mark) {
                marks.append(LyricsPosition(line: line, column: bytes.count - lineStart + 1))
                i += Self.mark.count
                continue
            }
            let byte = source[i]
            bytes.append(byte)
            i += 1
            // LF, CRLF and a lone CR each end a line, as in the parser.
            if byte == 0x0A || (byte == 0x0D && (i == source.count || source[i] != 0x0A)) {
                line += 1
                lineStart = bytes.count
            }
        }
    }

    /// The parse of the fixture.
    func parse() -> LRCParser.Result { LRCParser.parse(bytes, file: "t.lrc") }
}

/// Shortcuts for the parser tests.
enum LRC {
    /// Parses `text` as the UTF-8 of a file named `t.lrc`.
    static func parse(_ text: String) -> LRCParser.Result { LRCParser.parse(Array(text.utf8), file: "t.lrc") }

    /// The positions of the warnings of `result`, in order.
    static func warningPositions(_ result: LRCParser.Result) -> [LyricsPosition] {
        result.diagnostics.filter { $0.severity == .warning }.map { LyricsPosition(line: $0.line, column: $0.column) }
    }

    /// `(start, text)` of every line, for compact comparisons.
    static func timeline(_ song: Song) -> [TimedText] { song.lines.map { TimedText($0.start, $0.text) } }

    /// `(start, end, text)` of every segment of a line.
    static func segments(_ line: LyricLine) -> [TimedSpan] {
        line.segments.map { TimedSpan($0.start, $0.end, $0.text) }
    }
}

/// A start time with a text, compared as a pair.
struct TimedText: Equatable, CustomStringConvertible {
    var start: Int
    var text: String
    init(_ start: Int, _ text: String) { self.start = start; self.text = text }
    var description: String { "\(start) \(text.debugDescription)" }
}

/// A span of time with a text, compared as a triple.
struct TimedSpan: Equatable, CustomStringConvertible {
    var start: Int
    var end: Int
    var text: String
    init(_ start: Int, _ end: Int, _ text: String) { self.start = start; self.end = end; self.text = text }
    var description: String { "\(start)–\(end) \(text.debugDescription)" }
}

@Suite("LRC parser")
struct LRCParserTests {
    // MARK: Timestamps

    @Test(
        "every timestamp form found in the wild gives the right time",
        arguments: [
            (stamp: "[01:02]", milliseconds: 62_000), // no fraction
            (stamp: "[01:02.5]", milliseconds: 62_500), // tenths
            (stamp: "[01:02.34]", milliseconds: 62_340), // hundredths, the usual form
            (stamp: "[01:02.345]", milliseconds: 62_345), // milliseconds
            (stamp: "[01:02:34]", milliseconds: 62_340), // hundredths after a colon
            (stamp: "[01:02,34]", milliseconds: 62_340), // a decimal comma
            (stamp: "[1:02.34]", milliseconds: 62_340), // one digit of minutes
            (stamp: "[01:2.34]", milliseconds: 62_340), // one digit of seconds
            (stamp: "[00:00.00]", milliseconds: 0), // the very start
            (stamp: "[75:30.10]", milliseconds: 4_530_100), // minutes above 59
            (stamp: "[123:00.00]", milliseconds: 7_380_000), // three digits of minutes
            (stamp: "[+01:02.34]", milliseconds: 62_340), // an explicit plus sign
        ])
    func timestampForms(stamp: String, milliseconds: Int) throws {
        let result = LRC.parse("\(stamp)words")
        let song = try #require(result.song)
        #expect(LRC.timeline(song) == [TimedText(milliseconds, "words")])
        #expect(result.diagnostics.isEmpty)
    }

    @Test("a line with several leading timestamps is sung at each of them, in time order")
    func severalLeadingTimestamps() throws {
        let song = try #require(
            LRC.parse(
                """
                [00:30.00][00:10.00] [00:50.00]Chorus line
                [00:20.00]Verse
                """
            ).song)
        #expect(
            LRC.timeline(song) == [
                TimedText(10_000, "Chorus line"), TimedText(20_000, "Verse"), TimedText(30_000, "Chorus line"),
                TimedText(50_000, "Chorus line"),
            ])
        #expect(song.lines.map(\.sourceLine) == [1, 2, 1, 1])
    }

    @Test("the same stamp twice on one line sings the line once, with no copy as its translation")
    func repeatedStampOnOneLine() throws {
        let song = try #require(LRC.parse("[00:01.00][00:01.00][00:04.00]Echo\n[00:06.00]end").song)
        #expect(LRC.timeline(song) == [TimedText(1_000, "Echo"), TimedText(4_000, "Echo"), TimedText(6_000, "end")])
        #expect(song.lines.allSatisfy { $0.translations.isEmpty })
    }

    @Test("word tags are relative to the first leading timestamp and shift with each repeat")
    func wordTagsShiftWithRepeats() throws {
        let song = try #require(
            LRC.parse(
                """
                [00:10.00][01:10.00][00:05.00]<00:10.00>la <00:11.00>di<00:12.00>
                [02:00.00]
                """
            ).song)
        try #require(song.lines.count == 3)
        #expect(song.lines.map(\.start) == [5_000, 10_000, 70_000])
        #expect(LRC.segments(song.lines[0]) == [TimedSpan(5_000, 6_000, "la "), TimedSpan(6_000, 7_000, "di")])
        #expect(LRC.segments(song.lines[1]) == [TimedSpan(10_000, 11_000, "la "), TimedSpan(11_000, 12_000, "di")])
        #expect(LRC.segments(song.lines[2]) == [TimedSpan(70_000, 71_000, "la "), TimedSpan(71_000, 72_000, "di")])
    }

    // MARK: Metadata

    /// The text fields of `SongMetadata` that a tag fills.
    enum TextField: String, Sendable, CustomStringConvertible {
        case title, artist, album, author, creator
        var description: String { rawValue }
        func value(in metadata: SongMetadata) -> String? {
            switch self {
            case .title: metadata.title
            case .artist: metadata.artist
            case .album: metadata.album
            case .author: metadata.author
            case .creator: metadata.creator
            }
        }
    }

    @Test(
        "metadata tags are read in any letter case, with or without a space after the colon",
        arguments: [
            (tag: "[ti:Blue Moon]", field: TextField.title),
            (tag: "[TI: Blue Moon]", field: .title), // upper case, a space after the colon
            (tag: "[ar:Blue Moon]", field: .artist),
            (tag: "[Ar:  Blue Moon  ]", field: .artist), // mixed case, outer spaces trimmed
            (tag: "[al:Blue Moon]", field: .album),
            (tag: "[AL: Blue Moon]", field: .album),
            (tag: "[au:Blue Moon]", field: .author),
            (tag: "[aU: Blue Moon]", field: .author),
            (tag: "[by:Blue Moon]", field: .creator),
            (tag: "[BY: Blue Moon]", field: .creator),
        ])
    func metadataTags(tag: String, field: TextField) throws {
        let result = LRC.parse("\(tag)\n[00:01.00]la")
        let song = try #require(result.song)
        #expect(field.value(in: song.metadata) == "Blue Moon")
        #expect(result.diagnostics.isEmpty)
    }

    @Test("a tag's value runs to the last ']' of its line")
    func valueRunsToLastBracket() throws {
        let song = try #require(
            LRC.parse(
                """
                [ti:Songs [Live] (Remastered)]
                [ar:AC/DC]
                [00:01.00]la
                """
            ).song)
        #expect(song.metadata.title == "Songs [Live] (Remastered)")
        #expect(song.metadata.artist == "AC/DC")
    }

    @Test("an empty tag value leaves the field unset")
    func emptyValue() throws {
        let song = try #require(LRC.parse("[ti:]\n[ar: ]\n[00:01.00]la").song)
        #expect(song.metadata.title == nil)
        #expect(song.metadata.artist == nil)
    }

    @Test(
        "[length:] is read as mm:ss or mm:ss.xx",
        arguments: [
            (tag: "[length:03:25]", milliseconds: 205_000),
            (tag: "[length: 03:25.50]", milliseconds: 205_500),
            (tag: "[LENGTH:3:25]", milliseconds: 205_000),
        ])
    func lengthTag(tag: String, milliseconds: Int) throws {
        let result = LRC.parse("\(tag)\n[00:01.00]la")
        let song = try #require(result.song)
        #expect(song.metadata.length == milliseconds)
        #expect(result.diagnostics.isEmpty)
    }

    @Test(
        "[offset:] is milliseconds with an optional sign",
        arguments: [
            (tag: "[offset:500]", offset: 500),
            (tag: "[offset:+500]", offset: 500),
            (tag: "[offset:-500]", offset: -500),
            (tag: "[OFFSET:+250]", offset: 250), // any case
            (tag: "[oFfSeT:75]", offset: 75),
        ])
    func offsetTag(tag: String, offset: Int) throws {
        let result = LRC.parse("\(tag)\n[00:10.00]la")
        let song = try #require(result.song)
        #expect(song.metadata.offset == offset)
        #expect(result.diagnostics.isEmpty)
    }

    @Test(
        "check's lints: an offset over 10 s, and a space after the colon, are read and warned about",
        arguments: [
            (tag: "[offset:10000]", offset: 10_000, warnings: [String]()), // 10 s is not over
            (
                tag: "[offset:-10001]", offset: -10_001,
                warnings: ["1:9: warning: offset '-10001' is over 10 s (the value is in milliseconds)"]
            ),
            (
                tag: "[OFFSET: +250]", offset: 250,
                warnings: [
                    "1:9: warning: space after the colon in '[OFFSET: +250]', which some players misread; write '[offset:+250]'"
                ]
            ),
            (
                tag: "[offset:  -500]", offset: -500,
                warnings: [
                    "1:9: warning: space after the colon in '[offset:  -500]', which some players misread; write '[offset:-500]'"
                ]
            ),
            (tag: "[offset:-500 ]", offset: -500, warnings: []), // a space before the ']' is harmless
            (
                tag: "[offset: 20000]", offset: 20_000,
                warnings: [
                    "1:10: warning: offset '20000' is over 10 s (the value is in milliseconds)",
                    "1:9: warning: space after the colon in '[offset: 20000]', which some players misread; write '[offset:20000]'",
                ]
            ),
        ])
    func offsetLints(tag: String, offset: Int, warnings: [String]) throws {
        // The line is late enough that no offset here moves it before 0:00.
        let result = LRC.parse("\(tag)\n[00:30.00]la")
        let song = try #require(result.song)
        #expect(song.metadata.offset == offset)
        #expect(result.diagnostics.map { $0.description.replacingOccurrences(of: "t.lrc:", with: "") } == warnings)
    }

    @Test("a positive offset makes lyrics sooner and a negative one later")
    func offsetSign() throws {
        let sooner = try #require(LRC.parse("[offset:+500]\n[00:10.00]la").song)
        let later = try #require(LRC.parse("[offset:-500]\n[00:10.00]la").song)
        /// The current line at `seconds` of playback.
        func current(_ song: Song, at seconds: Double, userOffset: Int = 0) -> Int? {
            LyricClock.currentLine(
                in: song, at: LyricClock.fileTime(playback: seconds, song: song, userOffset: userOffset))
        }
        // Effective time = stamp − offset: the line shows at 9.5 s with +500 and at 10.5 s with −500.
        #expect(current(sooner, at: 9.49) == nil)
        #expect(current(sooner, at: 9.5) == 0)
        #expect(current(later, at: 10.49) == nil)
        #expect(current(later, at: 10.5) == 0)
        // The user's offset adds to the file's.
        #expect(current(later, at: 10.0, userOffset: 500) == 0)
    }

    @Test(
        "unknown and ignored tags are skipped without a warning",
        arguments: [
            "[re:Some Editor 1.0]", // the editor, known and ignored
            "[ve:1.0]", // its version
            "[#:a comment]", // a comment
            "[lang:eng]", // tags from other tools
            "[tool:LRC Maker]",
            "[attr1:]", // a key with a digit and no value
            "[attr2:value][attr3]", // two tags on one line: the value runs to the last ']'
            "[offset_ms:12]", // an underscore in the key
        ])
    func unknownTagsIgnored(tag: String) throws {
        let result = LRC.parse("\(tag)\n[00:01.00]la")
        let song = try #require(result.song)
        #expect(song.metadata == SongMetadata())
        #expect(result.diagnostics.isEmpty)
    }

    // MARK: Word timing

    @Test("Enhanced LRC word tags cut the text into segments, each with its trailing space")
    func enhancedSegments() throws {
        let song = try #require(
            LRC.parse(
                """
                [00:02.00]<00:02.00>la <00:03.00>la <00:05.00>land<00:06.00>
                [00:08.00]next
                """
            ).song)
        try #require(song.lines.count == 2)
        let line = song.lines[0]
        #expect(line.text == "la la land")
        #expect(line.isWordTimed)
        #expect(
            LRC.segments(line) == [
                TimedSpan(2_000, 3_000, "la "), TimedSpan(3_000, 5_000, "la "), TimedSpan(5_000, 6_000, "land"),
            ])
        #expect(line.end == 8_000)
        #expect(!song.lines[1].isWordTimed)
    }

    @Test("text before the first word tag is a segment that starts with the line")
    func textBeforeFirstTag() throws {
        let song = try #require(LRC.parse("[00:01.00]Hello <00:02.00>world<00:03.00>").song)
        #expect(LRC.segments(song.lines[0]) == [TimedSpan(1_000, 2_000, "Hello "), TimedSpan(2_000, 3_000, "world")])
    }

    @Test("an open last segment ends at the line's end")
    func openLastSegment() throws {
        let song = try #require(
            LRC.parse(
                """
                [00:01.00]<00:01.00>a <00:02.00>b
                [00:03.00]next
                """
            ).song)
        #expect(LRC.segments(song.lines[0]) == [TimedSpan(1_000, 2_000, "a "), TimedSpan(2_000, 3_000, "b")])
    }

    @Test("an open last segment before a long gap is capped at the sweep cap; the line still ends at the next stamp")
    func openLastSegmentCapped() throws {
        let song = try #require(
            LRC.parse(
                """
                [00:01.00]one
                [00:02.00]two
                [00:03.00]three
                [00:04.00]<00:04.00>word <00:04.50>timed
                [01:00.00]after the gap
                """
            ).song)
        try #require(song.lines.count == 5)
        #expect(song.medianLineDuration == 1_000)
        #expect(song.sweepCap == 2_000)
        let line = song.lines[3]
        #expect(line.end == 60_000)
        #expect(LRC.segments(line) == [TimedSpan(4_000, 4_500, "word "), TimedSpan(4_500, 6_500, "timed")])
    }

    @Test("inline [mm:ss.xx] tags after text are ESLyric word tags, not new lines")
    func esLyricWordTags() throws {
        let song = try #require(LRC.parse("[00:01.00]Hello [00:02.00]big [00:03.00]world[00:04.00]").song)
        #expect(song.lines.count == 1)
        let line = song.lines[0]
        #expect(line.text == "Hello big world")
        #expect(
            LRC.segments(line) == [
                TimedSpan(1_000, 2_000, "Hello "), TimedSpan(2_000, 3_000, "big "), TimedSpan(3_000, 4_000, "world"),
            ])
    }

    @Test("leading timestamps separated only by spaces are all line stamps")
    func leadingStampsWithSpaces() throws {
        let song = try #require(LRC.parse("[00:01.00] [00:02.00]  la").song)
        #expect(LRC.timeline(song) == [TimedText(1_000, "la"), TimedText(2_000, "la")])
        #expect(song.lines.allSatisfy { !$0.isWordTimed })
    }

    @Test("a space between the line stamp and the first word tag is not a segment")
    func spaceBeforeFirstWordTag() throws {
        let song = try #require(LRC.parse("[00:01.02] <00:02.50> Line 1\n[00:05.00]").song)
        let line = song.lines[0]
        #expect(line.text == "Line 1")
        #expect(LRC.segments(line) == [TimedSpan(2_500, 5_000, "Line 1")])
    }

    @Test("a word tag with a malformed time is dropped with a warning at its column")
    func malformedWordTag() throws {
        let fixture = MarkedLyrics("[00:01.00]<00:01.00>la ‸<00:7x.00>di <00:03.00>da\n[00:04.00]")
        let result = fixture.parse()
        let song = try #require(result.song)
        #expect(LRC.warningPositions(result) == fixture.marks)
        #expect(LRC.segments(song.lines[0]) == [TimedSpan(1_000, 3_000, "la di "), TimedSpan(3_000, 4_000, "da")])
    }

    @Test("a word tag earlier than the one before it is moved up with a warning")
    func wordTagGoingBack() throws {
        let fixture = MarkedLyrics("[00:01.00]<00:02.00>la ‸<00:01.50>di<00:03.00>")
        let result = fixture.parse()
        let song = try #require(result.song)
        #expect(LRC.warningPositions(result) == fixture.marks)
        #expect(LRC.segments(song.lines[0]) == [TimedSpan(2_000, 2_000, "la "), TimedSpan(2_000, 3_000, "di")])
    }

    @Test(
        "angle and square brackets that are not timestamps stay in the text",
        arguments: [
            (line: "[00:01.00][Chorus] la la", text: "[Chorus] la la"),
            (line: "[00:01.00]I <3 you <3", text: "I <3 you <3"),
            (line: "[00:01.00]a <b> c [d]", text: "a <b> c [d]"),
            (line: "[00:01.00]x < 3 and y > 2", text: "x < 3 and y > 2"),
        ])
    func bracketsInText(line: String, text: String) throws {
        let result = LRC.parse(line)
        let song = try #require(result.song)
        #expect(song.lines.map(\.text) == [text])
        #expect(!song.lines[0].isWordTimed)
        #expect(result.diagnostics.isEmpty)
    }

    // MARK: Text

    @Test("a line's outer spaces are trimmed")
    func outerSpacesTrimmed() throws {
        let song = try #require(LRC.parse("  [00:01.00]   la  la   ").song)
        #expect(song.lines.map(\.text) == ["la  la"])
    }

    @Test(
        "control characters are stripped from lyric text",
        arguments: [
            (raw: "a\tb", shown: "a b"), // a tab becomes a space
            (raw: "\u{1B}]52;x", shown: "]52;x"), // ESC dropped, the rest stays harmless text
            (raw: "a\u{1B}[31mred", shown: "a[31mred"), // a colour sequence loses its ESC
            (raw: "a\u{07}b\u{7F}c", shown: "abc"), // BEL and DEL
            (raw: "a\u{85}b\u{9B}c", shown: "abc"), // C1: NEL and CSI
            (raw: "a\u{202E}b\u{202A}c", shown: "abc"), // bidi override and embedding
            (raw: "a\u{2066}b\u{2069}c", shown: "abc"), // bidi isolates
            (raw: "a\u{200D}b", shown: "a\u{200D}b"), // a ZWJ is not a control: it stays
        ])
    func controlCharactersStripped(raw: String, shown: String) throws {
        let song = try #require(LRC.parse("[00:01.00]\(raw)").song)
        #expect(song.lines.map(\.text) == [shown])
    }

    @Test("control characters are stripped from metadata and word segments too")
    func controlCharactersStrippedEverywhere() throws {
        let song = try #require(
            LRC.parse(
                """
                [ti:\u{1B}]0;evil\u{07}]
                [00:01.00]<00:01.00>a\u{9B}b <00:02.00>c\u{202E}
                """
            ).song)
        #expect(song.metadata.title == "]0;evil")
        #expect(song.lines[0].segments.map(\.text) == ["ab ", "c"])
    }

    @Test(
        "LF, CRLF and a lone CR all end a line, and are counted alike for positions",
        arguments: [
            "\n", "\r\n", "\r",
        ])
    func lineEndings(newline: String) throws {
        let text = ["[ti:T]", "[00:01.00]one", "oops", "[00:02.00]two", ""].joined(separator: newline)
        let result = LRC.parse(text)
        let song = try #require(result.song)
        #expect(song.metadata.title == "T")
        #expect(LRC.timeline(song) == [TimedText(1_000, "one"), TimedText(2_000, "two")])
        #expect(LRC.warningPositions(result) == [LyricsPosition(line: 3, column: 1)])
        #expect(song.lines.map(\.sourceLine) == [2, 4])
    }

    @Test("mixed line endings and a missing final newline are fine")
    func mixedLineEndings() throws {
        let song = try #require(LRC.parse("[00:01.00]a\r\n[00:02.00]b\r[00:03.00]c\n\n\r\n[00:04.00]d").song)
        #expect(song.lines.map(\.text) == ["a", "b", "c", "d"])
        #expect(song.lines.map(\.start) == [1_000, 2_000, 3_000, 4_000])
        #expect(song.lines.map(\.sourceLine) == [1, 2, 3, 6])
    }

    @Test("a byte order mark at the start of a line is not text")
    func byteOrderMark() throws {
        let result = LRC.parse("\u{FEFF}[ti:T]\n[00:01.00]a\n\u{FEFF}[00:02.00]b")
        let song = try #require(result.song)
        #expect(song.metadata.title == "T")
        #expect(LRC.timeline(song) == [TimedText(1_000, "a"), TimedText(2_000, "b")])
        #expect(result.diagnostics.isEmpty)
    }

    @Test("lines come out sorted by start whatever the file's order, ties in file order")
    func unsortedInput() throws {
        let song = try #require(
            LRC.parse(
                """
                [00:30.00]third
                [00:10.00]first
                [00:20.00]second
                [00:05.00]zeroth
                """
            ).song)
        try #require(song.lines.count == 4)
        #expect(song.lines.map(\.text) == ["zeroth", "first", "second", "third"])
        #expect(song.lines.map(\.end) == [10_000, 20_000, 30_000, song.lines[3].end])
        #expect(song.lines.map(\.sourceLine) == [4, 2, 3, 1])
    }

    @Test("the line's text is valid Unicode with non-ASCII scripts intact")
    func nonASCII() throws {
        let song = try #require(
            LRC.parse(
                """
                [00:01.00]中文歌词 👩‍👩‍👧 שלום
                [00:02.00]<00:02.00>日本 <00:03.00>語
                """
            ).song)
        try #require(song.lines.count == 2)
        #expect(song.lines.map(\.text) == ["中文歌词 👩‍👩‍👧 שלום", "日本 語"])
        #expect(song.lines[1].segments.map(\.text) == ["日本 ", "語"])
    }
}

// MARK: - The shared corpus

/// The shared corpus of lyric files from other projects, found next to the repository.
enum LyricsCorpus {
    /// `…/shared/corpus`, located from this file: the repository is two folders above `Tests/KaraokeCoreTests`.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/corpus").standardizedFileURL

    /// Whether the corpus is there; the tests that need it skip when it is not.
    static var isAvailable: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("lrc").path) }

    /// The LRC and Enhanced LRC files, as `folder/name`.
    static var lyricFiles: [String] {
        guard isAvailable else { return [] }
        return ["lrc", "elrc"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
                .sorted().map { "\(folder)/\($0)" }
        }
    }

    /// Reads one file as the program does: the bytes, through `SourceText`, into the parser.
    static func parse(_ name: String) throws -> LRCParser.Result {
        let data = try Data(contentsOf: root.appendingPathComponent(name))
        let utf8 = try SourceText.utf8(from: Array(data)).get()
        return LRCParser.parse(utf8, file: name)
    }

    /// The number of lines of a file, counted as the parser counts them (LF, CRLF or a lone CR end one).
    static func lineCount(_ name: String) throws -> Int {
        let bytes = Array(try Data(contentsOf: root.appendingPathComponent(name)))
        var count = 1
        for (index, byte) in bytes.enumerated() where byte == 0x0A || byte == 0x0D {
            if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { continue }
            count += 1
        }
        return count
    }
}

@Suite("LRC parser on the shared corpus", .enabled(if: LyricsCorpus.isAvailable, "../shared/corpus is not there"))
struct LRCCorpusTests {
    /// Files in which no line can be used: each gives warnings and the closing error.
    static let unusable: Set<String> = [
        "lrc/osdlyrics__lrc_tail.lrc", // `[10.00]` has no minutes field
        "lrc/osdlyrics__lyric3.lrc", // only an unterminated `[offset:-12345`
        "lrc/osdlyrics__lyric4.lrc", // unterminated and malformed stamps
    ]

    @Test("every LRC file parses to lines sorted by start, or to a clear error")
    func everyFile() throws {
        let files = LyricsCorpus.lyricFiles
        #expect(files.count >= 16)
        for name in files {
            let result = try LyricsCorpus.parse(name)
            let lineCount = try LyricsCorpus.lineCount(name)
            for diagnostic in result.diagnostics {
                #expect(diagnostic.line >= 0 && diagnostic.line <= lineCount, "\(diagnostic)")
                #expect(!diagnostic.message.isEmpty)
            }
            if Self.unusable.contains(name) {
                #expect(result.song == nil, "\(name)")
                #expect(result.diagnostics.last?.severity == .error, "\(name)")
                #expect(result.diagnostics.filter { $0.severity == .warning }.count >= 1, "\(name)")
                continue
            }
            let song = try #require(result.song, "\(name): \(result.diagnostics)")
            #expect(!song.lines.isEmpty)
            #expect(zip(song.lines, song.lines.dropFirst()).allSatisfy { $0.start <= $1.start }, "\(name)")
            #expect(song.lines.allSatisfy { !$0.text.isEmpty && $0.end > $0.start }, "\(name)")
            #expect(song.lines.allSatisfy { !$0.isWordTimed || $0.segments.map(\.text).joined() == $0.text }, "\(name)")
            #expect(result.diagnostics.allSatisfy { $0.severity == .warning }, "\(name)")
        }
    }

    @Test("a plain LRC with translations, an offset and a huge minute value")
    func lrcparserExample() throws {
        let result = try LyricsCorpus.parse("lrc/lrcparser-py__example.lrc")
        let song = try #require(result.song)
        #expect(song.metadata.title == "test_lyric")
        #expect(song.metadata.album == "TEST ~AVOIDING ERRORS~")
        #expect(song.metadata.creator == "283375")
        #expect(song.metadata.offset == 250)
        try #require(song.lines.count == 5)
        #expect(song.lines.map(\.start) == [20, 280, 2_830, 28_330, 1_713_750])
        #expect(song.lines[0].text == "Line 1")
        // The inline ` | ` translation comes first, then the lines that share the stamp.
        #expect(song.lines[3].text == "Line 4 with translation")
        #expect(song.lines[3].translations.count == 3)
        #expect(song.lines[3].translations.first == "一般大家都这么打翻译")
        #expect(song.lines[4].text == "Line 6")
        // The offset of 250 ms moves the line at 0.02 s before 0:00.
        let notes = result.diagnostics.map { "\($0.location): \($0.message)" }
        #expect(notes.count == 1)
        #expect(
            notes.first?.hasPrefix("lrc/lrcparser-py__example.lrc: the offset 250 ms moves 1 line before 0:00") == true)
    }

    @Test("the lrcparser example states its own expansion, which the parser matches")
    func lrcparserExpansion() throws {
        let result = try LyricsCorpus.parse("elrc/lrcparser-py__example_spec.lrc")
        let song = try #require(result.song)
        #expect(song.metadata.title == "Special LRC File Test")
        #expect(song.metadata.offset == 75)
        try #require(song.lines.count == 7)
        let hate = "I hate this kind of lyrics", totally = "Totally outrageous line | ？？？"
        // `{02:83.375}` is 3:23.375, so "true, dude" at [03:23.375] is its translation.
        #expect(
            LRC.timeline(song) == [
                TimedText(83_456, hate), TimedText(154_560, hate), TimedText(157_500, "Very fast speed!"),
                TimedText(203_370, totally), TimedText(203_375, "Actually invalid lyric"), TimedText(225_678, hate),
                TimedText(513_750, totally),
            ])
        #expect(
            song.lines.map(\.translations) == [
                ["他说的对"], ["他说的对"], ["确实"], [], ["true, dude"], ["他说的对"], [],
            ])
        #expect(
            LRC.segments(song.lines[2]) == [
                TimedSpan(157_500, 157_520, "Very "), TimedSpan(157_520, 157_550, "fast "),
                TimedSpan(157_550, 203_370, "speed!"),
            ])
        // DESIGN §2: word tags shift with each repeat (the file's own expansion leaves them as written).
        #expect(song.lines[6].segments.first?.start == 203_375 + (513_750 - 203_370))
        // The hand-written expansion at the end is prose, reported line by line.
        let untimed = result.diagnostics.filter { $0.message.hasPrefix("text without a timestamp") }
        #expect(untimed.map(\.line) == Array(17...29))
    }

    @Test("a BOM before the first timestamp, then prose")
    func navidromeBOM() throws {
        let result = try LyricsCorpus.parse("lrc/navidrome__bom-test.lrc")
        let song = try #require(result.song)
        #expect(LRC.timeline(song) == [TimedText(0, "作曲 : 柏大輔")])
        #expect(LRC.warningPositions(result) == [2, 3, 4].map { LyricsPosition(line: $0, column: 1) })
    }

    @Test("osdlyrics' basic file: empty and unknown tags, stamps without fraction, a 3-part stamp")
    func osdlyricsBasic() throws {
        let result = try LyricsCorpus.parse("lrc/osdlyrics__lrc_basic.lrc")
        let song = try #require(result.song)
        #expect(
            LRC.timeline(song) == [
                TimedText(0, "Text 1"), TimedText(94_000, "中文歌词"), TimedText(153_260, "中文歌词"),
            ])
        // `[03:04:05.06]` is malformed (6:1) and `No tags` has no timestamp (7:1).
        #expect(
            LRC.warningPositions(result) == [LyricsPosition(line: 6, column: 1), LyricsPosition(line: 7, column: 1)])
    }

    @Test("the GBK twin warns about invalid UTF-8 at the first bad byte and still plays")
    func osdlyricsGBK() throws {
        let result = try LyricsCorpus.parse("lrc/osdlyrics__lrc_gbk.lrc")
        let song = try #require(result.song)
        try #require(song.lines.count == 3)
        let invalid = result.diagnostics.filter { $0.message.hasPrefix("invalid UTF-8") }
        #expect(
            invalid.map { LyricsPosition(line: $0.line, column: $0.column) } == [
                LyricsPosition(line: 5, column: 18), LyricsPosition(line: 6, column: 14),
            ])
        #expect(song.lines.map(\.start) == [0, 94_000, 153_260])
        #expect(song.lines[1].text.contains("\u{FFFD}"))
        #expect(song.lines[1].text == song.lines[2].text)
    }

    @Test("the osdlyrics offset twins differ only by the offset")
    func osdlyricsOffset() throws {
        let with = try #require(try LyricsCorpus.parse("lrc/osdlyrics__lyric_with_offset.lrc").song)
        let without = try #require(try LyricsCorpus.parse("lrc/osdlyrics__lyric_without_offset.lrc").song)
        #expect(LRC.timeline(with) == [TimedText(10, "foo")])
        let spans = { (song: Song) in song.lines.map { TimedSpan($0.start, $0.end, $0.text) } }
        #expect(spans(with) == spans(without))
        #expect(with.metadata.offset == 100)
        #expect(without.metadata.offset == 0)
    }

    @Test("a space after the line stamp and word tags far after it")
    func liblyric() throws {
        let result = try LyricsCorpus.parse("elrc/liblyric__test.lrc")
        let song = try #require(result.song)
        #expect(song.metadata.author == "Unknow Author")
        try #require(song.lines.count == 2)
        #expect(LRC.timeline(song) == [TimedText(1_020, "Line 1"), TimedText(62_000, "Line 2  line 2")])
        #expect(song.lines[1].segments.map(\.text) == ["Line 2 ", " line 2"])
        #expect(song.lines[1].segments.map(\.start) == [63_400, 70_000])
        // The last line's estimate reaches past its last word tag.
        #expect(song.lines[1].end > 70_000)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("Auld Lang Syne has the same lines as plain and as Enhanced LRC")
    func auldLangSyne() throws {
        let plain = try LyricsCorpus.parse("lrc/navidrome__auld-lang-syne.lrc")
        let enhanced = try LyricsCorpus.parse("elrc/navidrome__auld-lang-syne.elrc")
        let plainSong = try #require(plain.song), enhancedSong = try #require(enhanced.song)
        #expect(plain.diagnostics.isEmpty)
        #expect(enhanced.diagnostics.isEmpty)
        try #require(plainSong.lines.count == 24)
        try #require(enhancedSong.lines.count == 24)
        #expect(LRC.timeline(plainSong) == LRC.timeline(enhancedSong))
        #expect(plainSong.medianLineDuration == 4_500)
        #expect(enhancedSong.wordTimedLineCount == 24)
        #expect(enhancedSong.lines[0].segments.map(\.text) == ["Should ", "auld ", "acquaintance ", "be ", "forgot,"])
        #expect(enhancedSong.lines[0].segments.last?.end == 4_500)
    }

    @Test("word-timed and plain lines mix in one file")
    func navidromeEnhanced() throws {
        let song = try #require(try LyricsCorpus.parse("elrc/navidrome__test-enhanced.lrc").song)
        try #require(song.lines.count == 3)
        #expect(song.lines.map(\.isWordTimed) == [true, true, false])
        #expect(
            LRC.segments(song.lines[0]) == [
                TimedSpan(1_000, 1_500, "Some "), TimedSpan(1_500, 2_000, "lyrics "), TimedSpan(2_000, 3_000, "here"),
            ])
        #expect(song.lines[2].text == "Plain line without inline markers")
    }
}
