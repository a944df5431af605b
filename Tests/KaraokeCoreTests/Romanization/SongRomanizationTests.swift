import Testing
@testable import KaraokeCore

@Suite("--romanize")
struct SongRomanizationTests {
    @Test("a word-timed Korean line is romanized word by word, each word keeping its timing")
    func wordTimed() throws {
        let song = try Fixtures.song("hangang-night.lrc").romanized()
        let line = try #require(song.lines.first)
        let reading = try #require(line.romanization)
        #expect(reading.text == "gangmul wie byeori tteoyo")
        #expect(reading.segments.map(\.text) == ["gangmul ", "wie ", "byeori ", "tteoyo"])
        #expect(reading.segments.map(\.start) == line.segments.map(\.start))
        #expect(reading.segments.map(\.end) == line.segments.map(\.end))
    }

    @Test("a line-timed line is romanized whole; lines no romanizer reads and a file's own reading are kept")
    func lineTimedAndKept() throws {
        var song = try Fixtures.song(text: "[00:01.00]밤이 깊어도\n[00:03.00]paper boats\n[00:05.00]한강\n")
        song.lines[2].romanization = Romanization(text: "Han River")
        let romanized = song.romanized()
        #expect(romanized.lines.map(\.romanization?.text) == ["bami gipeodo", nil, "Han River"])
        #expect(romanized.lines[0].romanization?.isWordTimed == false)
    }

    @Test("render with --romanize shows the bundled Korean song's romanized rows; without it, none")
    func rendered() throws {
        let song = try Fixtures.song("hangang-night.lrc")
        func screen(_ arguments: [String]) throws -> String {
            let invocation = try CommandLineParser.parse(["render", "hangang-night.lrc", "--at", "4"] + arguments)
            guard case .render(let request) = invocation else { throw UnexpectedInvocation(invocation: invocation) }
            var composer = FrameComposer(
                song: song, fallbackTitle: "hangang-night.lrc", columns: 80, rows: 24, options: request.display.frame)
            return GoldenFrameTests.describe(composer.frame(FrameInput(time: 4)))
        }
        #expect(try screen(["--romanize"]).contains("\"                           gangmul wie byeori tteoyo\""))
        #expect(try screen(["--romanize"]).contains("uri hamkke noraehaeyo"))
        #expect(try !screen([]).contains("gangmul"))
        #expect(try !screen(["--romanize", "--no-romanization"]).contains("gangmul"))
    }
}

/// A romanizer from a table, for the alignment rule: it reads text with a letter outside ASCII, and writes
/// what the table says (nil for a text it does not know, as a romanizer whose library is missing).
private struct TableRomanizer: Romanizer {
    var table: [String: String]
    func reads(_ text: String) -> Bool { text.unicodeScalars.contains { !$0.isASCII } }
    func romanize(_ text: String) -> String? { table[text] }
}

@Suite("--romanize aligns a line's reading to its words")
struct RomanizationAlignmentTests {
    /// A word-timed line of `words`, each 1 s from 1 s on.
    private func line(_ words: [String]) -> Song {
        let segments = words.enumerated().map { index, word in
            WordSegment(start: 1000 * (index + 1), end: 1000 * (index + 2), text: word)
        }
        let line = LyricLine(start: 1000, end: 1000 * (words.count + 1), text: words.joined(), segments: segments)
        return Song(metadata: SongMetadata(), lines: [line], medianLineDuration: nil)
    }

    @Test("each word takes its stretch of the whole line's reading and the space after it")
    func spacesFromTheWholeReading() throws {
        let table = ["夏の夜": " natsu no yoru ", "夏": "natsu", "の": "no", "夜": "yoru"]
        let reading = try #require(
            line(["夏", "の", "夜"]).romanized(by: [TableRomanizer(table: table)]).lines[0].romanization)
        #expect(reading.text == "natsu no yoru")
        #expect(reading.segments.map(\.text) == ["natsu ", "no ", "yoru"])
        #expect(reading.segments.map(\.start) == [1000, 2000, 3000])
        #expect(reading.segments.map(\.end) == [2000, 3000, 4000])
    }

    @Test("words glued in the reading stay glued: a syllable-timed word reads as one word")
    func gluedSyllables() throws {
        let table = ["なつ": "natsu", "な": "na", "つ": "tsu"]
        let reading = try #require(
            line(["な", "つ"]).romanized(by: [TableRomanizer(table: table)]).lines[0].romanization)
        #expect(reading.segments.map(\.text) == ["na", "tsu"])
    }

    @Test("a word that reads otherwise alone is read with the next, and the two share one segment")
    func compoundRead() throws {
        let table = ["今日は": "kyou ha", "今": "ima", "今日": "kyou", "日": "hi", "は": "ha"]
        let reading = try #require(
            line(["今", "日", "は"]).romanized(by: [TableRomanizer(table: table)]).lines[0].romanization)
        #expect(
            reading.segments == [
                WordSegment(start: 1000, end: 3000, text: "kyou "), WordSegment(start: 3000, end: 4000, text: "ha"),
            ])
    }

    @Test("a reading that cannot be aligned to the words, six of them read together at most, is shown whole")
    func notAligned() throws {
        let words = ["夏", "の", "夜", "空", "に", "花", "火"]
        var table = ["夏の夜空に花火": "natsu no yozora ni hanabi"]
        // No run of up to six words from the first reads as the line begins.
        for count in 1...6 { table[words.prefix(count).joined()] = "summer \(count)" }
        let reading = try #require(line(words).romanized(by: [TableRomanizer(table: table)]).lines[0].romanization)
        #expect(reading == Romanization(text: "natsu no yozora ni hanabi"))
    }

    @Test("a romanizer that cannot work leaves the line without a romanization")
    func failing() {
        #expect(line(["夏", "の", "夜"]).romanized(by: [TableRomanizer(table: [:])]).lines[0].romanization == nil)
    }

    @Test("Korean goes to the Hangul romanizer first, though another would read it too")
    func koreanFirst() throws {
        let song = try Fixtures.song(text: "[00:01.00]밤이 깊어도\n")
        let romanized = song.romanized(by: Song.romanizers + [TableRomanizer(table: ["밤이 깊어도": "wrong"])])
        #expect(romanized.lines[0].romanization?.text == "bami gipeodo")
    }

    @Test("the frame options' romanizers are what the composer uses, and compare by their types")
    func frameOptions() throws {
        var options = FrameOptions()
        options.romanizes = true
        options.romanizers = Romanizers(Song.romanizers + [TableRomanizer(table: ["夏": "natsu"])])
        #expect(options != FrameOptions())
        #expect(options.romanizers == Romanizers(Song.romanizers + [TableRomanizer(table: [:])]))
        let song = try Fixtures.song(text: "[00:01.00]夏\n")
        var composer = FrameComposer(song: song, fallbackTitle: "", columns: 40, rows: 12, options: options)
        #expect(GoldenFrameTests.describe(composer.frame(FrameInput(time: 1))).contains("natsu"))
    }
}
