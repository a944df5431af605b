import Testing
@testable import KaraokeCore

/// Lyric files in legacy encodings: converted with iconv, or guessed (with a warning at the edge).
@Suite("Legacy encodings")
struct TextEncodingTests {
    /// `text` in `encoding`, made with iconv from UTF-8 (the test's own fixture, not a file from elsewhere).
    func encoded(_ text: String, _ encoding: String) throws -> [UInt8] {
        try TextEncoding.convert(Array(text.utf8), from: "UTF-8", to: encoding).get()
    }

    static let samples: [(text: String, encoding: String, guessed: String)] = [
        ("[ti:晚风]\n[00:01.00]晚风吹过城市的灯火\n[00:04.00]我们一起唱到天亮\n", "GBK", "GB18030"),
        ("[ti:さくら]\n[00:01.00]さくらの花が咲いている\n[00:04.00]駅のホームで君を待つ\n", "SHIFT_JIS", "SHIFT_JIS"),
        ("[ti:바다]\n[00:01.00]푸른 바다 위로 노래해\n[00:04.00]우리 함께 걸어가자\n", "EUC-KR", "EUC-KR"),
        ("[ti:Café]\n[00:01.00]Déjà vu au café, señor\n[00:04.00]Über die Straße, naïve\n", "CP1252", "CP1252"),
        ("[ti:Зима]\n[00:01.00]Снег идёт над тихой рекой\n[00:04.00]И фонари горят до утра\n", "KOI8-R", "KOI8-R"),
        ("[ti:Зима]\n[00:01.00]Снег идёт над тихой рекой\n[00:04.00]И фонари горят до утра\n", "CP1251", "CP1251"),
    ]

    @Test("a file in a legacy encoding reads back exactly with its name", arguments: samples)
    func convertsNamedEncoding(sample: (text: String, encoding: String, guessed: String)) throws {
        let bytes = try encoded(sample.text, sample.encoding)
        #expect(bytes != Array(sample.text.utf8))
        #expect(try TextEncoding.convert(bytes, from: sample.encoding).get() == Array(sample.text.utf8))
    }

    @Test("without a name, the encoding is guessed right", arguments: samples)
    func guessesEncoding(sample: (text: String, encoding: String, guessed: String)) throws {
        let bytes = try encoded(sample.text, sample.encoding)
        #expect(!TextEncoding.isMostlyUTF8(bytes))
        let guess = try #require(TextEncoding.guess(bytes))
        #expect(guess.encoding == sample.guessed)
        #expect(String(decoding: guess.utf8, as: UTF8.self) == sample.text)
    }

    @Test("an unknown name and bytes invalid in the encoding are told apart")
    func failures() {
        #expect(
            TextEncoding.convert([0x41], from: "NO-SUCH-ENCODING") == .failure(.unknownEncoding("NO-SUCH-ENCODING")))
        #expect(
            TextEncoding.convert([0x41, 0x42, 0xFF, 0x43], from: "UTF-8")
                == .failure(.invalidBytes(encoding: "UTF-8", offset: 2)))
    }

    @Test("UTF-8 with a stray broken byte stays UTF-8 (repaired), not guessed")
    func mostlyUTF8() {
        var bytes = Array("[00:01.00]日本語の歌詞と中文歌词と한국어\n[00:02.00]x".utf8)
        bytes.append(0xFF)
        #expect(TextEncoding.isMostlyUTF8(bytes))
        #expect(TextEncoding.isMostlyUTF8(Array("plain ASCII".utf8)))
    }
}

/// LRC conventions inside a line's text: duet voice markers and inline ` | ` translations.
@Suite("LRC voice markers and inline translations")
struct LineMarkupTests {
    @Test(
        "voice markers at the start of a line",
        arguments: [
            ("v1: hello", Voice?.some(.part(0)), "hello"), ("v2:hello", nil, "v2:hello"),
            ("v2: hi there", .part(1), "hi there"),
            ("M: low", .part(0), "low"), ("F: high", .part(1), "high"), ("D: both", .together, "both"),
            ("F:ever young", nil, "F:ever young"), ("Mr: Smith", nil, "Mr: Smith"), ("M:", nil, "M:"),
            ("v0: none", nil, "v0: none"), ("d: lower case", nil, "d: lower case"),
        ])
    func markers(text: String, voice: Voice?, rest: String) {
        let marker = LineMarkup.voiceMarker(in: Substring(text))
        #expect(marker?.voice == voice)
        #expect(marker.map { String($0.rest) } ?? text == rest)
    }

