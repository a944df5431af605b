import Foundation
import Testing
@testable import KaraokeCore

/// The frame of a bundled song at `time`.
private func frame(
    _ name: String, at time: Double, columns: Int = 80, rows: Int = 24,
    reduceMotion: Bool = false, showsHelp: Bool = false
) throws -> Frame {
    var options = FrameOptions()
    options.reduceMotion = reduceMotion
    var composer = FrameComposer(
        song: try Fixtures.song(name), fallbackTitle: name, columns: columns, rows: rows,
        options: options)
    return composer.frame(at: time, showsHelp: showsHelp)
}

/// The JSON rendering parsed back with Foundation.
private func parsedJSON(_ frame: Frame) throws -> [String: Any] {
    let data = Data(frame.jsonRendering().utf8)
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// A hand-made frame: a title, a lyric row with a wide grapheme and a gap, a status row.
private func handMadeFrame() -> Frame {
    let white = RGB(hex: 0xFFFFFF), gray = RGB(hex: 0x595959)
    let lyric = FrameRow(
        kind: .lyric, line: 2,
        cells: [
            FrameCell(column: 3, grapheme: "a", glyph: "a", width: 1, role: .lyric, fill: 1, color: white),
            FrameCell(column: 4, grapheme: "日", glyph: "日", width: 2, role: .lyric, fill: 0.123_456, color: gray),
            FrameCell(column: 8, grapheme: "\"", glyph: "\"", width: 1, role: .lyric, fill: 0, color: gray),
        ])
    let title = FrameRow(
        kind: .title,
        cells: [
            FrameCell(column: 1, grapheme: "T", glyph: "T", width: 1, role: .title, fill: 1, color: RGB(hex: 0xFF2D55))
        ])
    let status = FrameRow(
        kind: .status,
        cells: [
            FrameCell(column: 0, grapheme: "▶", glyph: "▶", width: 1, role: .status, fill: 1, color: gray)
        ])
    return Frame(time: 12.3, columns: 20, rows: [title, .blank, lyric, status])
}

@Suite("Frame encodings")
struct FrameEncodingTests {
    // MARK: JSON

    @Test(
        "the JSON has time, cols, rows and exactly `rows` screen entries",
        arguments: [
            (columns: 80, rows: 24, time: 18.5), // the default size
            (columns: 40, rows: 14, time: 0), // before the first line
            (columns: 10, rows: 4, time: 30), // too small: a notice
        ])
    func jsonTopLevel(columns: Int, rows: Int, time: Double) throws {
        let object = try parsedJSON(try frame("lantern-river.lrc", at: time, columns: columns, rows: rows))
        #expect(Set(object.keys) == ["time", "cols", "rows", "size", "screen"])
        #expect((object["time"] as? NSNumber)?.doubleValue == time)
        #expect(object["cols"] as? Int == columns)
        #expect(object["rows"] as? Int == rows)
        let screen = try #require(object["screen"] as? [[String: Any]])
        #expect(screen.count == rows)
        for (index, entry) in screen.enumerated() {
            #expect(entry["row"] as? Int == index)
            let kind = try #require(entry["kind"] as? String)
            #expect(["title", "lyric", "translation", "status", "notice", "blank"].contains(kind))
            let text = try #require(entry["text"] as? String)
            #expect(!text.hasSuffix(" "))
            if kind == "blank" { #expect(text.isEmpty) }
        }
    }

    @Test("the JSON's title and status rows are first and last")
    func jsonTitleAndStatus() throws {
        let object = try parsedJSON(try frame("lantern-river.lrc", at: 18.5))
        let screen = try #require(object["screen"] as? [[String: Any]])
        #expect(screen.first?["kind"] as? String == "title")
        #expect((screen.first?["text"] as? String)?.contains("Lantern River — The Karaoke Band") == true)
        #expect(screen.last?["kind"] as? String == "status")
    }

    @Test("lyric rows carry their line and one cell per grapheme with col, text, width and fill")
    func jsonLyricCells() throws {
        let composed = try frame("sakura-station.lrc", at: 46, columns: 40, rows: 20)
        let object = try parsedJSON(composed)
        let screen = try #require(object["screen"] as? [[String: Any]])
        var lyricRows = 0
        for (index, entry) in screen.enumerated() where entry["kind"] as? String == "lyric" {
            lyricRows += 1
            let row = composed.rows[index]
            #expect(entry["line"] as? Int == row.line)
            let cells = try #require(entry["cells"] as? [[String: Any]])
            #expect(cells.count == row.cells.count)
            for (cell, expected) in zip(cells, row.cells) {
                #expect(Set(cell.keys) == ["col", "text", "width", "fill"])
                #expect(cell["col"] as? Int == expected.column)
                #expect(cell["text"] as? String == String(expected.grapheme))
                #expect(cell["width"] as? Int == expected.width)
                let fill = try #require((cell["fill"] as? NSNumber)?.doubleValue)
                #expect(fill >= 0 && fill <= 1)
                #expect(abs(fill - expected.fill) <= 0.000_5)
            }
        }
        #expect(lyricRows > 3)
    }

    @Test("a cell's text is the grapheme as in the file, even where a reduced form is painted")
    func jsonCellTextIsTheGrapheme() throws {
        // "👨‍👩‍👧" is painted reduced; the JSON keeps the whole ZWJ sequence.
        let composed = try frame("sakura-station.lrc", at: 25, columns: 60, rows: 20)
        let object = try parsedJSON(composed)
        let screen = try #require(object["screen"] as? [[String: Any]])
        let texts = screen.compactMap { $0["cells"] as? [[String: Any]] }.flatMap { $0 }.compactMap {
            $0["text"] as? String
        }
        #expect(texts.contains("👨‍👩‍👧"))
    }

    @Test("fill is rounded to three decimals")
    func jsonFillRounding() throws {
        let json = handMadeFrame().jsonRendering()
        #expect(json.contains("\"fill\":0.123}"))
        #expect(json.contains("\"fill\":1.0}"))
        #expect(json.contains("\"fill\":0.0}"))
        // Every fill in a real frame has at most three decimals.
        let real = try frame("paper-boats.lrc", at: 9.3, columns: 60, rows: 12).jsonRendering()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(real.utf8)) as? [String: Any])
        let screen = try #require(object["screen"] as? [[String: Any]])
        let fills = screen.compactMap { $0["cells"] as? [[String: Any]] }.flatMap { $0 }
            .compactMap { ($0["fill"] as? NSNumber)?.doubleValue }
        #expect(fills.contains { $0 > 0 && $0 < 1 })
        for fill in fills {
            #expect(abs(fill * 1000 - (fill * 1000).rounded()) < 1e-6, "\(fill)")
        }
    }

    @Test("the JSON escapes quotes, backslashes and control characters")
    func jsonEscaping() throws {
        var output = ""
        appendJSONString("a\"b\\c\nd\u{1}e\u{85}f", to: &output)
        #expect(output == #""a\"b\\c\nd\u0001e\u0085f""#)
        let object = try parsedJSON(handMadeFrame())
        let screen = try #require(object["screen"] as? [[String: Any]])
        let cells = try #require(screen[2]["cells"] as? [[String: Any]])
        #expect(cells.last?["text"] as? String == "\"")
        #expect(screen[2]["text"] as? String == "   a日  \"")
    }

    @Test("only lyric and translation rows carry cells, and only they carry a line")
    func jsonCellsOnlyOnLyricRows() throws {
        let object = try parsedJSON(try frame("sakura-station.lrc", at: 6, columns: 60, rows: 20, showsHelp: false))
        let screen = try #require(object["screen"] as? [[String: Any]])
        #expect(screen.contains { $0["kind"] as? String == "translation" })
        for entry in screen {
            let kind = entry["kind"] as? String
            let isLyric = kind == "lyric" || kind == "translation"
            #expect((entry["cells"] != nil) == isLyric, "\(kind ?? "?")")
            #expect((entry["line"] != nil) == isLyric, "\(kind ?? "?")")
        }
    }

    @Test("under reduce motion the JSON fills are 0 or 1")
    func jsonReduceMotion() throws {
        let object = try parsedJSON(try frame("paper-boats.lrc", at: 9.3, columns: 60, rows: 12, reduceMotion: true))
        let screen = try #require(object["screen"] as? [[String: Any]])
        let fills = screen.compactMap { $0["cells"] as? [[String: Any]] }.flatMap { $0 }
            .compactMap { ($0["fill"] as? NSNumber)?.doubleValue }
        #expect(!fills.isEmpty)
        #expect(fills.allSatisfy { $0 == 0 || $0 == 1 })
        #expect(fills.contains(1) && fills.contains(0))
    }

    @Test(
        "JSON numbers are valid for whole, fractional, tiny and huge values",
        arguments: [
            (value: 12.0, expected: "12.0"),
            (value: 12.3, expected: "12.3"),
            (value: 0.001, expected: "0.001"),
            (value: Double.nan, expected: "0"),
            (value: Double.infinity, expected: "0"),
        ])
    func jsonNumbers(value: Double, expected: String) throws {
        #expect(jsonNumber(value) == expected)
        let data = Data("[\(jsonNumber(value))]".utf8)
        #expect((try JSONSerialization.jsonObject(with: data) as? [Any])?.count == 1)
    }

    // MARK: Text

    @Test(
        "the text rendering has exactly `rows` lines, trailing spaces trimmed",
        arguments: [
            (columns: 80, rows: 24), (columns: 40, rows: 14), (columns: 10, rows: 4),
        ])
    func textRendering(columns: Int, rows: Int) throws {
        let composed = try frame("lantern-river.lrc", at: 18.5, columns: columns, rows: rows)
        let text = composed.textRendering()
        #expect(text.hasSuffix("\n"))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == rows)
        for (line, row) in zip(lines, composed.rows) {
            #expect(!line.hasSuffix(" "))
            #expect(String(line) == row.text)
            #expect(DisplayWidth.of(String(line)) <= columns)
        }
    }

    @Test("a row's text puts spaces in the gaps and paints the painted form")
    func rowText() {
        #expect(handMadeFrame().rows[2].text == "   a日  \"")
        #expect(handMadeFrame().rows[1].text == "")
        let reduced = FrameRow(
            kind: .lyric,
            cells: [
                FrameCell(
                    column: 0, grapheme: "👨‍👩‍👧", glyph: "👨", width: 2, role: .lyric, fill: 0,
                    color: RGB(hex: 0)),
                FrameCell(column: 2, grapheme: "x", glyph: "x", width: 1, role: .lyric, fill: 0, color: RGB(hex: 0)),
            ])
        #expect(reduced.text == "👨x")
    }

    // MARK: ANSI

    @Test(
        "the ANSI rendering colours cells with SGR codes and resets every row",
        arguments: [
            (depth: ColorDepth.direct, code: "38;2;"), // 24-bit colour
            (depth: ColorDepth.indexed256, code: "38;5;"), // palette
        ])
    func ansiColours(depth: ColorDepth, code: String) throws {
        let ansi = try frame("lantern-river.lrc", at: 18.5).ansiRendering(depth: depth)
        let lines = ansi.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 24)
        #expect(ansi.contains("\u{1B}[0;1;" + code)) // the bold title
        #expect(ansi.contains("\u{1B}[0;" + code)) // lyrics
        for line in lines where line.contains("\u{1B}[") {
            #expect(line.hasSuffix("\u{1B}[0m"), "a row that set a style must reset it")
        }
        #expect(!ansi.contains("\u{1B}[8h"))
    }

    @Test("the ANSI rendering without colours uses bold for sung and normal for unsung")
    func ansiWithoutColours() throws {
        let ansi = try frame("lantern-river.lrc", at: 40, reduceMotion: true).ansiRendering(depth: .none)
        #expect(!ansi.contains("38;2;"))
        #expect(!ansi.contains("38;5;"))
        #expect(ansi.contains("\u{1B}[0;1m"))
        #expect(ansi.contains("\u{1B}[0m"))
    }

    @Test(
        "stripping the SGR codes from the ANSI rendering gives the text rendering",
        arguments: [
            ColorDepth.direct, .indexed256, .basic, .none,
        ])
    func ansiMatchesText(depth: ColorDepth) throws {
        let composed = try frame("sakura-station.lrc", at: 46, columns: 40, rows: 20)
        // The ANSI rows keep the pad of a reduced emoji (`❤ `) at a row's end; the text trims it.
        let stripped = stripSGR(composed.ansiRendering(depth: depth))
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { trimTrailingSpaces(String($0)) }
            .joined(separator: "\n")
        #expect(stripped == composed.textRendering())
    }

    @Test(
        "the exact SGR sequence of a hand-made row at each depth",
        arguments: [
            (
                depth: ColorDepth.direct,
                expected:
                    "   \u{1B}[0;38;2;255;255;255ma\u{1B}[0;38;2;89;89;89m日\u{1B}[0m  \u{1B}[0;38;2;89;89;89m\"\u{1B}[0m"
            ),
            (
                depth: ColorDepth.none,
                expected: "   \u{1B}[0;1ma\u{1B}[0m日\u{1B}[0m  \u{1B}[0m\"\u{1B}[0m"
            ),
            (
                depth: ColorDepth.basic,
                expected: "   \u{1B}[0;1ma\u{1B}[0m日\u{1B}[0m  \u{1B}[0;2m\"\u{1B}[0m"
            ),
        ])
    func ansiRow(depth: ColorDepth, expected: String) {
        let lines = handMadeFrame().ansiRendering(depth: depth).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(String(lines[2]) == expected)
        #expect(String(lines[1]) == "")
    }

    @Test("right-to-left frames ask the terminal not to reorder, and undo it at the end")
    func ansiBidiMode() throws {
        let ansi = try frame("desert-stars.lrc", at: 10, columns: 40, rows: 16).ansiRendering(depth: .direct)
        #expect(ansi.hasPrefix("\u{1B}[8h"))
        #expect(ansi.hasSuffix("\u{1B}[8l"))
    }
}

/// `text` without the spaces at its end.
private func trimTrailingSpaces(_ text: String) -> String {
    var result = text
    while result.last == " " { result.removeLast() }
    return result
}

/// `text` without its CSI … m sequences and the BDSM switches.
private func stripSGR(_ text: String) -> String {
    var result = ""
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
        guard scalar == "\u{1B}" else { result.unicodeScalars.append(scalar); continue }
        _ = scalars.next() // [
        while let next = scalars.next(), !(next == "m" || next == "h" || next == "l") {}
    }
    return result
}
