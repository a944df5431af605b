import Foundation
import Testing
@testable import KaraokeCore

/// The songs in the repository's `lyrics/` folder, parsed; located from this file's path.
enum BundledLyricFiles {
    /// One bundled file and its song.
    struct Entry: Sendable {
        var name: String
        var song: Song
    }

    /// Every `.lrc` file of `lyrics/`, by name.
    static let songs: [Entry] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("lyrics")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return names.filter { $0.hasSuffix(".lrc") }.sorted().compactMap { name in
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).path),
                case .success(let utf8) = SourceText.utf8(from: Array(data)),
                let song = LRCParser.parse(utf8, file: name).song
            else { return nil }
            return Entry(name: name, song: song)
        }
    }()
}

extension LineWrappingTests {
    /// A line of text to wrap, named for the test report.
    struct Line: CustomTestStringConvertible, Sendable {
        var label: String
        var text: String
        var testDescription: String { label }
    }

    /// An example: a line, an area width, and the rows a reader expects.
    struct Example: CustomTestStringConvertible, Sendable {
        var label: String
        var text: String
        var width: Int
        var rows: [String]
        var testDescription: String { label }
    }
}

/// The graphemes of `text` and its rows in an area `width` cells wide, with widths as the painter paints.
private func wrap(_ text: String, _ width: Int) -> (graphemes: [Character], widths: [Int], rows: [WrappedRow]) {
    let graphemes = Array(text)
    let widths = graphemes.map { DisplayWidth.glyph($0).width }
    return (graphemes, widths, LineWrapping.wrap(graphemes, widths: widths, maxWidth: width))
}

/// The text each row shows.
private func rowTexts(_ text: String, _ width: Int) -> [String] {
    let wrapped = wrap(text, width)
    return wrapped.rows.map { String(wrapped.graphemes[$0.range]) }
}

/// The spaces a break hides: ASCII and ideographic.
private func isBreakSpace(_ character: Character) -> Bool { character == " " || character == "\u{3000}" }

/// Whether a grapheme may be left out of the rows: a break space, or a grapheme that paints nothing.
private func isHidden(_ character: Character) -> Bool { isBreakSpace(character) || DisplayWidth.of(character) == 0 }

/// Characters Japanese typesetting never starts a row with (kinsoku): closing punctuation, small kana,
/// iteration and prolonged sound marks. Written out here, independently of the code under test.
private let noRowStart: Set<Character> = Set(
    "、。，．：；？！）］｝」』】〕〉》〟〗〙ー・ゝゞヽヾ々"
        + "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
        + "｡｣､･ｧｨｩｪｫｬｭｮｯｰ")

/// Opening brackets never end a row.
private let noRowEnd: Set<Character> = Set("（［｛「『【〔〈《〝〖〘｢")

/// Sample lines that stress wrapping beyond what the bundled songs have.
private let extraLines: [LineWrappingTests.Line] = [
    .init(label: "outer spaces", text: "   leading and trailing spaces   "),
    .init(label: "runs of spaces", text: "many     spaces   between  words"),
    .init(label: "a very long word", text: "supercalifragilisticexpialidocious and then some"),
    .init(label: "ideographic spaces", text: "春\u{3000}夏\u{3000}秋\u{3000}冬\u{3000}\u{3000}終"),
    .init(label: "kinsoku punctuation and small kana", text: "「カラオケ」は、楽しい！ちょっとだけ。キャッチー（ｷｬｯﾁｰ）だよ。"),
    .init(label: "halfwidth kinsoku", text: "ｶﾗｵｹ｢ﾀﾉｼｲ｣､ﾎﾝﾄ｡ｷｬｯﾁｰﾅｳﾀ｡"),
    .init(label: "clusters of every width", text: "e\u{301}te\u{301} 👨‍👩‍👧 🇯🇵 ❤️ 1️⃣ 한국어 ｶﾞｷﾞ 👍🏽👍🏽👍🏽"),
    .init(label: "CJK and Latin without spaces", text: "日本語とEnglishが混ざった行です"),
    .init(label: "Hebrew with digits", text: "ואני סופר 1001 כוכבים בשמיים"),
    .init(label: "zero-width spaces", text: "日\u{200B}本\u{200B}語\u{200B}です a\u{200B}b\u{200B}c\u{200B}d"),
    .init(label: "leading combining mark", text: "\u{301}abc def"),
    .init(label: "zero-width spaces before breaks", text: "a\u{200B} b\u{200B} c\u{200B}\u{3000}日\u{200B} 本"),
    .init(label: "empty", text: ""),
    .init(label: "only spaces", text: "    "),
]

