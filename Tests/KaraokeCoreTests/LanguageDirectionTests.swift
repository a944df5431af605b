import Testing

@testable import KaraokeCore

@Suite("The base direction a file's language gives (DESIGN §3.5)")
struct LanguageDirectionTests {
    static let cases: [(tag: String, direction: TextDirection?)] = [
        ("he", .rightToLeft), ("HE-il", .rightToLeft), ("iw", .rightToLeft), ("ar", .rightToLeft),
        ("ar-EG", .rightToLeft), ("fa_IR", .rightToLeft), ("ur", .rightToLeft), ("yi", .rightToLeft),
        ("ckb", .rightToLeft), ("ku-Arab", .rightToLeft), ("az-Arab-IR", .rightToLeft), ("pa-Arab", .rightToLeft),
        ("en", .leftToRight), ("en-US", .leftToRight), ("ja", .leftToRight), ("ko-KR", .leftToRight),
        ("ku-Latn", .leftToRight), ("ar-Latn", .leftToRight), ("zh-Hant-TW", .leftToRight),
        ("", nil), ("-", nil), ("h", nil), ("12", nil), ("עברית", nil),
    ]

    @Test("a language tag's script, else its language, gives the direction", arguments: cases)
    func direction(_ example: (tag: String, direction: TextDirection?)) {
        #expect(TextDirection.declared(byLanguage: example.tag) == example.direction)
    }

    @Test("LRC's [la:] and TTML's xml:lang are read, and LRC writes [la:] back")
    func filesSayTheirLanguage() throws {
        let lrc = LRCParser.parse(Array("[la:he]\n[00:01.00]David 2024\n".utf8), file: "t.lrc")
        #expect(lrc.song?.metadata.language == "he")
        let written = try #require(lrc.song.map { LyricWriter.write($0, to: .lrc).text })
        #expect(written.contains("[la:he]\n"))
        let ttml = TTMLParser.parse(
            """
            <tt xmlns="http://www.w3.org/ns/ttml" xml:lang="ar-EG"><body><div>
            <p begin="1s" end="2s">Sami</p></div></body></tt>
            """.utf8.map { $0 }, file: "t.ttml")
        #expect(ttml.song?.metadata.language == "ar-EG")
    }

    @Test("a line without right-to-left letters in a Hebrew song reads from the right; elsewhere from the left")
    func declaredLanguageSetsTheLine() {
        let line = LyricLine(start: 0, end: 1000, text: "David 2024")
        var hebrew = SongMetadata(title: "t")
        hebrew.language = "he"
        for (metadata, expected) in [(hebrew, TextDirection.rightToLeft), (SongMetadata(title: "t"), .leftToRight)] {
            let composer = FrameComposer(
                song: Song(metadata: metadata, lines: [line], medianLineDuration: nil), fallbackTitle: "t",
                columns: 40, rows: 10, options: FrameOptions())
            #expect(composer.baseDirection == (metadata.language == nil ? nil : expected))
            var copy = composer
            #expect(copy.layout(0).direction == expected)
        }
    }
}
