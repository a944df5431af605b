import Testing
@testable import KaraokeCore

private extension String {
    /// The string without the trailing copies of `character`.
    func trimmingSuffix(_ character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}

@Suite("LRC parser on bad input")
struct ParserBadInputTests {
    /// The closing error of a file without a timed line.
    static let noSongMessage = "no timed lyric line (a lyric line starts with a timestamp such as '[00:12.34]')"

    @Test(
        "a file without a timed line gives no song and one error about the whole file",
        arguments: [
            "", // empty
            "\n\n\r\n", // only line ends
            "   \t  \n", // only blanks
            "[ti:Title]\n[ar:Artist]\n[length:03:00]", // only metadata
            "[00:01.00]\n[00:02.00]   ", // only end markers
        ])
    func noSong(text: String) throws {
        let result = LRC.parse(text)
        #expect(result.song == nil)
        let error = try #require(result.diagnostics.last)
        #expect(error.severity == .error)
        #expect(error.description == "t.lrc: error: \(Self.noSongMessage)")
        #expect(result.diagnostics.filter { $0.severity == .error }.count == 1)
    }

    @Test("binary data is refused before parsing")
    func binary() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48]
        #expect(SourceText.utf8(from: png) == .failure(.notText))
    }

    @Test("binary data given to the parser anyway is text without timestamps, never a crash")
    func binaryThroughParser() {
        var bytes: [UInt8] = []
        var seed: UInt32 = 12_345
        for _ in 0..<20_000 {
            seed = seed &* 1_103_515_245 &+ 12_345
            bytes.append(UInt8(truncatingIfNeeded: seed >> 16))
        }
        let result = LRCParser.parse(bytes, file: "t.lrc")
        #expect(result.diagnostics.count <= LRCParser.diagnosticLimit + 2)
        #expect(result.diagnostics.last?.severity == .error || result.song != nil)
    }

    // MARK: Invalid UTF-8

    @Test(
        "invalid UTF-8 warns at the first bad byte's column and the line still plays with U+FFFD",
        arguments: [
            (bytes: [0x80] as [UInt8], note: "a lone continuation byte"),
            (bytes: [0xC3], note: "a two-byte sequence cut short at the end of the line"),
            (bytes: [0xE6, 0xAD, 0x41], note: "a three-byte sequence cut short by ASCII"),
            (bytes: [0xC0, 0x80], note: "an overlong NUL"),
            (bytes: [0xE0, 0x80, 0x80], note: "an overlong three-byte form"),
            (bytes: [0xED, 0xA0, 0x80], note: "a UTF-16 surrogate"),
            (bytes: [0xF4, 0x90, 0x80, 0x80], note: "above U+10FFFF"),
            (bytes: [0xF5, 0x80, 0x80, 0x80], note: "a lead byte that never starts a sequence"),
            (bytes: [0xFF], note: "0xFF"),
            (bytes: [0xD6, 0xD0, 0xCE, 0xC4], note: "GBK for 中文"),
            (bytes: [0xE9], note: "Latin-1 é"),
        ] as [(bytes: [UInt8], note: String)])
    func invalidUTF8(bytes: [UInt8], note: String) throws {
        // `[00:01.00]歌 ` is 14 bytes: the bad bytes start at column 15.
        let line = Array("[00:01.00]歌 ".utf8) + bytes + Array("x".utf8)
        let result = LRCParser.parse(Array("[ti:T]\n".utf8) + line, file: "t.lrc")
        let song = try #require(result.song, "\(note)")
        #expect(LRC.warningPositions(result) == [LyricsPosition(line: 2, column: 15)], "\(note)")
        #expect(result.diagnostics.first?.message.hasPrefix("invalid UTF-8") == true)
        let text = song.lines[0].text
        #expect(text.hasPrefix("歌 \u{FFFD}"), "\(note)")
        #expect(text.hasSuffix("x"), "\(note)")
        #expect(text.unicodeScalars.allSatisfy { !ControlCharacters.isForbidden($0.value) })
    }

    @Test("valid UTF-8 of every length gives no warning")
    func validUTF8() {
        let result = LRC.parse("[00:01.00]a é 歌 𝄞 \u{10FFFF} \u{FFFD}")
        #expect(result.diagnostics.isEmpty)
        #expect(result.song?.lines.first?.text == "a é 歌 𝄞 \u{10FFFF} \u{FFFD}")
    }

    @Test(
        "a dropped control byte never joins invalid bytes into a control character",
        arguments: [
            (bytes: [0xC2, 0x1B, 0x9B] as [UInt8], note: "C2 ESC 9B would become U+009B, the 8-bit CSI"),
            (bytes: [0xC2, 0x07, 0x85], note: "C2 BEL 85 would become U+0085"),
            (bytes: [0xE2, 0x80, 0x09, 0xAE], note: "a tab inside the bytes of U+202E"),
            (bytes: [0xE2, 0x1B, 0x81, 0xA6], note: "ESC inside the bytes of U+2066"),
        ])
    func noSplicedControls(bytes: [UInt8], note: String) throws {
        let line = Array("[ti:".utf8) + bytes + Array("]\n[00:01.00]a".utf8) + bytes + Array("b".utf8)
        let result = LRCParser.parse(line, file: "t.lrc")
        let song = try #require(result.song)
        let texts = [song.lines[0].text, song.metadata.title ?? ""] + result.diagnostics.map(\.message)
        for text in texts {
            #expect(
                text.unicodeScalars.allSatisfy { !ControlCharacters.isForbidden($0.value) },
                "\(note): \(text.debugDescription)")
        }
        #expect(song.lines[0].text.hasPrefix("a\u{FFFD}"))
        #expect(song.lines[0].text.hasSuffix("b"))
    }

    // MARK: Sizes

    @Test("a 100,000-character line is kept whole")
    func longLine() throws {
        let words = String(repeating: "lalala la ", count: 10_000)
        let result = LRC.parse("[00:01.00]\(words)\n[00:02.00]next")
        let song = try #require(result.song)
        try #require(song.lines.count == 2)
        #expect(song.lines[0].text.utf8.count == 99_999)
        #expect(song.lines[1].text == "next")
        #expect(result.diagnostics.isEmpty)
    }

    @Test(
        "a 100,000-character line of brackets and tag openers is handled in one pass",
        arguments: [
            // One tag that never closes.
            (line: String(repeating: "[", count: 100_000), warnings: 1),
            // Word-tag openers that never close stay text.
            (line: "[00:01.00]" + String(repeating: "<", count: 100_000), warnings: 0),
            // A second leading tag that never closes drops the line.
            (line: "[00:01.00]" + String(repeating: "[0", count: 50_000), warnings: 1),
            // Openers that look like the start of a time.
            (line: "[00:01.00]" + String(repeating: "<1:", count: 33_333), warnings: 0),
            // A title that runs to the last of 100,000 closing brackets.
            (line: "[ti:" + String(repeating: "]", count: 100_000), warnings: 0),
        ])
    func longBracketLines(line: String, warnings: Int) {
        let result = LRC.parse(line + "\n[00:05.00]end")
        #expect(result.song != nil)
        #expect(result.diagnostics.count == warnings)
    }

    /// `mm:ss.xx` for `milliseconds`, as a word tag writes it.
    static func stamp(_ milliseconds: Int) -> String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(milliseconds / 60_000)):\(two(milliseconds / 1000 % 60)).\(two(milliseconds % 1000 / 10))"
    }

    @Test("a word-timed line with 20,000 word tags keeps them all")
    func manyWordTags() throws {
        var line = "[00:00.00]"
        for index in 0..<20_000 { line += "<\(Self.stamp(index * 10))>w " }
        let song = try #require(LRC.parse(line).song)
        try #require(song.lines[0].segments.count == 20_000)
        #expect(song.lines[0].segments[19_999].start == 199_990)
        #expect(song.lines[0].segments[19_998].end == 199_990)
    }

    @Test("a line of 200,000 empty word segments is trimmed in one pass")
    func manyBlankSegments() throws {
        let line =
            "[00:01.00]" + String(repeating: "<00:01.00> ", count: 200_000) + "x"
            + String(repeating: " <00:02.00>", count: 200_000)
        let clock = ContinuousClock()
        var result: LRCParser.Result?
        let elapsed = clock.measure { result = LRC.parse(line) }
        let song = try #require(result?.song)
        #expect(song.lines[0].text == "x")
        #expect(song.lines[0].segments.map(\.text) == ["x"])
        // Quadratic trimming took minutes here; a single pass takes well under a second even in debug, and
        // many times longer under ASan on a loaded machine, so the bound only catches the quadratic case.
        #expect(elapsed < .seconds(90))
    }

    @Test("a 50 MB file parses without trouble")
    func fiftyMegabytes() throws {
        let target = 50 * 1024 * 1024
        var bytes: [UInt8] = []
        bytes.reserveCapacity(target + 2_000)
        bytes += Array("[ti:Big]\n[ar:Generated]\n".utf8)
        /// Appends `[mmm:ss.xx]` or `<mmm:ss.xx>`.
        func appendStamp(_ milliseconds: Int, open: UInt8, close: UInt8) {
            let minutes = milliseconds / 60_000, seconds = milliseconds / 1000 % 60,
                hundredths = milliseconds % 1000 / 10
            bytes += [
                open, UInt8(48 + minutes / 100), UInt8(48 + minutes / 10 % 10), UInt8(48 + minutes % 10),
                UInt8(ascii: ":"), UInt8(48 + seconds / 10), UInt8(48 + seconds % 10),
                UInt8(ascii: "."), UInt8(48 + hundredths / 10), UInt8(48 + hundredths % 10), close,
            ]
        }
        // Lines of about a kilobyte: long enough that the bytes, not the line count, set the pace.
        let lyric = Array(String(repeating: "sing along, 一起唱 la la la ", count: 30).utf8)
        let word = Array("word ".utf8)
        let untimed = Array("this line has no timestamp".utf8)
        var lines = 0, wordTimed = 0, time = 0
        while bytes.count < target {
            if lines % 97 == 96 {
                bytes += untimed // a warning
            } else if lines % 3 == 0 {
                appendStamp(time, open: UInt8(ascii: "["), close: UInt8(ascii: "]"))
                for index in 0..<50 {
                    appendStamp(time + index * 20, open: UInt8(ascii: "<"), close: UInt8(ascii: ">"))
                    bytes += word
                }
                wordTimed += 1
            } else {
                appendStamp(time, open: UInt8(ascii: "["), close: UInt8(ascii: "]"))
                bytes += lyric
            }
            bytes.append(0x0A)
            lines += 1
            time += 1_000
        }
        let result = LRCParser.parse(bytes, file: "big.lrc")
        let song = try #require(result.song)
        #expect(bytes.count >= target)
        #expect(song.lines.count == lines - lines / 97)
        #expect(song.wordTimedLineCount == wordTimed)
        #expect(song.lines.last?.start == (lines - 1) * 1_000)
        #expect(song.lines[1].text == String(decoding: lyric, as: UTF8.self).trimmingSuffix(" "))
        #expect(result.diagnostics.count == LRCParser.diagnosticLimit + 1)
        #expect(result.diagnostics.last?.message == "\(lines / 97 - LRCParser.diagnosticLimit) more warnings not shown")
    }

    // MARK: Timestamps out of range

    @Test(
        "a malformed leading timestamp is a warning at its bracket and the rest of the file plays",
        arguments: [
            (line: "‸[99999999:99.99]huge", reason: "beyond 100 hours"),
            (line: "‸[-1:00.00]negative", reason: "negative timestamp"),
            (line: "‸[01:7x.20]typo", reason: "unexpected 'x'"),
            (line: "‸[01:.20]no seconds", reason: "expected two digits of seconds"),
            (line: "‸[01:234.5]three digits of seconds", reason: "expected two digits of seconds"),
            (line: "‸[01:02.3456]four digits of fraction", reason: "expected 1 to 3 digits of fraction"),
            (line: "‸[01:02.]empty fraction", reason: "expected 1 to 3 digits of fraction"),
            (line: "‸[10.00]no minutes", reason: "expected ':' after the minutes"),
            (line: "  ‸[1:1:1.1]three fields", reason: "unexpected text after the fraction"),
            (line: "[00:01.00]‸[0x:00]second stamp", reason: "expected ':' after the minutes"),
        ])
    func malformedStamp(line: String, reason: String) throws {
        let fixture = MarkedLyrics("[00:00.50]before\n\(line)\n[00:09.00]after")
        let result = fixture.parse()
        let song = try #require(result.song)
        #expect(LRC.warningPositions(result) == fixture.marks)
        let warning = try #require(result.diagnostics.first)
        #expect(warning.message.hasPrefix("malformed timestamp '["))
        #expect(warning.message.contains("(\(reason))"))
        #expect(warning.message.hasSuffix("expected '[mm:ss.xx]'"))
        #expect(song.lines.first?.text == "before")
        #expect(song.lines.last?.text == "after")
    }

    @Test(
        "a malformed stamp beside good ones leaves the good ones",
        arguments: [
            (line: "[00:01.00]‸[0x:00]text", starts: [1_000]),
            (line: "‸[01:7x.20][00:01.00]text", starts: [1_000]),
            (line: "‸[01:7x.20] [00:01.00]‸[-0:01.00][00:02.00]text", starts: [1_000, 2_000]),
        ])
    func malformedBesideGood(line: String, starts: [Int]) throws {
        let fixture = MarkedLyrics(line)
        let result = fixture.parse()
        let song = try #require(result.song)
        #expect(song.lines.map(\.start) == starts)
        #expect(song.lines.allSatisfy { $0.text == "text" })
        #expect(LRC.warningPositions(result) == fixture.marks)
    }

    @Test("after a malformed stamp, a bracket is the line's text, not a tag")
    func malformedThenTag() throws {
        let fixture = MarkedLyrics("‸[01:7x.20][ar:Someone]\n[00:01.00]a")
        let result = fixture.parse()
        let song = try #require(result.song)
        #expect(song.metadata.artist == nil)
        #expect(LRC.warningPositions(result) == fixture.marks)
    }

    @Test(
        "a timestamp with a hundred digits is malformed, not an overflow",
        arguments: [
            "[00:\(String(repeating: "9", count: 100))]",
            "[\(String(repeating: "9", count: 100)):00]",
            "[00:00.\(String(repeating: "9", count: 100))]",
            "[00:00:\(String(repeating: "9", count: 100))]",
        ])
    func hugeDigitRuns(stamp: String) throws {
        let nines = String(repeating: "9", count: 100)
        // The word tag is too long to be one (it stays text); the length is malformed.
        let fixture = MarkedLyrics("‸\(stamp)x\n[00:01.00]<00:\(nines)>ok\n[length:0:\(nines)]")
        let result = fixture.parse()
        let song = try #require(result.song)
        #expect(song.lines.map(\.text) == ["<00:\(nines)>ok"])
        #expect(song.metadata.length == nil)
        #expect(
            result.diagnostics.first.map { LyricsPosition(line: $0.line, column: $0.column) } == fixture.marks.first)
        #expect(result.diagnostics.count == 2)
    }

    @Test("seconds above 59 are read as the time they add up to, with a warning")
    func secondsAbove59() throws {
        let fixture = MarkedLyrics("‸[02:83.375]late\n[03:30.00]<03:30.00>a ‸<03:61.00>b")
        let result = fixture.parse()
        let song = try #require(result.song)
        #expect(song.lines.map(\.start) == [203_375, 210_000])
        try #require(song.lines.count == 2)
        #expect(LRC.segments(song.lines[1]).map(\.start) == [210_000, 241_000])
        #expect(LRC.warningPositions(result) == fixture.marks)
        #expect(result.diagnostics.first?.message == "timestamp '[02:83.375]' has seconds above 59; read as [03:23.37]")
    }

    @Test("an offset that moves stamps below zero is a warning; the lines show as already sung")
    func offsetBelowZero() throws {
        let result = LRC.parse("[offset:5000]\n[00:01.00]a\n[00:10.00]b")
        let song = try #require(result.song)
        #expect(
            result.diagnostics.map(\.description) == [
                "t.lrc: warning: the offset 5000 ms moves 1 line before 0:00; it shows as already sung"
            ])
        #expect(LyricClock.currentLine(in: song, at: LyricClock.fileTime(playback: 0, song: song, userOffset: 0)) == 0)
    }

    @Test(
        "a malformed offset or length warns at the value and is ignored",
        arguments: [
            "[offset:‸soon]", // not a number
            "[offset: ‸+5 s]", // a unit; the position skips the space after the colon
            "[offset:‸99999999999]", // an hour or more
            "[length:‸three minutes]", // words
            "[length:  ‸180]", // seconds alone
        ])
    func malformedValues(line: String) throws {
        let fixture = MarkedLyrics("\(line)\n[00:01.00]a")
        let result = fixture.parse()
        let song = try #require(result.song)
        #expect(song.metadata == SongMetadata())
        #expect(LRC.warningPositions(result) == fixture.marks)
        #expect(result.diagnostics.first?.message.hasPrefix("malformed ") == true)
    }

    // MARK: Unclosed tags and stray text

    @Test(
        "a tag with no closing bracket is a warning at its bracket",
        arguments: [
            "‸[00:01.00 no close",
            "‸[ti:Title",
            "[00:01.00]‸[00:02.00",
            "‸[offset:-12345",
            "‸[",
        ])
    func unclosed(line: String) throws {
        let fixture = MarkedLyrics("[00:00.00]first\n\(line)\n[00:05.00]last")
        let result = fixture.parse()
        let song = try #require(result.song)
        #expect(LRC.warningPositions(result) == fixture.marks)
        #expect(result.diagnostics.first?.message.hasSuffix("has no closing ']'") == true)
        #expect(song.metadata == SongMetadata())
        #expect(song.lines.map(\.text) == ["first", "last"])
    }

    @Test("text without a timestamp is a warning at its first character")
    func untimedText() throws {
        let fixture = MarkedLyrics("[00:01.00]a\n‸No tags\n   ‸indented\n\t‸tabbed\n[00:02.00]b")
        let result = fixture.parse()
        #expect(LRC.warningPositions(result) == fixture.marks)
        #expect(result.diagnostics.allSatisfy { $0.message == "text without a timestamp; line ignored" })
        #expect(result.song?.lines.count == 2)
    }

    @Test(
        "a bracket that is neither a timestamp nor a tag is a warning",
        arguments: [
            "‸[Chorus]", "‸[]", "‸[:value]", "‸[ti tle:x]",
        ])
    func unrecognisedTag(line: String) throws {
        let fixture = MarkedLyrics("\(line)\n[00:01.00]a")
        let result = fixture.parse()
        #expect(LRC.warningPositions(result) == fixture.marks)
        #expect(result.diagnostics.first?.message.hasPrefix("unrecognised tag '[") == true)
        #expect(result.song?.metadata == SongMetadata())
    }

    @Test("a long bad tag is quoted shortened, at a character boundary")
    func longQuote() throws {
        // 40 bytes would end inside the 13th ideograph: the quote stops before it.
        let result = LRC.parse("[00:01.00]a\n[x" + String(repeating: "歌", count: 30))
        let message = try #require(result.diagnostics.first?.message)
        #expect(message == "'[x" + String(repeating: "歌", count: 12) + "…' has no closing ']'")
    }

    // MARK: Many problems

    @Test("the same timestamp on 1,000 lines is one sung line, 999 translations and one warning")
    func thousandSharedStamps() throws {
        let text = (1...1_000).map { "[00:12.00]line \($0)" }.joined(separator: "\n")
        let result = LRC.parse(text)
        let song = try #require(result.song)
        #expect(song.lines.count == 1)
        #expect(song.lines[0].text == "line 1")
        #expect(song.lines[0].translations.count == 999)
        #expect(song.lines[0].translations.last == "line 1000")
        #expect(
            result.diagnostics.map(\.description) == [
                "t.lrc:1: warning: 1000 lines share the timestamp [00:12.00]; "
                    + "the first is sung, the others are shown as translations"
            ])
    }

    @Test(
        "diagnostics stop at the limit and a last one counts the rest",
        arguments: [
            (badLines: 100, shown: 100, hidden: 0),
            (badLines: 101, shown: 100, hidden: 1),
            (badLines: 5_000, shown: 100, hidden: 4_900),
        ])
    func diagnosticLimit(badLines: Int, shown: Int, hidden: Int) throws {
        let text = "[00:00.00]start\n" + String(repeating: "oops\n", count: badLines)
        let result = LRC.parse(text)
        #expect(result.song != nil)
        #expect(LRCParser.diagnosticLimit == 100)
        let warnings = result.diagnostics.prefix(shown)
        #expect(warnings.map(\.line) == Array(2..<(2 + shown)))
        if hidden == 0 {
            #expect(result.diagnostics.count == shown)
        } else {
            #expect(result.diagnostics.count == shown + 1)
            let summary = try #require(result.diagnostics.last)
            #expect(summary.description == "t.lrc: warning: \(hidden) more warning\(hidden == 1 ? "" : "s") not shown")
        }
    }

    @Test("warnings about the whole song count toward the limit, and the count of the rest comes last")
    func limitIncludesSongWarnings() throws {
        var text = "[offset:100000]\n"
        for stamp in 0..<150 {
            text += String(repeating: "[\(Self.stamp(stamp * 1000))]x\n", count: 5)
        }
        text += String(repeating: "oops\n", count: 30)
        let result = LRC.parse(text)
        #expect(result.song != nil)
        let warnings = result.diagnostics.filter { $0.severity == .warning }
        #expect(warnings.count == LRCParser.diagnosticLimit + 1)
        // 30 bad lines, 150 shared stamps and the offset (over 10 s, and moving lines before 0:00): 182
        // warnings, 100 shown.
        #expect(warnings.last?.message == "82 more warnings not shown")
    }

    @Test("a file of only problems still ends with its error after the capped warnings")
    func errorAfterCap() throws {
        let result = LRC.parse(String(repeating: "[ti:x\n", count: 300))
        #expect(result.song == nil)
        #expect(result.diagnostics.count == LRCParser.diagnosticLimit + 2)
        #expect(result.diagnostics[LRCParser.diagnosticLimit].message == "200 more warnings not shown")
        #expect(result.diagnostics.last?.severity == .error)
    }
}
