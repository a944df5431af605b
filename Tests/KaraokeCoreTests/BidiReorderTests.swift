import Testing
@testable import KaraokeCore

extension BidiReorderTests {
    /// A row's levels as an algorithm resolved them, and its visual order after rules L1 and L2.
    struct Case: CustomTestStringConvertible, Sendable {
        var label: String
        var paragraph: UInt8
        var levels: [UInt8]
        /// "w" whitespace, "s" separator, anything else other; empty: all other.
        var spacing = ""
        /// Logical indices from the left.
        var visual: [Int]
        var testDescription: String { label }
    }
}

/// An algorithm that answers with fixed levels: each scalar's level is its position in `"0123"` for the digits,
/// so a test writes the levels into the text, and `(` `)` mirror each other.
private struct FixedLevels: BidiAlgorithm {
    var paragraph: UInt8
    var levels: [UInt8]
    func resolve(_ scalars: [Unicode.Scalar], base: TextDirection?) -> BidiResolution? {
        BidiResolution(
            paragraphLevel: paragraph, levels: levels,
            spacing: scalars.map { $0 == " " ? .whitespace : .other },
            mirrors: scalars.map { $0 == "(" ? ")" : $0 == ")" ? "(" : nil })
    }
}

/// An algorithm that cannot answer, as FriBidi when libfribidi is missing.
private struct Missing: BidiAlgorithm {
    func resolve(_ scalars: [Unicode.Scalar], base: TextDirection?) -> BidiResolution? { nil }
}

/// Counts the lines it is asked about (a class: the count outlives the copies in `FrameOptions`).
private final class Counting: BidiAlgorithm, @unchecked Sendable {
    var asked = 0
    func resolve(_ scalars: [Unicode.Scalar], base: TextDirection?) -> BidiResolution? {
        asked += 1
        return nil
    }
}

/// `text` placed as one row, left aligned, by `algorithm`: the glyphs left to right.
private func placed(_ text: String, _ algorithm: any BidiAlgorithm, width: Int = 80) -> [String] {
    LineLayout.place(
        text, areaStart: 0, areaWidth: width, alignment: .left,
        bidi: BidiChoice(name: "test", algorithm: algorithm)
    ).rows.map { $0.map(\.glyph.text).joined() }
}

@Suite("Rules L1 and L2 on a wrapped row (DESIGN §3.5)")
struct BidiReorderTests {
    static let cases: [Case] = [
        Case(label: "all left to right", paragraph: 0, levels: [0, 0, 0], visual: [0, 1, 2]),
        Case(label: "all right to left", paragraph: 1, levels: [1, 1, 1, 1], visual: [3, 2, 1, 0]),
        // A number (level 2) inside a right-to-left line keeps its order.
        Case(
            label: "number in a right-to-left row", paragraph: 1, levels: [1, 1, 1, 2, 2, 1],
            visual: [5, 3, 4, 2, 1, 0]),
        // A Hebrew word inside a Latin line.
        Case(
            label: "right-to-left run in a left-to-right row", paragraph: 0, levels: [0, 0, 1, 1, 0],
            visual: [0, 1, 3, 2, 4]),
        // Three levels: the inner run is reversed twice, so it reads left to right inside the reversed one.
        Case(label: "nested levels", paragraph: 0, levels: [0, 1, 2, 2, 1, 0], visual: [0, 4, 2, 3, 1, 5]),
        // The lowest odd level is 3 when a row's lowest level is 2: the level-2 text is not reversed.
        Case(label: "row whose lowest level is even", paragraph: 1, levels: [2, 2, 3, 3], visual: [0, 1, 3, 2]),
        Case(label: "row of level 2 only", paragraph: 1, levels: [2, 2, 2], visual: [0, 1, 2]),
        Case(label: "row of level 3 only", paragraph: 1, levels: [3, 3, 3], visual: [2, 1, 0]),
        // L1: trailing whitespace at the row's end takes the paragraph's level.
        Case(
            label: "trailing whitespace, left-to-right paragraph", paragraph: 0, levels: [0, 0, 1, 1, 1],
            spacing: "oooow", visual: [0, 1, 3, 2, 4]),
        Case(
            label: "trailing whitespace, right-to-left paragraph", paragraph: 1, levels: [2, 2, 2, 2],
            spacing: "ooww", visual: [3, 2, 0, 1]),
        // Whitespace inside the row keeps its level.
        Case(
            label: "inner whitespace", paragraph: 0, levels: [1, 1, 1], spacing: "owo", visual: [2, 1, 0]),
        // A separator, and the whitespace before it, take the paragraph's level wherever they are.
        Case(
            label: "segment separator", paragraph: 0, levels: [1, 1, 1, 1, 1], spacing: "owsoo",
            visual: [0, 1, 2, 4, 3]),
        Case(label: "empty row", paragraph: 1, levels: [], visual: []),
    ]

