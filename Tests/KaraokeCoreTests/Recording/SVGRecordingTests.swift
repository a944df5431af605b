import Foundation
import Testing
@testable import KaraokeCore

/// The animated SVG of `render --format svg` and its stills (DESIGN §27), read back by `SVGDecoder`.
@Suite("SVG recordings")
struct SVGRecordingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var song: String
        var from: Double
        var seconds: Double
        var fps: Double
        var columns: Int
        var rows: Int
        var reduceMotion = false
        var light = false
        /// The lyrics' size: 2 or more draws them in block glyphs from a made-up font (DESIGN §23).
        var size = 1
        var testDescription: String {
            "\(song) \(from)+\(seconds)s \(columns)x\(rows)\(reduceMotion ? " reduced" : "")\(light ? " light" : "")"
                + (size > 1 ? " size \(size)" : "")
        }
    }

    /// The frames of `song` from `from` for `seconds`, at `fps`, each appended at its time from the start.
    static func record(_ c: Case) throws -> (recording: SVGRecording, frames: [Frame], options: FrameOptions) {
        let song = try Fixtures.song(c.song)
        var options = FrameOptions()
        options.reduceMotion = c.reduceMotion
        if c.light { options.theme = .light }
        if c.size > 1 {
            options.size = .fixed(c.size)
            options.bigFont = BigFontSource(font: MadeUpFont.font(for: song))
        }
        var composer = FrameComposer(
            song: song, fallbackTitle: c.song, columns: c.columns, rows: c.rows, options: options)
        var recording = SVGRecording(columns: c.columns, rows: c.rows, options: options)
        var frames: [Frame] = []
        let count = Int((c.seconds * c.fps).rounded())
        for k in 0..<count {
            let offset = Double(k) / c.fps
            let frame = composer.frame(FrameInput(time: c.from + offset, reduceMotion: c.reduceMotion))
            recording.append(frame, at: offset)
            frames.append(frame)
        }
        return (recording, frames, options)
    }

    /// The cells of `row` as a direct-colour terminal shows them, control characters and padding spaces left out.
    static func expectedCells(_ row: FrameRow, columns: Int) -> [DrawnCell] {
        row.cells.compactMap { cell in
            guard cell.column >= 0, cell.column + max(1, cell.width) <= columns else { return nil }
            let glyph = SVGText.drawn(cell.glyph)
            guard !glyph.isEmpty else { return nil }
            let style = TerminalStyle.of(cell, depth: .direct)
            return DrawnCell(column: cell.column, glyph: glyph, fill: "\(style.rgb!)", bold: style.weight == .bold)
        }
    }

    /// Checks that `decoded` shows `frame` at `time`: each row's text, and each cell's glyph, colour and weight.
    static func check(_ decoded: SVGDecoder, shows frame: Frame, at time: Double) {
        for (index, row) in frame.rows.enumerated() {
            #expect(decoded.text(row: index, at: time) == row.text, "row \(index) at \(time)")
            let expected = expectedCells(row, columns: frame.columns)
            #expect(decoded.cells(row: index, at: time) == expected, "row \(index) at \(time)")
            var backgrounds: [Int: String] = [:]
            for cell in row.cells {
                guard let rgb = TerminalStyle.of(cell, depth: .direct).backgroundRGB else { continue }
                for column in cell.column..<cell.column + max(1, cell.width) { backgrounds[column] = "\(rgb)" }
            }
            #expect(decoded.backgrounds(row: index, at: time) == backgrounds, "row \(index) at \(time)")
        }
    }

    static let cases: [Case] = [
        // Word-timed English, the size of the README's picture.
        Case(song: "paper-boats.lrc", from: 2, seconds: 12, fps: 10, columns: 80, rows: 24),
        // Line-timed, with the count-in and a glide between lines.
        Case(song: "lantern-river.lrc", from: 0, seconds: 12, fps: 10, columns: 60, rows: 16),
        // Wide CJK graphemes and translations: each grapheme on its own column.
        Case(song: "sakura-station.lrc", from: 40, seconds: 10, fps: 10, columns: 40, rows: 20),
        // Right-to-left rows, already in visual order.
        Case(song: "desert-stars.lrc", from: 24, seconds: 10, fps: 10, columns: 40, rows: 16),
        // Reduce motion: whole segments light; the title stands still.
        Case(song: "paper-boats.lrc", from: 4, seconds: 10, fps: 10, columns: 60, rows: 12, reduceMotion: true),
        // The light theme: dark ink on a white page.
        Case(song: "lantern-river.lrc", from: 16, seconds: 6, fps: 10, columns: 50, rows: 10, light: true),
        // Big lyrics: rows of block glyphs, each cell in its shade as the sweep crosses it.
        Case(song: "lantern-river.lrc", from: 16, seconds: 6, fps: 10, columns: 100, rows: 30, size: 2),
        Case(song: "sakura-station.lrc", from: 40, seconds: 5, fps: 10, columns: 120, rows: 40, size: 3),
    ]

    @Test("a recording shows each frame's rows, cells and colours while that frame lasts", arguments: cases)
    func recordingShowsEachFrame(_ c: Case) throws {
        let (recording, frames, options) = try SVGRecordingTests.record(c)
        #expect(frames.allSatisfy { $0.size == c.size })
        let svg = recording.svg(duration: c.seconds)
        let decoded = try SVGDecoder(svg)
        #expect(decoded.background == "\(options.theme.background)")
        #expect(decoded.foreground == "\(options.theme.foreground)")
        #expect(decoded.duration.map { abs($0 - c.seconds) < 0.001 } ?? (frames.count <= 1))
        for (k, frame) in frames.enumerated() {
            // Halfway through the frame's time on screen, and again one loop later.
            let time = (Double(k) + 0.5) / c.fps
            SVGRecordingTests.check(decoded, shows: frame, at: time)
            if k % 17 == 0 { SVGRecordingTests.check(decoded, shows: frame, at: time + c.seconds) }
        }
    }

    @Test("a still shows its frame and has no animation", arguments: Fixtures.bundledSongs.map(\.lastPathComponent))
    func stillShowsItsFrame(_ name: String) throws {
        let song = try Fixtures.song(name)
        var composer = FrameComposer(song: song, fallbackTitle: name, columns: 72, rows: 20, options: FrameOptions())
        let frame = composer.frame(FrameInput(time: 20.3))
        let svg = SVGRecording.still(frame, options: FrameOptions())
        #expect(!svg.contains("@keyframes"))
        let decoded = try SVGDecoder(svg)
        SVGRecordingTests.check(decoded, shows: frame, at: 0)
    }

    @Test(
        "twenty seconds of a song at 80×24 and 30 fps take under 1 MB",
        arguments: ["paper-boats.lrc", "lantern-river.lrc"])
    func twentySecondsFitAReadme(_ song: String) throws {
        for fps in [30.0, 15.0] {
            let c = Case(song: song, from: 0, seconds: 20, fps: fps, columns: 80, rows: 24)
            let (recording, frames, _) = try SVGRecordingTests.record(c)
            let bytes = recording.svg(duration: 20).utf8.count
            print("SVG of \(song) 0–20 s at 80×24, \(Int(fps)) fps (\(frames.count) frames): \(bytes) bytes")
            #expect(bytes < 1_000_000)
        }
    }
}

