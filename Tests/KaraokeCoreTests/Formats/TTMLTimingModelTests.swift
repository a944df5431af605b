import Testing
@testable import KaraokeCore

/// A small TTML file: `body` is the inside of `<body>`, which carries `bodyAttributes`.
private func timingDocument(_ body: String, bodyAttributes: String = "") -> String {
    """
    <tt xmlns="http://www.w3.org/ns/ttml" xmlns:tt="http://www.w3.org/ns/ttml"
        xmlns:ttp="http://www.w3.org/ns/ttml#parameter">
    <body \(bodyAttributes)>\(body)</body>
    </tt>
    """
}

/// One rule of the W3C timing model, as a fixture and the lines (or the words of the first line) it gives.
struct TimingCase: CustomTestStringConvertible, Sendable {
    /// The rule, as the test log shows it.
    var rule: String
    /// The inside of `<body>`.
    var body: String
    /// Attributes of `<body>`.
    var bodyAttributes = ""
    /// Each line's start, end and text, in order.
    var lines: [TimedSpan]
    /// The first line's words, when the rule is about words.
    var words: [TimedSpan]? = nil

    var testDescription: String { rule }
}

@Suite("TTML timing model (W3C)")
struct TTMLTimingModelTests {
    static let cases: [TimingCase] = [
        // The issue's first case: a paragraph with only `dur` begins at its parent's begin.
        TimingCase(
            rule: "dur without begin counts from the parent's begin",
            body: #"<div><p dur="2s">x</p></div>"#,
            lines: [TimedSpan(0, 2000, "x")]),
        // The issue's second case.
        TimingCase(
            rule: "a parent's end clips its child's end",
            body: #"<div end="2s"><p begin="1s" end="5s">x</p></div>"#,
            lines: [TimedSpan(1000, 2000, "x")]),
        TimingCase(
            rule: "clipping passes through elements without timing",
            body: #"<div end="2s"><div><p begin="1s" end="5s">x</p></div></div>"#,
            lines: [TimedSpan(1000, 2000, "x")]),
        TimingCase(
            rule: "a child that would begin after its parent ends is not shown",
            body: #"<div end="2s"><p begin="1s" end="2s">a</p><p begin="3s" end="4s">b</p></div>"#,
            lines: [TimedSpan(1000, 2000, "a")]),
        TimingCase(
            rule: "in a par container begin and end count from the parent's begin",
            body: #"<div begin="10s"><p begin="1s" end="3s">a</p><p begin="2s" end="4s">b</p></div>"#,
            lines: [TimedSpan(11_000, 13_000, "a"), TimedSpan(12_000, 14_000, "b")]),
        TimingCase(
            rule: "timing on body counts for everything in it",
            body: #"<p begin="1s" end="2s">a</p>"#, bodyAttributes: #"begin="2s""#,
            lines: [TimedSpan(3000, 4000, "a")]),
        TimingCase(
            rule: "with end and dur both, the earlier end wins (dur)",
            body: #"<p begin="1s" end="5s" dur="2s">a</p>"#,
            lines: [TimedSpan(1000, 3000, "a")]),
        TimingCase(
            rule: "with end and dur both, the earlier end wins (end)",
            body: #"<p begin="1s" end="2s" dur="5s">a</p>"#,
            lines: [TimedSpan(1000, 2000, "a")]),
        TimingCase(
            rule: "an element without timing takes its parent's interval",
            body: #"<div begin="1s" end="3s"><p>x</p></div>"#,
            lines: [TimedSpan(1000, 3000, "x")]),
        // The issue's third case.
        TimingCase(
            rule: "in a seq container each child counts from the end of the one before",
            body: #"<div timeContainer="seq"><p begin="0s" end="1s">one</p><p begin="0s" end="1s">two</p></div>"#,
            lines: [TimedSpan(0, 1000, "one"), TimedSpan(1000, 2000, "two")]),
        TimingCase(
            rule: "a seq child with only dur is kept",
            body: #"<div timeContainer="seq"><p dur="1s">one</p><p dur="2s">two</p></div>"#,
            lines: [TimedSpan(0, 1000, "one"), TimedSpan(1000, 3000, "two")]),
        TimingCase(
            rule: "a seq child's begin is an offset from the end of the one before",
            body: #"<div timeContainer="seq"><p dur="1s">one</p><p begin="2s" dur="1s">two</p></div>"#,
            lines: [TimedSpan(0, 1000, "one"), TimedSpan(3000, 4000, "two")]),
        TimingCase(
            rule: "a seq container's first child begins at the container's begin",
            body: #"<div begin="5s" timeContainer="seq"><p dur="1s">one</p><p dur="1s">two</p></div>"#,
            lines: [TimedSpan(5000, 6000, "one"), TimedSpan(6000, 7000, "two")]),
        TimingCase(
            rule: "a seq child without an end of its own ends when its children have ended",
            body: #"<div timeContainer="seq"><div><p begin="0s" end="2s">one</p></div><p dur="1s">two</p></div>"#,
            lines: [TimedSpan(0, 2000, "one"), TimedSpan(2000, 3000, "two")]),
        TimingCase(
            rule: "timeContainer is read whatever prefix it is written with",
            body: #"<div tt:timeContainer="seq"><p dur="1s">one</p><p dur="1s">two</p></div>"#,
            lines: [TimedSpan(0, 1000, "one"), TimedSpan(1000, 2000, "two")]),
        TimingCase(
            rule: "an explicit par container is the default",
            body: #"<div timeContainer="par"><p dur="1s">one</p><p dur="2s">two</p></div>"#,
            lines: [TimedSpan(0, 1000, "one"), TimedSpan(0, 2000, "two")]),
        TimingCase(
            rule: "words in a seq paragraph follow one another",
            body: #"<p begin="1s" end="4s" timeContainer="seq"><span dur="1s">a </span><span dur="1s">b</span></p>"#,
            lines: [TimedSpan(1000, 4000, "a b")],
            words: [TimedSpan(1000, 2000, "a "), TimedSpan(2000, 3000, "b")]),
        TimingCase(
            rule: "a word's end is clipped by its line's end",
            body: #"<p begin="1s" end="2s"><span begin="0s" end="5s">a</span></p>"#,
            lines: [TimedSpan(1000, 2000, "a")],
            words: [TimedSpan(1000, 2000, "a")]),
        TimingCase(
            rule: "a line without an end stops at its parent's end",
            body: #"<div end="3s"><p begin="1s">a</p></div>"#,
            lines: [TimedSpan(1000, 3000, "a")]),
        // The shape of W3C's sequential-timing test files: B is an anonymous span in a seq container, whose
        // implicit duration is 0, so it never appears; C follows where B (and so its container) ends.
        TimingCase(
            rule: "text directly in a seq container lasts no time and is never shown",
            body: """
                <div timeContainer="seq" dur="20s"><p begin="5s" dur="5s">A</p>                <p begin="5s" timeContainer="seq">B</p><p begin="1s" dur="3s">C</p></div>
                """,
            lines: [TimedSpan(5000, 10_000, "A"), TimedSpan(16_000, 19_000, "C")]),
        TimingCase(
            rule: "a seq line's words are kept while the text between them lasts no time",
            body: #"<p begin="1s" timeContainer="seq">lost<span dur="1s">a</span> <span dur="1s">b</span></p>"#,
            lines: [TimedSpan(1000, 3000, "a b")],
            words: [TimedSpan(1000, 2000, "a "), TimedSpan(2000, 3000, "b")]),
        // The shape of W3C's test of white space between spans: XML's default handling makes the line feed
        // and the indentation one space.
        TimingCase(
            rule: "white space with a line feed between two timed spans is a space in a W3C file",
            body:
                "<div><p><span dur=\"5s\">This first sentence.</span>\n  <span dur=\"10s\">Then a second.</span></p></div>",
            lines: [TimedSpan(0, 10_000, "This first sentence. Then a second.")]),
    ]