    @Test("reorders a row from its levels", arguments: cases)
    func reorders(_ example: Case) {
        let spacing: [BidiSpacing] =
            example.spacing.isEmpty
            ? Array(repeating: .other, count: example.levels.count)
            : example.spacing.map { $0 == "w" ? .whitespace : $0 == "s" ? .separator : .other }
        let order = BidiReorder.order(
            levels: example.levels[...], spacing: spacing[...], paragraphLevel: example.paragraph)
        #expect(order.map(\.index) == example.visual)
    }

    @Test("reorders a slice of a line by its own indices, as a wrapped row is")
    func reordersSlice() {
        let levels: [UInt8] = [1, 1, 1, 2, 2, 1, 1]
        let spacing = [BidiSpacing](repeating: .other, count: levels.count)
        let order = BidiReorder.order(levels: levels[2..<6], spacing: spacing[2..<6], paragraphLevel: 1)
        #expect(order.map(\.index) == [5, 3, 4, 2])
        #expect(order.map(\.level) == [1, 2, 2, 1])
    }

    @Test("gives whitespace reset by L1 the paragraph's level")
    func resetLevels() {
        let order = BidiReorder.order(
            levels: [0, 1, 1][...], spacing: [BidiSpacing.other, .other, .whitespace][...], paragraphLevel: 0)
        #expect(order.map(\.level) == [0, 1, 0])
    }

    @Test("takes each grapheme's level from its first scalar")
    func graphemeLevels() throws {
        // "a" then "e" with a combining acute: three scalars, two graphemes.
        let characters = Array("ae\u{301}")
        let resolution = BidiResolution(
            paragraphLevel: 0, levels: [0, 1, 2], spacing: [.other, .other, .whitespace], mirrors: [nil, "x", nil])
        let graphemes = try #require(BidiReorder.graphemes(characters, resolution: resolution))
        #expect(graphemes.levels == [0, 1])
        #expect(graphemes.spacing == [.other, .other])
        #expect(graphemes.mirrors == [nil, "x"])
        // A resolution that does not match the text is not used.
        let short = BidiResolution(paragraphLevel: 0, levels: [0], spacing: [.other], mirrors: [nil])
        #expect(BidiReorder.graphemes(characters, resolution: short) == nil)
    }

    @Test("places a row by the algorithm's levels, mirroring only what reads right to left")
    func placesByLevels() {
        // א (ב) c: the bracketed letter and its brackets at level 1, the Latin letter at 2.
        let text = "א (ב) c"
        let algorithm = FixedLevels(paragraph: 1, levels: [1, 1, 1, 1, 1, 1, 2])
        #expect(placed(text, algorithm) == ["c (ב) א"])
        // The same brackets at level 0 stay as they are.
        let latin = FixedLevels(paragraph: 0, levels: [0, 0, 0, 0, 0, 0, 0])
        #expect(placed("a (b) c", latin) == ["a (b) c"])
    }