/// Lyrics and frames with text that XML treats specially, or forbids.
@Suite("SVG recordings of hostile text")
struct SVGHostileTextTests {
    static let lyrics: [String] = [
        "a < b && c > d", // markup characters
        "say \"hi\" and 'bye'", // quotes
        "end ]]> of CDATA <![CDATA[ x ]]>", // the CDATA terminator
        "<script>alert(1)</script> &amp; &#0;", // markup and entities that must stay text
        "bell\u{07} escape\u{1B}[31m del\u{7F} c1\u{85}\u{9B} nul\u{0}", // control characters
        "non\u{FFFE}char\u{FFFF}acters", // scalars XML 1.0 forbids
        "e\u{301}&\u{301}<\u{20DD} 🇯🇵👩‍👩‍👧 한글", // combining marks on markup, a flag, a ZWJ family, Hangul
    ]

    @Test("lyrics with markup, quotes and control characters give valid XML that shows them", arguments: lyrics)
    func hostileLyrics(_ line: String) throws {
        let song = try Fixtures.song(text: "[ti:\(line)]\n[ar:<&\">]\n[00:01.00]\(line)\n[00:03.00]\(line) two\n")
        var composer = FrameComposer(song: song, fallbackTitle: "x", columns: 60, rows: 10, options: FrameOptions())
        var recording = SVGRecording(columns: 60, rows: 10, options: FrameOptions())
        var frames: [Frame] = []
        for k in 0..<40 {
            let frame = composer.frame(FrameInput(time: Double(k) / 10))
            recording.append(frame, at: Double(k) / 10)
            frames.append(frame)
        }
        let decoded = try SVGDecoder(recording.svg(duration: 4))
        for (k, frame) in frames.enumerated() {
            SVGRecordingTests.check(decoded, shows: frame, at: (Double(k) + 0.5) / 10)
        }
    }