/// Every bundled line and translation, and the extra lines.
private let allLines: [LineWrappingTests.Line] = {
    var lines: [LineWrappingTests.Line] = []
    for entry in BundledLyricFiles.songs {
        for (index, line) in entry.song.lines.enumerated() {
            lines.append(.init(label: "\(entry.name) line \(index)", text: line.text))
            for (t, translation) in line.translations.enumerated() {
                lines.append(.init(label: "\(entry.name) line \(index) translation \(t)", text: translation))
            }
        }
    }
    return lines + extraLines
}()

/// Area widths from the narrowest possible to wider than any line.
private let areaWidths = 1...120

@Suite("Wrapping a line into rows")
struct LineWrappingTests {
    @Test("finds the bundled songs")
    func bundledSongsAreThere() throws {
        // Guards the properties below against passing vacuously.
        try #require(BundledLyricFiles.songs.count >= 4)
        #expect(allLines.count > 60)
    }

    @Test("never makes a row wider than the area, except a lone grapheme that cannot fit", arguments: allLines)
    func noRowWiderThanTheArea(_ line: Line) {
        for width in areaWidths {
            let wrapped = wrap(line.text, width)
            for row in wrapped.rows {
                let cells = wrapped.widths[row.range].reduce(0, +)
                #expect(row.width == cells, "row width at \(width)")
                let visible = wrapped.widths[row.range].filter { $0 > 0 }.count
                #expect(
                    row.width <= width || visible == 1,
                    "row '\(String(wrapped.graphemes[row.range]))' is \(row.width) cells in \(width)")
            }
        }
    }

    @Test("never splits a grapheme: rows cover every visible grapheme once, in order", arguments: allLines)
    func rowsCoverTheGraphemesInOrder(_ line: Line) throws {
        for width in areaWidths {
            let wrapped = wrap(line.text, width)
            var next = 0
            for row in wrapped.rows {
                try #require(!row.range.isEmpty)
                try #require(row.range.lowerBound >= next && row.range.upperBound <= wrapped.graphemes.count)
                // Whatever lies between two rows (or before the first) is break spaces, or graphemes
                // that paint nothing.
                #expect(
                    wrapped.graphemes[next..<row.range.lowerBound].allSatisfy(isHidden),
                    "graphemes lost before row at \(width)")
                next = row.range.upperBound
            }
            #expect(wrapped.graphemes[next...].allSatisfy(isHidden), "graphemes lost at the end at \(width)")
        }
    }

    @Test("gives rows that re-join to the line, but for the spaces at breaks", arguments: allLines)
    func rowsRejoinToTheLine(_ line: Line) {
        // Zero-width graphemes may be left out at a break too: they paint nothing.
        let withoutSpaces = line.text.filter { !isHidden($0) }
        let trimmed = line.text.drop(while: isBreakSpace).reversed().drop(while: isBreakSpace).reversed()
        for width in areaWidths {
            let rows = rowTexts(line.text, width)
            #expect(rows.joined().filter { !isHidden($0) } == withoutSpaces, "at \(width)")
            // A line that fits is not broken at all.
            if DisplayWidth.of(String(trimmed)) <= width {
                #expect(rows == (trimmed.isEmpty ? [] : [String(trimmed)]), "fits in \(width)")
            }
        }
    }

    @Test("shows something on every row of a visible line", arguments: allLines)
    func noBlankRows(_ line: Line) {
        for width in areaWidths {
            // A row of zero-width graphemes alone would be a blank row in the middle of a lyric.
            for row in wrap(line.text, width).rows {
                #expect(row.width > 0 || DisplayWidth.of(line.text) == 0, "row \(row.range) at \(width)")
            }
        }
    }

    @Test("never starts or ends a row with a space", arguments: allLines)
    func rowsHaveNoOuterSpaces(_ line: Line) throws {
        for width in areaWidths {
            for row in rowTexts(line.text, width) {
                let first = try #require(row.first), last = try #require(row.last)
                #expect(!isBreakSpace(first) && !isBreakSpace(last), "row '\(row)' at \(width)")
            }
        }
    }

    @Test(
        "keeps closing punctuation and small kana off the start of a row, and opening brackets off its end",
        arguments: allLines)
    func kinsokuHoldsWhenAvoidable(_ line: Line) throws {
        // From three wide cells on, every bundled line can avoid a bad break.
        for width in 6...120 {
            let rows = rowTexts(line.text, width)
            for (index, row) in rows.enumerated() {
                let first = try #require(row.first), last = try #require(row.last)
                #expect(index == 0 || !noRowStart.contains(first), "row '\(row)' at \(width)")
                #expect(index == rows.count - 1 || !noRowEnd.contains(last), "row '\(row)' at \(width)")
            }
        }
    }

    @Test(
        "fills a row with words before it starts the next",
        arguments: allLines.filter {
            !$0.text.isEmpty && $0.text.allSatisfy { $0.isASCII && $0 != "\u{3000}" }
        })
    func breaksNoEarlierThanNeeded(_ line: Line) throws {
        let longestWord = line.text.split(separator: " ").map(\.count).max() ?? 0
        for width in longestWord...120 {
            let wrapped = wrap(line.text, width)
            for (row, next) in zip(wrapped.rows, wrapped.rows.dropFirst()) {
                let nextWord = try #require(wrapped.graphemes[next.range].split(separator: " ").first)
                let spaces = next.range.lowerBound - row.range.upperBound
                // Had the next row's first word fitted after the spaces, it would be on this row.
                #expect(row.width + spaces + nextWord.count > width, "'\(String(nextWord))' left over at \(width)")
            }
        }
    }

    static let examples: [Example] = [
        // A row breaks after a space, and the space is not shown.
        Example(
            label: "break after spaces", text: "Down where the lantern", width: 10,
            rows: ["Down where", "the", "lantern"]),
        // Spaces may run past the edge; they vanish at the break.
        Example(label: "spaces past the edge", text: "abc   def", width: 3, rows: ["abc", "def"]),
        // Outer spaces are never shown.
        Example(label: "outer spaces", text: "  ab  cd  ", width: 20, rows: ["ab  cd"]),
        // A word wider than the area breaks between graphemes.
        Example(label: "word wider than the area", text: "karaoke", width: 3, rows: ["kar", "aok", "e"]),
        // A long word after a short one starts its own row first.
        Example(label: "long word on its own row", text: "a karaoke", width: 4, rows: ["a", "kara", "oke"]),
        // A long word never splits a cluster: the accented e stays whole.
        Example(
            label: "long word with combining marks", text: "e\u{301}e\u{301}e\u{301}e\u{301}", width: 3,
            rows: ["e\u{301}e\u{301}e\u{301}", "e\u{301}"]),
        // Between two ideographs or kana any boundary may break.
        Example(label: "CJK boundary", text: "春風が線路の上", width: 6, rows: ["春風が", "線路の", "上"]),
        // Wide characters do not fit in the one cell left over: odd widths leave a cell empty.
        Example(label: "CJK in an odd width", text: "春風が線路", width: 5, rows: ["春風", "が線", "路"]),
        // Halfwidth kana break like kana.
        Example(label: "halfwidth kana", text: "ｶﾗｵｹ", width: 2, rows: ["ｶﾗ", "ｵｹ"]),
        // Fullwidth Latin breaks anywhere.
        Example(label: "fullwidth Latin", text: "ＡＢＣＤ", width: 4, rows: ["ＡＢ", "ＣＤ"]),
        // An ideographic space is a space: a break there hides it.
        Example(label: "ideographic space", text: "春\u{3000}夏", width: 2, rows: ["春", "夏"]),
        // An emoji after a space goes to the next row whole.
        Example(label: "emoji after a space", text: "待っている 🌸", width: 10, rows: ["待っている", "🌸"]),
        // A ZWJ family is one grapheme of two cells.
        Example(label: "ZWJ family", text: "ab👨\u{200D}👩\u{200D}👧", width: 3, rows: ["ab", "👨\u{200D}👩\u{200D}👧"]),
        // A zero-width space goes along with the grapheme after it rather than make a blank row.
        Example(
            label: "zero-width space in a one-cell area", text: "日\u{200B}本", width: 1,
            rows: ["日", "\u{200B}本"]),
        // A zero-width space between a grapheme and a break is left out rather than make a blank row.
        Example(label: "zero-width space before a break", text: "日\u{200B} 本", width: 1, rows: ["日", "本"]),
        // A line of nothing visible keeps its one row.
        Example(label: "only a zero-width space", text: "\u{200B}", width: 10, rows: ["\u{200B}"]),
        // The documented exception: a wide grapheme alone in a one-cell area.
        Example(label: "wide grapheme in a one-cell area", text: "日本", width: 1, rows: ["日", "本"]),
        // Kinsoku: 。 never starts a row; the kana before it comes along.
        Example(label: "full stop stays with its word", text: "あいう。", width: 6, rows: ["あい", "う。"]),
        // Kinsoku: the ideographic comma likewise.
        Example(label: "comma stays with its word", text: "はいそ、です", width: 6, rows: ["はい", "そ、で", "す"]),
        // Kinsoku: a small kana stays with the kana before it.
        Example(label: "small kana", text: "あいきょう", width: 6, rows: ["あい", "きょう"]),
        // Kinsoku: the small tsu likewise.
        Example(label: "small tsu", text: "あいまって", width: 6, rows: ["あい", "まって"]),
        // Kinsoku: the prolonged sound mark likewise.
        Example(label: "prolonged sound mark", text: "アイスー", width: 6, rows: ["アイ", "スー"]),
        // Kinsoku: halfwidth small kana likewise.
        Example(label: "halfwidth small kana", text: "ｱｷｬｯﾄ", width: 3, rows: ["ｱ", "ｷｬｯ", "ﾄ"]),
        // Kinsoku: small katakana of the phonetic extensions (Ainu) likewise.
        Example(label: "small katakana extension", text: "アイヌㇷ", width: 6, rows: ["アイ", "ヌㇷ"]),
        // Kinsoku: a closing bracket stays with the text it closes.
        Example(label: "closing bracket", text: "「あいう」", width: 8, rows: ["「あい", "う」"]),
        // Kinsoku: an opening bracket goes with the text it opens.
        Example(label: "opening bracket", text: "あい「う」", width: 6, rows: ["あい", "「う」"]),
        // When there is no other way, a row may start with a no-start character.
        Example(label: "kinsoku that cannot be kept", text: "日。", width: 2, rows: ["日", "。"]),
    ]

    @Test("breaks where a reader expects", arguments: examples)
    func breaksWhereAReaderExpects(_ example: Example) {
        #expect(rowTexts(example.text, example.width) == example.rows)
    }

    @Test("reports each row's width in cells")
    func rowWidthsAreCells() throws {
        let wrapped = wrap("さくら 🌸 la", 7)
        try #require(wrapped.rows.count == 2)
        #expect(wrapped.rows[0].width == 6)
        #expect(wrapped.rows[1].width == 5) // 🌸 (2) + space + "la"
    }

    @Test("makes no rows of an empty or blank line", arguments: ["", "   ", "\u{3000}\u{3000}"])
    func blankLinesHaveNoRows(_ text: String) {
        #expect(rowTexts(text, 10).isEmpty)
    }
}