    @Test("each timing rule gives the W3C interval", arguments: cases)
    func rule(_ testCase: TimingCase) throws {
        let result = TTMLParser.parse(
            Array(timingDocument(testCase.body, bodyAttributes: testCase.bodyAttributes).utf8),
            file: "t.ttml")
        let song = try #require(result.song, "\(result.diagnostics)")
        #expect(song.lines.map { TimedSpan($0.start, $0.end, $0.text) } == testCase.lines)
        if let words = testCase.words {
            #expect(song.lines[0].segments.map { TimedSpan($0.start, $0.end, $0.text) } == words)
        }
    }

    @Test("Apple Music's and AMLL's indentation between word spans is layout, not a space")
    func dialectIndentation() throws {
        for attribute in [#"itunes:key="L1""#, #"amll:obscene="false""#] {
            let text = timingDocument(
                "<div><p \(attribute)><span dur=\"1s\">test</span>\n    <span dur=\"2s\">ing</span></p></div>")
            let song = try #require(TTMLParser.parse(Array(text.utf8), file: "t.ttml").song)
            #expect(song.lines.map(\.text) == ["testing"], "\(attribute)")
        }
    }

    @Test("text directly in a seq container is named in a warning")
    func anonymousTextWarning() throws {
        let text = timingDocument(#"<p begin="1s" timeContainer="seq">B</p>"#)
        let result = TTMLParser.parse(Array(text.utf8), file: "t.ttml")
        #expect(result.song?.lines.isEmpty ?? true)
        #expect(result.diagnostics.map(\.message).contains { $0.hasPrefix("text 'B' directly inside") })
    }

    @Test("a line that never begins is named in a warning")
    func neverActiveWarning() throws {
        let text = timingDocument(#"<div end="2s"><p begin="1s" end="2s">a</p><p begin="3s" end="4s">b</p></div>"#)
        let result = TTMLParser.parse(Array(text.utf8), file: "t.ttml")
        let warning = try #require(result.diagnostics.first)
        #expect(
            warning.line == 3 && warning.message == "paragraph 'b' begins after the element it is in ends; line ignored"
        )
    }

    @Test("a file that writes nested times as absolute is not clipped or shifted by its parents")
    func absoluteFilesKeepTheirTimes() throws {
        // Apple Music's shape: the div's times and the words' times are on the same clock as the line's.
        let text = timingDocument(
            """
            <div begin="00:10.000" end="00:12.000"><p begin="00:10.000" end="00:13.000">\
            <span begin="00:10.000" end="00:11.000">a </span><span begin="00:11.000" end="00:13.000">b</span></p></div>
            """)
        let song = try #require(TTMLParser.parse(Array(text.utf8), file: "t.ttml").song)
        #expect(song.lines.map { TimedSpan($0.start, $0.end, $0.text) } == [TimedSpan(10_000, 13_000, "a b")])
    }
}