    @Test("reorders each wrapped row alone, from the levels of the whole line")
    func wrappedRows() {
        // Two rows: "אב 12" and "גד"; the whole line's levels, then L2 per row.
        let text = "אב 12 גד"
        let algorithm = FixedLevels(paragraph: 1, levels: [1, 1, 1, 2, 2, 1, 1, 1])
        #expect(placed(text, algorithm, width: 5) == ["12 בא", "דג"])
    }

    @Test("keeps the simple rule when the algorithm cannot answer, or none is given")
    func fallback() {
        for text in ["שנת 2024", "שיר (hello) טוב", "plain Latin"] {
            let simple = LineLayout.place(text, areaStart: 0, areaWidth: 80, alignment: .left).rows
                .map { $0.map(\.glyph.text).joined() }
            #expect(placed(text, Missing()) == simple)
        }
        #expect(placed("שנת 2024", Missing()) == ["2024 תנש"])
        // Where the simple rule and UAX #9 differ: it joins a number to the Latin word after it (FriBidi shows
        // `cats 3 יל שי`, FriBidiTests).
        #expect(placed("יש לי 3 cats", Missing()) == ["3 cats יל שי"])
    }

    @Test("asks the algorithm only about lines with right-to-left text")
    func asksOnlyForRightToLeft() {
        let counting = Counting()
        _ = placed("hello world 2024 (x)", counting)
        #expect(counting.asked == 0)
        _ = placed("hello שלום", counting)
        #expect(counting.asked == 1)
    }

    @Test("finds right-to-left text in lines, translations, romanizations, plain lyrics and titles")
    func contentNeedsAlgorithm() {
        let latin = LyricLine(start: 0, end: 1000, text: "hello")
        #expect(
            !BidiReorder.needsAlgorithm(.timed(Song(metadata: SongMetadata(), lines: [latin], medianLineDuration: nil)))
        )
        var translated = latin
        translated.translations = ["שלום"]
        #expect(
            BidiReorder.needsAlgorithm(
                .timed(Song(metadata: SongMetadata(), lines: [translated], medianLineDuration: nil))))
        #expect(
            BidiReorder.needsAlgorithm(
                .timed(Song(metadata: SongMetadata(title: "שיר"), lines: [latin], medianLineDuration: nil))))
        #expect(BidiReorder.needsAlgorithm(.plain(PlainLyrics(metadata: SongMetadata(), lines: ["مرحبا"]))))
        #expect(!BidiReorder.needsAlgorithm(.plain(PlainLyrics(metadata: SongMetadata(), lines: ["hola"]))))
    }

    @Test("two choices are the same when their names are")
    func choiceEquality() {
        #expect(BidiChoice(name: "a", algorithm: Missing()) == BidiChoice(name: "a", algorithm: nil))
        #expect(BidiChoice(name: "a", algorithm: Missing()) != BidiChoice.simple)
        #expect(FrameOptions().bidi == .simple)
    }

    @Test("lights a mixed row in logical order: each run from its own end")
    func sweepInLogicalOrder() {
        // שלום abc: levels 1 for the Hebrew and the space, 2 for the Latin; visual "abc םולש".
        let text = "שלום abc"
        var options = FrameOptions()
        options.alignment = .left
        options.bidi = BidiChoice(name: "test", algorithm: FixedLevels(paragraph: 1, levels: [1, 1, 1, 1, 1, 2, 2, 2]))
        let layout = LineLayout(
            line: LyricLine(start: 0, end: 8000, text: text), areaStart: 0, areaWidth: 40, options: options)
        #expect(layout.unsungRows[0].map(\.grapheme) == Array("abc םולש"))
        // Where the sweep reaches each cell, left to right: a b c after the word and the space.
        #expect(layout.slots.map(\.offset) == [5, 6, 7, 4, 3, 2, 1, 0])
    }
}