    @Test("control characters in a frame's glyphs are left out of the picture", arguments: lyrics)
    func hostileGlyphs(_ text: String) throws {
        var cells: [FrameCell] = []
        for (k, character) in text.enumerated() {
            cells.append(
                FrameCell(
                    column: k, grapheme: character, glyph: String(character), width: 1, role: .lyric, fill: 1,
                    color: RGB(hex: 0x123456)))
        }
        let frame = Frame(time: 0, columns: 80, rows: [FrameRow(kind: .lyric, cells: cells), .blank])
        let svg = SVGRecording.still(frame, options: FrameOptions())
        let decoded = try SVGDecoder(svg)
        #expect(!svg.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!svg.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
        let shown = decoded.cells(row: 0, at: 0)
        #expect(shown == SVGRecordingTests.expectedCells(frame.rows[0], columns: 80))
    }
}

/// Cells the text songs do not have: backgrounds, wide and joined graphemes placed by hand.
@Suite("SVG drawings of cells")
struct SVGCellDrawingTests {
    @Test("picture cells draw their backgrounds as rectangles, merged where adjacent and alike")
    func pictureBackgrounds() throws {
        let red = RGB(hex: 0xFF0000), blue = RGB(hex: 0x0000FF)
        let cells = (0..<10).map { k in
            FrameCell(
                column: k, grapheme: "▀", glyph: "▀", width: 1, role: .picture, fill: 1, color: blue,
                background: k < 6 ? red : nil)
        }
        let frame = Frame(time: 0, columns: 12, rows: [FrameRow(kind: .picture, cells: cells)])
        let svg = SVGRecording.still(frame, options: FrameOptions())
        let decoded = try SVGDecoder(svg)
        SVGRecordingTests.check(decoded, shows: frame, at: 0)
        // Six red cells and four whose background is their own ink, as the terminal shows a picture cell.
        #expect(svg.components(separatedBy: "<rect").count - 1 == 3)
    }

    @Test("wide, joined and combined graphemes each land on their column")
    func graphemesOnTheirColumns() throws {
        let graphemes: [(Character, Int)] = [
            ("桜", 2), ("a", 1), ("🇯🇵", 2), ("é", 1), ("b", 1), ("👩‍👩‍👧", 2), ("漢", 2), ("字", 2), ("c", 1),
        ]
        var cells: [FrameCell] = []
        var column = 3
        for (grapheme, width) in graphemes {
            cells.append(
                FrameCell(
                    column: column, grapheme: grapheme, glyph: String(grapheme), width: width, role: .lyric,
                    fill: 0.5, color: RGB(hex: 0x808080)))
            column += width + (grapheme == "b" ? 2 : 0)
        }
        let frame = Frame(time: 0, columns: 40, rows: [FrameRow(kind: .lyric, cells: cells)])
        let decoded = try SVGDecoder(SVGRecording.still(frame, options: FrameOptions()))
        SVGRecordingTests.check(decoded, shows: frame, at: 0)
    }

    @Test("a cell past the right edge is left out, as the terminal leaves it")
    func cellsPastTheEdge() throws {
        let cells = [
            FrameCell(column: 8, grapheme: "x", glyph: "x", width: 1, role: .lyric, fill: 1, color: RGB(hex: 0xFFFFFF)),
            FrameCell(column: 9, grapheme: "桜", glyph: "桜", width: 2, role: .lyric, fill: 1, color: RGB(hex: 0xFFFFFF)),
        ]
        let frame = Frame(time: 0, columns: 10, rows: [FrameRow(kind: .lyric, cells: cells)])
        let decoded = try SVGDecoder(SVGRecording.still(frame, options: FrameOptions()))
        #expect(decoded.text(row: 0, at: 0) == "        x")
    }
}