    @Test("a marker holds for the lines after it until the next one; segments lose it too")
    func stickyMarkers() throws {
        let song = try #require(
            LRCParser.parse(
                Array(
                    """
                    [00:01.00]M: first part
                    [00:02.00]still the first
                    [00:03.00]<00:03.00>F: <00:03.50>second <00:04.00>part<00:04.50>
                    [00:05.00]D: all of us
                    """.utf8), file: "duet.lrc"
            ).song)
        #expect(song.lines.map(\.voice) == [.part(0), .part(0), .part(1), .together])
        #expect(song.lines[2].text == "second part")
        #expect(song.lines[2].segments.map(\.text).joined() == "second part")
        #expect(song.partCount == 2)
    }

    @Test("an unmarked song has no voices")
    func noMarkers() throws {
        let song = try #require(LRCParser.parse(Array("[00:01.00]one\n[00:02.00]two\n".utf8), file: "x.lrc").song)
        #expect(song.lines.allSatisfy { $0.voice == nil })
        #expect(song.partCount == 0)
    }

    @Test("` | ` splits a line-timed line into the sung text and a translation, first among its translations")
    func inlineTranslation() throws {
        let song = try #require(
            LRCParser.parse(
                Array(
                    """
                    [00:01.00]Hello moon | 你好月亮
                    [00:01.00]Bonjour la lune
                    [00:02.00]a|b stays whole
                    """.utf8), file: "t.lrc"
            ).song)
        #expect(song.lines[0].text == "Hello moon")
        #expect(song.lines[0].translations == ["你好月亮", "Bonjour la lune"])
        #expect(song.lines[1].text == "a|b stays whole")
        #expect(song.withoutTranslations().lines[0].translations.isEmpty)
    }
}

/// Duets on screen: each part has its own ink and side.
@Suite("Duets in the frame")
struct DuetFrameTests {
    @Test("the first part is left, the second right, together in the middle, in different inks")
    func partsApart() throws {
        let song = try #require(
            LRCParser.parse(
                Array(
                    """
                    [00:01.00]M: the first voice sings
                    [00:03.00]F: the second voice answers
                    [00:05.00]D: and both of them
                    [00:07.00]the end
                    """.utf8), file: "duet.lrc"
            ).song)
        var composer = FrameComposer(song: song, fallbackTitle: "duet", columns: 80, rows: 20, options: FrameOptions())
        let frame = composer.frame(at: 8)
        func row(_ line: Int) throws -> FrameRow { try #require(frame.rows.first { $0.line == line }) }
        let first = try row(0), second = try row(1), both = try row(2)
        #expect(first.cells.first?.column == 2, "left margin")
        #expect(second.cells.last.map { $0.column + $0.width } == 78, "right margin")
        #expect(abs((both.cells.first!.column + both.cells.last!.column) / 2 - 40) <= 1, "centred")
        let inks = Set([first, second, both].map { $0.cells[0].color })
        #expect(inks.count == 3)
    }

    @Test("a narrow screen keeps duets centred, still in their inks")
    func narrowKeepsAlignment() throws {
        let song = try #require(LRCParser.parse(Array("[00:01.00]M: one\n[00:03.00]F: two\n".utf8), file: "d.lrc").song)
        var composer = FrameComposer(song: song, fallbackTitle: "d", columns: 40, rows: 12, options: FrameOptions())
        let frame = composer.frame(at: 4)
        let rows = frame.rows.filter { $0.kind == .lyric }
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { abs($0.cells[0].column - (40 - 3) / 2) <= 1 })
        #expect(rows[0].cells[0].color != rows[1].cells[0].color)
    }
}

@Suite("Encodings files name themselves")
struct DeclaredEncodingTests {
    @Test(
        "UltraStar's #ENCODING names the encoding; AUTO and junk name none",
        arguments: [
            ("#TITLE:x\n#ENCODING:CP865\n: 0 1 0 a\n", String?.some("CP865")), ("#encoding: cp1250 \n", "cp1250"),
            ("#ENCODING:AUTO\n", nil), ("#ENCODING:\n", nil), ("#ENCODING:bad name\n", nil), ("#TITLE:x\n", nil),
        ])
    func declared(text: String, name: String?) {
        #expect(TextEncoding.declared(in: Array(text.utf8)) == name)
    }
}
