import Testing

@testable import KaraokeCore

@Suite("Painting emoji sequences whole or reduced")
struct WholeGraphemeTests {
    /// A grapheme, its width, and what is painted for it in each form.
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let grapheme: Character
        let width: Int
        let reduced: String
        let whole: String
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        // A ZWJ family: four emoji joined, reduced to the first.
        Case(label: "family", grapheme: "👨‍👩‍👧‍👦", width: 2, reduced: "👨", whole: "👨‍👩‍👧‍👦"),
        // A skin-tone modifier sequence.
        Case(label: "skin tone", grapheme: "👍🏽", width: 2, reduced: "👍", whole: "👍🏽"),
        // A flag is two regional indicators, painted whole in both forms.
        Case(label: "flag", grapheme: "🇯🇵", width: 2, reduced: "🇯🇵", whole: "🇯🇵"),
        // A keycap: a narrow digit, VS16 and the keycap mark; reduced pads the digit to two cells.
        Case(label: "keycap", grapheme: "1️⃣", width: 2, reduced: "1 ", whole: "1️⃣"),
        // A narrow symbol with VS16.
        Case(label: "heart with VS16", grapheme: "❤️", width: 2, reduced: "❤ ", whole: "❤️"),
        // A plain emoji is itself either way.
        Case(label: "plain emoji", grapheme: "😀", width: 2, reduced: "😀", whole: "😀"),
        // CJK is itself either way.
        Case(label: "CJK", grapheme: "桜", width: 2, reduced: "桜", whole: "桜"),
        // Combining marks are not emoji sequences: the grapheme is painted as it is.
        Case(
            label: "combining marks", grapheme: "e\u{301}\u{323}", width: 1, reduced: "e\u{301}\u{323}",
            whole: "e\u{301}\u{323}"),
        // ASCII.
        Case(label: "ASCII", grapheme: "a", width: 1, reduced: "a", whole: "a"),
    ]

    @Test("the painted form changes and the width does not", arguments: cases)
    func paintedForm(_ item: Case) {
        let reduced = DisplayWidth.glyph(item.grapheme)
        let whole = DisplayWidth.glyph(item.grapheme, form: .whole)
        #expect(reduced == TerminalGlyph(text: item.reduced, width: item.width))
        #expect(whole == TerminalGlyph(text: item.whole, width: item.width))
        #expect(DisplayWidth.of(item.grapheme) == item.width)
    }

    @Test("a frame with whole graphemes lays out exactly as the reduced one, only the glyphs differ")
    func frameLayout() throws {
        let text = "[ti:Picnic 👨‍👩‍👧‍👦]\n[00:01.00]we 👨‍👩‍👧‍👦 sing 👍🏽 1️⃣ 🇯🇵 桜\n[00:05.00]next\n"
        let song = try Fixtures.song(text: text)
        var options = FrameOptions()
        var reducedComposer = FrameComposer(song: song, fallbackTitle: "x", columns: 60, rows: 16, options: options)
        options.graphemes = .whole
        var wholeComposer = FrameComposer(song: song, fallbackTitle: "x", columns: 60, rows: 16, options: options)
        let reduced = reducedComposer.frame(at: 2)
        let whole = wholeComposer.frame(at: 2)
        #expect(reduced.rows.count == whole.rows.count)
        for (a, b) in zip(reduced.rows, whole.rows) {
            #expect(a.cells.map(\.column) == b.cells.map(\.column))
            #expect(a.cells.map(\.width) == b.cells.map(\.width))
            #expect(a.cells.map(\.grapheme) == b.cells.map(\.grapheme))
        }
        let wholeText = whole.rows.map(\.text).joined(separator: "\n")
        let reducedText = reduced.rows.map(\.text).joined(separator: "\n")
        #expect(wholeText.contains("we 👨‍👩‍👧‍👦 sing 👍🏽 1️⃣ 🇯🇵 桜"))
        #expect(wholeText.contains("Picnic 👨‍👩‍👧‍👦"))
        #expect(reducedText.contains("we 👨 sing 👍 1  🇯🇵 桜"))
        #expect(!reducedText.contains("\u{200D}"))
    }

    @Test("the screen row sends the whole sequence at the cluster's width")
    func screenRow() throws {
        let song = try Fixtures.song(text: "[00:01.00]👨‍👩‍👧 x\n")
        var options = FrameOptions()
        options.graphemes = .whole
        var composer = FrameComposer(song: song, fallbackTitle: "x", columns: 40, rows: 10, options: options)
        let frame = composer.frame(at: 2)
        let row = try #require(frame.rows.first { $0.kind == .lyric })
        let screenRow = ScreenRow(row, width: 40, depth: .none)
        let start = try #require(row.cells.first?.column)
        guard case .glyph(let glyph, let width, _) = screenRow.columns[start] else {
            Issue.record("no glyph at \(start)")
            return
        }
        #expect(glyph == "👨‍👩‍👧")
        #expect(width == 2)
        #expect(screenRow.columns[start + 1] == .continuation)
    }
}