/// When each frame shows in the loop (DESIGN §27.5).
@Suite("SVG recording times")
struct SVGRecordingTimeTests {
    /// A 10×2 frame whose first row says `text`.
    static func frame(_ text: String) -> Frame {
        let cells = text.enumerated().map { k, character in
            FrameCell(
                column: k, grapheme: character, glyph: String(character), width: 1, role: .lyric, fill: 1,
                color: RGB(hex: 0xFFFFFF))
        }
        return Frame(time: 0, columns: 10, rows: [FrameRow(kind: .lyric, cells: cells), .blank])
    }

    /// The first row of `svg` at each of `times`.
    static func texts(_ svg: String, at times: [Double]) throws -> [String] {
        let decoded = try SVGDecoder(svg)
        return times.map { decoded.text(row: 0, at: $0) }
    }

    @Test("each frame shows from its time until the next, and the loop starts again with the first")
    func framesInTurn() throws {
        var recording = SVGRecording(columns: 10, rows: 2, options: FrameOptions())
        for (k, text) in ["one", "two", "one", "", "three"].enumerated() {
            recording.append(SVGRecordingTimeTests.frame(text), at: Double(k))
        }
        let times = [0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 9.9, 10.1]
        #expect(
            try SVGRecordingTimeTests.texts(recording.svg(duration: 10), at: times) == [
                "one", "two", "one", "", "three", "three", "three", "three", "one",
            ])
    }

    @Test("the first frame shows from the start; frames from the duration on are left out")
    func lateStartAndFramesPastTheEnd() throws {
        var recording = SVGRecording(columns: 10, rows: 2, options: FrameOptions())
        recording.append(SVGRecordingTimeTests.frame("first"), at: 1)
        recording.append(SVGRecordingTimeTests.frame("second"), at: 2)
        recording.append(SVGRecordingTimeTests.frame("past"), at: 3)
        let svg = recording.svg(duration: 3)
        #expect(
            try SVGRecordingTimeTests.texts(svg, at: [0.1, 1.5, 2.5, 2.99]) == ["first", "first", "second", "second"])
        #expect(!svg.contains("past"))
    }

    @Test("a frame at the time of the one before, or earlier, replaces it")
    func sameOrEarlierTime() throws {
        var recording = SVGRecording(columns: 10, rows: 2, options: FrameOptions())
        recording.append(SVGRecordingTimeTests.frame("a"), at: 0)
        recording.append(SVGRecordingTimeTests.frame("b"), at: 1)
        recording.append(SVGRecordingTimeTests.frame("c"), at: 1)
        recording.append(SVGRecordingTimeTests.frame("d"), at: 0.5)
        recording.append(SVGRecordingTimeTests.frame("e"), at: 2)
        #expect(try SVGRecordingTimeTests.texts(recording.svg(duration: 3), at: [0.5, 1.5, 2.5]) == ["a", "d", "e"])
    }

    @Test("two changes closer than the keyframes' precision keep the later")
    func changesThatRoundTogether() throws {
        var recording = SVGRecording(columns: 10, rows: 2, options: FrameOptions())
        recording.append(SVGRecordingTimeTests.frame("a"), at: 0)
        recording.append(SVGRecordingTimeTests.frame("b"), at: 1)
        recording.append(SVGRecordingTimeTests.frame("c"), at: 1.000_000_1)
        #expect(try SVGRecordingTimeTests.texts(recording.svg(duration: 2), at: [0.5, 1.5]) == ["a", "c"])
    }

    @Test("a recording without frames is the theme's blank page")
    func emptyRecording() throws {
        var options = FrameOptions()
        options.theme = .light
        let decoded = try SVGDecoder(SVGRecording(columns: 20, rows: 4, options: options).svg(duration: 5))
        #expect(decoded.background == "#ffffff")
        #expect(decoded.positions.isEmpty && decoded.definitions.isEmpty)
    }

    @Test("a row that never changes is drawn once, without animation")
    func constantRows() throws {
        var recording = SVGRecording(columns: 10, rows: 2, options: FrameOptions())
        for k in 0..<30 { recording.append(SVGRecordingTimeTests.frame("same"), at: Double(k) / 10) }
        let svg = recording.svg(duration: 3)
        #expect(!svg.contains("@keyframes"))
        #expect(svg.components(separatedBy: ">same<").count == 2)
    }
}
