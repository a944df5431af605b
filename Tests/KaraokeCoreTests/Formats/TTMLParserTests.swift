import Foundation
import Testing
@testable import KaraokeCore

/// Parses TTML text given inline and checks the song's invariants on the way.
private func parseSong(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Song {
    let result = TTMLParser.parse(Array(text.utf8), file: "t.ttml")
    let song = try #require(result.song, "no song: \(result.diagnostics)", sourceLocation: sourceLocation)
    checkInvariants(song, sourceLocation: sourceLocation)
    return song
}

/// The invariants every parsed song keeps (see `expectSongInvariants`), with this reader's trimmed,
/// single-spaced text.
private func checkInvariants(_ song: Song, sourceLocation: SourceLocation = #_sourceLocation) {
    expectSongInvariants(song, promises: [.trimmed, .singleSpaced], sourceLocation: sourceLocation)
}

/// `(start, end, text)` of a line's segments, for compact comparisons.
private func spans(_ line: LyricLine) -> [TimedSpan] { line.segments.map { TimedSpan($0.start, $0.end, $0.text) } }

/// A TTML document around `body` (the inside of `<body>`), with `head` inside `<head>`.
private func document(_ body: String, head: String = "", parameters: String = "") -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata"
        xmlns:ttp="http://www.w3.org/ns/ttml#parameter" xmlns:tts="http://www.w3.org/ns/ttml#styling"
        xmlns:itunes="http://music.apple.com/lyric-ttml-internal" \(parameters)>
    <head><metadata>\(head)</metadata></head>
    <body>\(body)</body>
    </tt>
    """
}

@Suite("TTML lines and words")
struct TTMLLineTests {
    @Test("each paragraph is a line from its begin to its end")
    func paragraphs() throws {
        let song = try parseSong(
            document(
                """
                <div>
                  <p begin="00:00:01.000" end="00:00:02.500">
                    Lanterns over the water,
                  </p>
                  <p begin="00:00:03.000" end="00:00:04.000">and the  quiet\tshore</p>
                </div>
                """))
        #expect(
            song.lines.map { TimedSpan($0.start, $0.end, $0.text) }
                == [TimedSpan(1000, 2500, "Lanterns over the water,"), TimedSpan(3000, 4000, "and the quiet shore")])
        #expect(song.lines.allSatisfy { !$0.isWordTimed && !$0.endIsEstimated })
    }

    @Test("timed spans are word segments; the text between them ends the word before")
    func wordSpans() throws {
        let song = try parseSong(
            document(
                """
                <div><p begin="1s" end="3s"><span begin="1s" end="1.5s">Lan</span><span begin="1.5s" end="2s">terns</span> <span begin="2s" end="3s">glow</span></p></div>
                """))
        #expect(
            spans(song.lines[0]) == [
                TimedSpan(1000, 1500, "Lan"), TimedSpan(1500, 2000, "terns "),
                TimedSpan(2000, 3000, "glow"),
            ])
    }

    @Test("indentation between the spans of a word-timed line is not a space; spaces inside spans are kept")
    func indentationIsNotASpace() throws {
        let song = try parseSong(
            document(
                """
                <div>
                  <p begin="1s" end="3s">
                    <span begin="1s" end="1.5s">Lan</span>
                    <span begin="1.5s" end="2s">terns </span>
                    <span begin="2s" end="3s"> glow</span>
                  </p>
                </div>
                """))
        #expect(song.lines[0].segments.map(\.text) == ["Lan", "terns ", "glow"])
    }

    @Test("a line feed in a line-timed paragraph is a space")
    func lineFeedInLineTimedParagraph() throws {
        let song = try parseSong(document("<p begin=\"1s\" end=\"2s\"><span>one</span>\n<span>two</span></p>"))
        #expect(song.lines[0].text == "one two")
    }

    @Test("text before the first timed span joins the first segment")
    func leadingUntimedText() throws {
        let song = try parseSong(
            document("<p begin=\"1s\" end=\"3s\">oh, <span begin=\"2s\" end=\"3s\">lanterns</span></p>"))
        #expect(spans(song.lines[0]) == [TimedSpan(2000, 3000, "oh, lanterns")])
        #expect(song.lines[0].start == 1000)
    }

    @Test("<br/> is a space")
    func lineBreak() throws {
        let song = try parseSong(
            document(
                "<p begin=\"1s\" end=\"2s\">over the<br/>water</p><p begin=\"3s\" end=\"4s\">a<tt:br xmlns:tt=\"x\"/>b</p>"
            ))
        #expect(song.lines.map(\.text) == ["over the water", "a b"])
    }

    @Test("a paragraph without timing takes its words' span")
    func paragraphTakesSpansSpan() throws {
        let song = try parseSong(
            document("<p><span begin=\"2s\" end=\"2.5s\">a </span><span begin=\"2.5s\" end=\"4s\">b</span></p>"))
        #expect(song.lines[0].start == 2000 && song.lines[0].end == 4000)
    }

    @Test("a paragraph with no timing at all is a warning on its line and is skipped")
    func untimedParagraph() throws {
        let text = document("<p begin=\"1s\" end=\"2s\">kept</p>\n<p>lost</p>")
        let result = TTMLParser.parse(Array(text.utf8), file: "t.ttml")
        let song = try #require(result.song)
        #expect(song.lines.map(\.text) == ["kept"])
        let warning = try #require(result.diagnostics.first)
        #expect(warning.line == 7 && warning.message == "paragraph 'lost' has no timing; line ignored")
    }

    @Test("a paragraph without an end ends where the next one starts; the last one gets an estimate")
    func openEnds() throws {
        let song = try parseSong(document("<p begin=\"1s\">one</p><p begin=\"4s\">two</p>"))
        #expect(song.lines[0].end == 4000 && !song.lines[0].endIsEstimated)
        #expect(song.lines[1].end == 6000 && song.lines[1].endIsEstimated)
    }

    @Test("a word without an end runs to the next word, the last one to the line's end")
    func openWordEnds() throws {
        let song = try parseSong(
            document("<p begin=\"1s\" end=\"5s\"><span begin=\"1s\">a </span><span begin=\"2s\">b</span></p>"))
        #expect(spans(song.lines[0]) == [TimedSpan(1000, 2000, "a "), TimedSpan(2000, 5000, "b")])
    }

    @Test("overlapping or backward words are put in order")
    func disorderlyWords() throws {
        let song = try parseSong(
            document(
                "<p begin=\"1s\" end=\"5s\"><span begin=\"2s\" end=\"4s\">a </span><span begin=\"3s\" end=\"5s\">b </span><span begin=\"1s\" end=\"2s\">c</span></p>"
            ))
        #expect(song.lines[0].text == "a b c")
    }

    @Test("control characters are dropped from the text")
    func controlCharacters() throws {
        let song = try parseSong(document("<p begin=\"1s\" end=\"2s\">a&#x9B;b&#x202E;c\td</p>"))
        #expect(song.lines[0].text == "abc d")
    }

    /// Scalars at the edges of what `ControlCharacters.isForbidden` names, in one to four UTF-8 bytes: the
    /// line's text is read byte by byte, and must drop exactly those.
    @Test(
        "exactly the forbidden scalars are dropped, whatever their UTF-8 length",
        arguments: [
            0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xE9, 0x2029, 0x202A, 0x202E, 0x202F, 0x2065, 0x2066, 0x2069, 0x206A,
            0x6B4C, 0xFFFD, 0x1F338,
        ] as [UInt32])
    func forbiddenScalars(value: UInt32) throws {
        let hex = String(value, radix: 16)
        let song = try parseSong(document("<p begin=\"1s\" end=\"2s\">a&#x\(hex);b</p>"))
        let scalar = try #require(Unicode.Scalar(value))
        let expected = ControlCharacters.isForbidden(value) ? "ab" : "a\(Character(scalar))b"
        #expect(song.lines[0].text == expected)
    }
}

@Suite("TTML time expressions")
struct TTMLTimeTests {
    /// Attribute value → milliseconds, with the `<tt>` parameters given.
    static let cases: [(value: String, parameters: String, expected: Int)] = [
        ("00:01:02.500", "", 62_500), // hh:mm:ss.fff
        ("01:02.5", "", 62_500), // mm:ss.fff (Apple, AMLL)
        ("62.5", "", 62_500), // ss.fff (AMLL)
        ("01:00:00", "", 3_600_000), // hh:mm:ss
        ("00:00:01:15", "", 1500), // frames at the default 30
        ("00:02:33:11", "ttp:frameRate=\"25\"", 153_440), // frames at 25
        ("00:00:01:12", "ttp:frameRate=\"30\" ttp:frameRateMultiplier=\"1000 1001\"", 1_400), // 29.97: 1 s + 12/29.97
        ("1.5s", "", 1500),
        ("150ms", "", 150),
        ("2m", "", 120_000),
        ("1h", "", 3_600_000),
        ("45f", "ttp:frameRate=\"30\"", 1500),
        ("10t", "", 10_000), // one tick a second when the file does not say
        ("10t", "ttp:tickRate=\"10000000\"", 0), // 1 µs ticks round to 0 ms
        ("25000000t", "ttp:tickRate=\"10000000\"", 2500),
        (" 2s ", "", 2000), // spaces around
        ("&#10;&#9;2s&#13;", "", 2000), // any XML whitespace around
        ("00000000000001.5s", "", 1500), // 15 digits are a number
        ("00:00:00000000000001.5", "", 1500),
    ]

    @Test("begin reads every TTML time form", arguments: cases)
    func timeForms(_ testCase: (value: String, parameters: String, expected: Int)) throws {
        let song = try parseSong(
            document("<p begin=\"\(testCase.value)\" end=\"99h\">la</p>", parameters: testCase.parameters))
        #expect(song.lines[0].start == testCase.expected)
    }

    @Test("dur gives the end when there is no end attribute")
    func duration() throws {
        let song = try parseSong(document("<p begin=\"2s\" dur=\"1.5s\">la</p>"))
        #expect(song.lines[0].end == 3500)
    }

    @Test(
        "a malformed time is a warning and the attribute is ignored",
        arguments: [
            "soon", "-1s", "1:2:3:4:5", "1.2.3", "12x", "1.5:00", "1::2", "1:", "s", "1.5H",
            "000000000000001.5s", "00:00:000000000000001.5", // 16 digits are malformed, not 100 hours
        ])
    func malformedTime(_ value: String) throws {
        let result = TTMLParser.parse(
            Array(document("<p begin=\"\(value)\" end=\"2s\"><span begin=\"1s\" end=\"2s\">la</span></p>").utf8),
            file: "t.ttml")
        let song = try #require(result.song)
        #expect(song.lines[0].start == 1000) // from the span
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.message.hasPrefix("malformed time") == true)
    }

    @Test("a malformed time is quoted as every parser quotes: control characters dropped, cut after 40 bytes")
    func malformedTimeQuote() {
        let value = "soon\u{202E}" + String(repeating: "x", count: 50) // a bidi override, then 57 bytes in all
        let result = TTMLParser.parse(Array(document("<p begin=\"\(value)\" end=\"2s\">la</p>").utf8), file: "t.ttml")
        #expect(
            result.diagnostics.map(\.message) == [
                "malformed time 'soon" + String(repeating: "x", count: 33) + "…' in 'begin'; "
                    + "expected '00:01:02.500' or '62.5s'; attribute ignored"
            ])
    }

    @Test("nested times count from the parent's begin, as TTML defines")
    func relativeTimes() throws {
        let song = try parseSong(
            document(
                """
                <div begin="10s">
                  <p begin="1s" end="3s"><span begin="0s" end="1s">a </span><span begin="1s" end="2s">b</span></p>
                  <p begin="5s" dur="1s">c</p>
                </div>
                """))
        #expect(song.lines.map(\.start) == [11_000, 15_000])
        #expect(spans(song.lines[0]) == [TimedSpan(11_000, 12_000, "a "), TimedSpan(12_000, 13_000, "b")])
        #expect(song.lines[1].end == 16_000)
    }

    @Test("files that write nested times as absolute (Apple Music, AMLL) are read that way")
    func absoluteTimes() throws {
        let song = try parseSong(
            document(
                """
                <div begin="00:08.000" end="00:18.000">
                  <p begin="00:10.000" end="00:12.000"><span begin="00:10.000" end="00:11.000">a </span><span begin="00:11.000" end="00:12.000">b</span></p>
                </div>
                """))
        #expect(spans(song.lines[0]) == [TimedSpan(10_000, 11_000, "a "), TimedSpan(11_000, 12_000, "b")])
    }
}

@Suite("TTML singers, background vocals and translations")
struct TTMLVoiceTests {
    static let agents = """
        <ttm:title>Harbour Song</ttm:title>
        <ttm:agent type="person" xml:id="v1"><ttm:name type="full">First</ttm:name></ttm:agent>
        <ttm:agent type="person" xml:id="v2"/>
        <ttm:agent type="group" xml:id="v1000"/>
        """

    @Test("the title comes from ttm:title, not from an agent's name")
    func title() throws {
        let song = try parseSong(document("<p begin=\"1s\" end=\"2s\">la</p>", head: Self.agents))
        #expect(song.metadata.title == "Harbour Song")
    }

    @Test("persons are parts in the order they appear; a group sings together; no agent is no voice")
    func agents() throws {
        let song = try parseSong(
            document(
                """
                <p begin="1s" end="2s" ttm:agent="v2">two</p>
                <p begin="3s" end="4s" ttm:agent="v1">one</p>
                <p begin="5s" end="6s" ttm:agent="v1000">all</p>
                <p begin="7s" end="8s" ttm:agent="v9">stranger</p>
                <p begin="9s" end="10s">nobody</p>
                """, head: Self.agents))
        #expect(song.lines.map(\.voice) == [.part(1), .part(0), .together, .part(2), nil])
    }

    @Test("an agent on a div is its paragraphs' agent")
    func divAgent() throws {
        let song = try parseSong(
            document("<div ttm:agent=\"v2\"><p begin=\"1s\" end=\"2s\">two</p></div>", head: Self.agents))
        #expect(song.lines[0].voice == .part(1))
    }

    @Test("background vocals are a line of their own, in parentheses, with their own times and the same voice")
    func backgroundVocals() throws {
        let song = try parseSong(
            document(
                """
                <p begin="1s" end="4s" ttm:agent="v2">
                  <span begin="1s" end="2s">main </span><span begin="2s" end="3s">words</span>
                  <span ttm:role="x-bg"><span begin="2.5s" end="3s">echo </span><span begin="3s" end="3.5s">back</span></span>
                </p>
                """, head: Self.agents))
        #expect(song.lines.map(\.text) == ["main words", "(echo back)"])
        #expect(spans(song.lines[1]) == [TimedSpan(2500, 3000, "(echo "), TimedSpan(3000, 3500, "back)")])
        #expect(song.lines[1].start == 2500 && song.lines[1].end == 3500)
        #expect(song.lines.map(\.voice) == [.part(1), .part(1)])
    }

    @Test("background text already in parentheses is not wrapped twice")
    func backgroundParentheses() throws {
        let song = try parseSong(
            document(
                """
                <p begin="1s" end="4s"><span begin="1s" end="2s">main</span><span ttm:role="x-bg" begin="2s" end="3s"><span begin="2s" end="3s">(echo)</span></span></p>
                """))
        #expect(song.lines.map(\.text) == ["main", "(echo)"])
    }

    @Test("an x-translation span is the line's translation, not its text")
    func translationSpan() throws {
        let song = try parseSong(
            document(
                """
                <p begin="1s" end="2s"><span begin="1s" end="2s">hola</span><span ttm:role="x-translation" xml:lang="en">hello</span><span ttm:role="x-roman">ola</span></p>
                """))
        #expect(song.lines[0].text == "hola")
        #expect(song.lines[0].translations == ["hello"])
    }

    @Test("iTunes translations match a line by itunes:key or xml:id; their background part goes to the background line")
    func keyedTranslations() throws {
        let head = """
            <iTunesMetadata xmlns="http://music.apple.com/lyric-ttml-internal"><translations>
              <translation xml:lang="en"><text for="L1">first</text><text for="s2">second <span ttm:role="x-bg">(echo)</span></text></translation>
            </translations>
            <transliterations><transliteration><text for="L1"><span begin="1s" end="2s">roman</span></text></transliteration></transliterations>
            </iTunesMetadata>
            """
        let song = try parseSong(
            document(
                """
                <p begin="1s" end="2s" itunes:key="L1">uno</p>
                <p begin="3s" end="5s" xml:id="s2"><span begin="3s" end="4s">dos</span><span ttm:role="x-bg"><span begin="4s" end="5s">eco</span></span></p>
                """, head: head))
        #expect(song.lines.map(\.translations) == [["first"], ["second"], ["(echo)"]])
    }

    @Test("ruby shows its base only, timed by its readings")
    func ruby() throws {
        let song = try parseSong(
            document(
                """
                <p begin="1s" end="3s">
                  <span begin="1s" end="2s">ab</span>
                  <span tts:ruby="container">
                    <span tts:ruby="base">C</span>
                    <span tts:ruby="textContainer"><span tts:ruby="text" begin="2s" end="2.5s">c1</span><span tts:ruby="text" begin="2.5s" end="3s">c2</span></span>
                  </span>
                </p>
                """))
        #expect(spans(song.lines[0]) == [TimedSpan(1000, 2000, "ab"), TimedSpan(2000, 3000, "C")])
    }
}

@Suite("TTML files as a whole")
struct TTMLFileTests {
    @Test("broken XML is a warning at the parser's position, and the lines before it are kept")
    func brokenXML() throws {
        let text =
            "<tt><body><div>\n<p begin=\"1s\" end=\"2s\">kept</p>\n<p begin=\"3s\" end=\"4s\">lost</span></p></div></body></tt>"
        let result = TTMLParser.parse(Array(text.utf8), file: "t.ttml")
        let song = try #require(result.song)
        #expect(song.lines.map(\.text) == ["kept"])
        let warning = try #require(result.diagnostics.first)
        #expect(warning.severity == .warning && warning.line == 3 && warning.column > 0)
        #expect(warning.message.hasPrefix("malformed XML ("))
    }

    @Test("a file that ends inside an element keeps what was complete")
    func truncatedFile() throws {
        let result = TTMLParser.parse(
            Array(document("<p begin=\"1s\" end=\"2s\">kept</p><p begin=\"3s\"").dropLast(20).utf8), file: "t.ttml")
        #expect(result.song?.lines.map(\.text) == ["kept"])
        #expect(result.diagnostics.contains { $0.message.hasPrefix("malformed XML") })
    }

    @Test(
        "a file without timed lines gives no song and an error", arguments: ["<tt><body/></tt>", "", "not xml at all"])
    func noLines(_ text: String) {
        let result = TTMLParser.parse(Array(text.utf8), file: "t.ttml")
        #expect(result.song == nil)
        #expect(result.diagnostics.last?.severity == .error)
    }

    @Test("without libxml2 the error names the package and the loader's reason, and the edge can tell it apart")
    func libraryMissing() {
        let message = TTMLParser.libraryMissingMessage("libxml2.so.2: cannot open shared object file\u{1B}[2J")
        #expect(
            message
                == "reading TTML needs libxml2 (Debian package libxml2): libxml2.so.2: cannot open shared object file[2J"
        )
        let missing = DiagnosticLog(file: "t.ttml").finish(song: nil, noSongMessage: message)
        #expect(TTMLParser.libraryMissingError(in: missing) == message)
        #expect(TTMLParser.libraryMissingError(in: TTMLParser.parse(Array("<tt/>".utf8), file: "t.ttml")) == nil)
    }

    @Test(
        "content detection knows TTML",
        arguments: ["<?xml version=\"1.0\"?>\n<tt>", "<tt xmlns=\"http://www.w3.org/ns/ttml\">"])
    func detection(_ text: String) {
        #expect(LyricFormat.byContent(Array(text.utf8)) == .ttml)
    }

    /// Inputs a fuzzer would try, by name, so that the test log stays short.
    static let hostileInputs: [String: String] = [
        "entities that expand a billion times": "<?xml version=\"1.0\"?><!DOCTYPE tt [<!ENTITY a \"aaaaaaaaaa\">"
            + "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">"
            + "<!ENTITY d \"&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;\"><!ENTITY e \"&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;\">"
            + "<!ENTITY f \"&e;&e;&e;&e;&e;&e;&e;&e;&e;&e;\"><!ENTITY g \"&f;&f;&f;&f;&f;&f;&f;&f;&f;&f;\">"
            + "<!ENTITY h \"&g;&g;&g;&g;&g;&g;&g;&g;&g;&g;\">]><tt><body><p begin=\"1s\" end=\"2s\">&h;</p></body></tt>",
        "an external entity, which must not be fetched": "<?xml version=\"1.0\"?><!DOCTYPE tt [<!ENTITY x SYSTEM "
            + "\"file:///etc/passwd\">]><tt><body><p begin=\"1s\" end=\"2s\">&x;</p></body></tt>",
        "deep and unclosed": String(repeating: "<span>", count: 100_000),
        "one long line": "<tt><body><p begin=\"1s\" end=\"2s\">" + String(repeating: "la ", count: 2_000_000)
            + "</p></body></tt>",
        "many words with breaks": "<tt><body><p begin=\"1s\" end=\"2s\">"
            + String(repeating: "<span begin=\"1s\">a</span><br/>\n", count: 50_000) + "</p></body></tt>",
        "times too big to fit": "<tt><body><p begin=\"99999999999999999999h\" end=\"1e9s\">huge</p></body></tt>",
    ]

    @Test("hostile input neither crashes nor hangs", arguments: hostileInputs.keys.sorted())
    func hostile(_ name: String) throws {
        let text = try #require(Self.hostileInputs[name])
        let result = TTMLParser.parse(Array(text.utf8), file: "t.ttml")
        if let song = result.song {
            checkInvariants(song)
            #expect(!song.lines.contains { $0.text.contains("root:") })
        }
        #expect(result.diagnostics.count <= DiagnosticLog.limit + 2)
    }

    @Test("100,000 paragraphs parse without quadratic work")
    func manyParagraphs() throws {
        var body = "<div>"
        for index in 0..<100_000 {
            body +=
                "<p begin=\"\(index)s\" end=\"\(index)s500ms\"><span begin=\"\(index)s\">la </span><span begin=\"\(index).25s\">lu</span></p>\n"
        }
        // `1s500ms` is not a time: every end is a warning, kept to the limit, and the words time the lines.
        let clock = ContinuousClock()
        let started = clock.now
        let result = TTMLParser.parse(Array(document(body + "</div>").utf8), file: "t.ttml")
        let song = try #require(result.song)
        #expect(song.lines.count == 100_000)
        #expect(result.diagnostics.count == DiagnosticLog.limit + 1)
        // A guard against quadratic work (minutes here), not a speed test: ASan on a busy machine takes 10–20 s.
        #expect(clock.now - started < .seconds(90))
    }
}

/// The corpus folder of TTML files, when it is there.
private let ttmlCorpus = corpusFolder("ttml")

/// `../shared/corpus/NAME` next to the package root, or under `$KARAOKE_CORPUS`; nil when absent.
private func corpusFolder(_ name: String) -> URL? {
    var root = URL(fileURLWithPath: #filePath)
    while root.path != "/" && !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
    {
        root.deleteLastPathComponent()
    }
    var candidates = [root.deletingLastPathComponent().appendingPathComponent("shared/corpus")]
    if let override = ProcessInfo.processInfo.environment["KARAOKE_CORPUS"] {
        candidates.insert(URL(fileURLWithPath: override), at: 0)
    }
    return candidates.map { $0.appendingPathComponent(name) }.first { FileManager.default.fileExists(atPath: $0.path) }
}

/// The file's text as UTF-8, the way the program reads it.
private func corpusText(_ url: URL) throws -> [UInt8] {
    let bytes = [UInt8](try Data(contentsOf: url))
    guard case .success(let utf8) = SourceText.utf8(from: bytes) else { return [] }
    return String(validating: utf8, as: UTF8.self) == nil ? Array(String(decoding: utf8, as: UTF8.self).utf8) : utf8
}

/// The TTML files of the corpus; the folder also holds expected results in other formats.
private func ttmlFiles() -> [String] {
    guard let folder = ttmlCorpus else { return [] }
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    return names.filter { TTMLCorpusTests.notTTML[$0] == nil }
}

// Skipped cleanly where the shared corpus is not checked out next to the package.
@Suite("TTML corpus", .enabled(if: ttmlCorpus != nil))
struct TTMLCorpusTests {
    /// Files in the folder that are not TTML input, with the reason.
    static let notTTML: [String: String] = [
        "pysubs2__ttml_example.ass": "expected result: pysubs2's conversion of ttml_example.ttml to ASS",
        "pysubs2__ttml_example2.ass": "expected result: pysubs2's conversion of ttml_example2.ttml to ASS",
    ]

    @Test("every file gives a sound song without warnings", arguments: ttmlFiles())
    func corpusFile(_ name: String) throws {
        let utf8 = try corpusText(try #require(ttmlCorpus).appendingPathComponent(name))
        #expect(LyricFormat.detect(utf8: utf8, fileName: name) == .ttml)
        let result = TTMLParser.parse(utf8, file: name)
        let song = try #require(result.song, "\(result.diagnostics)")
        checkInvariants(song)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    }

    @Test("go-astisub's input and its expected re-serialisation read the same")
    func astisubRoundTrip() throws {
        let folder = try #require(ttmlCorpus)
        let input = try #require(
            TTMLParser.parse(try corpusText(folder.appendingPathComponent("astisub__example-in.ttml")), file: "in").song
        )
        let output = try #require(
            TTMLParser.parse(try corpusText(folder.appendingPathComponent("astisub__example-out.ttml")), file: "out")
                .song)
        #expect(
            input.lines.map { TimedSpan($0.start, $0.end, $0.text) }
                == output.lines.map { TimedSpan($0.start, $0.end, $0.text) })
        #expect(input.lines.last?.end == 153_440) // `00:02:33:11` at 25 frames a second
    }

    @Test("the AMLL duet has its singers, background line, translations and absolute times")
    func amllComplexSong() throws {
        let utf8 = try corpusText(try #require(ttmlCorpus).appendingPathComponent("amll__complex-test-song.ttml"))
        let song = try #require(TTMLParser.parse(utf8, file: "complex").song)
        #expect(song.metadata.title == "Complex Test Song")
        #expect(song.lines.map(\.start) == [10_000, 15_000, 20_000, 22_500])
        #expect(song.lines.map(\.voice) == [.part(0), .part(1), .together, .part(0)])
        #expect(song.lines[0].text == "これは テスト")
        #expect(song.lines[3].text == "(背景)")
        #expect(song.lines[0].translations.first == "This is the first line (Vocalist A)")
        // The background line's x-roman span is its reading.
        #expect(song.lines[3].romanization?.text == "haikei")
    }

    @Test("the W3C sample's offset times and <br/> are read")
    func w3cSample() throws {
        let utf8 = try corpusText(try #require(ttmlCorpus).appendingPathComponent("pysubs2__ttml_example.ttml"))
        let song = try #require(TTMLParser.parse(utf8, file: "sample").song)
        #expect(song.lines[0].start == 760 && song.lines[0].end == 3450)
        #expect(song.lines[1].text == "that the image formed on the Retina should be inverted?")
    }

    @Test("AMLL ruby shows the base text timed by its readings")
    func amllRuby() throws {
        let utf8 = try corpusText(try #require(ttmlCorpus).appendingPathComponent("amll__ruby-test-song.ttml"))
        let song = try #require(TTMLParser.parse(utf8, file: "ruby").song)
        #expect(
            spans(song.lines[0]) == [
                TimedSpan(27_000, 27_500, "これは"), TimedSpan(27_690, 27_820, "所"),
                TimedSpan(27_820, 27_950, "詮"),
            ])
    }
}

@Suite("TTML romanization")
struct TTMLRomanizationTests {
    @Test("an x-roman span in a paragraph is the line's reading, neither its text nor a translation")
    func lineReading() throws {
        let song = try parseSong(
            document(
                """
                <p begin="1s" end="2s">한강의 밤<span ttm:role="x-roman" xml:lang="ko-Latn">hangangui bam</span><span ttm:role="x-translation">night on the river</span></p>
                """))
        #expect(song.lines[0].text == "한강의 밤")
        #expect(song.lines[0].romanization == Romanization(text: "hangangui bam"))
        #expect(song.lines[0].translations == ["night on the river"])
    }

    @Test("an x-roman span inside a timed word reads that word, timed with it")
    func wordReadings() throws {
        let song = try parseSong(
            document(
                """
                <p begin="1s" end="3s"><span begin="1s" end="2s">夜の<span ttm:role="x-roman">yoru no</span></span> <span begin="2s" end="3s">川<span ttm:role="x-roman">kawa</span></span></p>
                """))
        let line = try #require(song.lines.first)
        #expect(line.text == "夜の 川")
        let reading = try #require(line.romanization)
        #expect(reading.text == "yoru no kawa")
        #expect(
            reading.segments.map { TimedSpan($0.start, $0.end, $0.text) }
                == [TimedSpan(1000, 2000, "yoru no "), TimedSpan(2000, 3000, "kawa")])
    }

    @Test("a timed x-roman span beside the words is a word of the reading; an open one runs to the next")
    func timedReadingSpans() throws {
        let song = try parseSong(
            document(
                """
                <p begin="1s" end="3s"><span begin="1s" end="2s">夜</span><span begin="2s" end="3s">川</span><span ttm:role="x-roman" begin="1s">yoru</span><span ttm:role="x-roman" begin="2s" end="3s">kawa</span></p>
                """))
        let reading = try #require(song.lines.first?.romanization)
        #expect(
            reading.segments.map { TimedSpan($0.start, $0.end, $0.text) }
                == [TimedSpan(1000, 2000, "yoru "), TimedSpan(2000, 3000, "kawa")])
    }

    @Test("a background line's x-roman span reads the background line")
    func backgroundReading() throws {
        let song = try parseSong(
            document(
                """
                <p begin="1s" end="3s"><span begin="1s" end="2s">川</span><span ttm:role="x-bg" begin="2s" end="3s"><span begin="2s" end="3s">(夜)</span><span ttm:role="x-roman">yoru</span></span></p>
                """))
        #expect(song.lines.map(\.romanization?.text) == [nil, "yoru"])
    }

    @Test("iTunes transliterations read the line of their key; timed spans inside are word timings")
    func keyedReadings() throws {
        let head = """
            <iTunesMetadata xmlns="http://music.apple.com/lyric-ttml-internal"><transliterations>
              <transliteration xml:lang="ja-Latn">
                <text for="L1">kawa no yoru</text>
                <text for="L2">
                  <span begin="3s" end="3.5s">ko</span>
                  <span begin="3.5s" end="4s">nni</span><span ttm:role="x-bg">(ignored)</span>
                </text>
                <text for="L3">fune</text>
              </transliteration>
            </transliterations></iTunesMetadata>
            """
        let song = try parseSong(
            document(
                """
                <p begin="1s" end="2s" itunes:key="L1">川の夜</p>
                <p begin="3s" end="4s" itunes:key="L2"><span begin="3s" end="3.5s">こ</span><span begin="3.5s" end="4s">んに</span></p>
                <p begin="5s" end="6s" itunes:key="L3">舟<span ttm:role="x-roman">bune</span></p>
                <p begin="7s" end="8s" itunes:key="L4">空</p>
                """, head: head))
        #expect(song.lines.map(\.romanization?.text) == ["kawa no yoru", "konni", "bune", nil])
        let timed = try #require(song.lines[1].romanization)
        #expect(
            timed.segments.map { TimedSpan($0.start, $0.end, $0.text) }
                == [TimedSpan(3000, 3500, "ko"), TimedSpan(3500, 4000, "nni")])
        #expect(song.lines[0].romanization?.isWordTimed == false)
    }
}
