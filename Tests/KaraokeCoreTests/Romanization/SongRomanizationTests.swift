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
