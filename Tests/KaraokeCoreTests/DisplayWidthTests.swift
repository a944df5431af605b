import CTextWidth
import Testing
@testable import KaraokeCore

extension DisplayWidthTests {
    /// A grapheme, the cells it takes, and what the painter sends for it.
    struct WidthCase: CustomTestStringConvertible, Sendable {
        var label: String
        var grapheme: Character
        var width: Int
        var painted: String
        var testDescription: String { label }

        init(_ label: String, _ grapheme: Character, width: Int, painted: String? = nil) {
            self.label = label
            self.grapheme = grapheme
            self.width = width
            self.painted = painted ?? String(grapheme)
        }
    }

    /// Many graphemes of one kind, for the properties every grapheme must have.
    struct GraphemeFamily: CustomTestStringConvertible, Sendable {
        var label: String
        var graphemes: [Character]
        /// Emoji sequences (presentation, modifier, keycap, ZWJ, flag) are two cells by DESIGN §3.1.
        var isEmojiSequence = false
        var testDescription: String { label }
    }
}

/// The cells glibc gives `text`, scalar by scalar, or nil when a scalar is not printable.
///
/// Independent of `DisplayWidth`: it calls glibc directly, after `DisplayWidth` has switched LC_CTYPE to UTF-8.
private func glibcWidth(_ text: String) -> Int? {
    DisplayWidth.prepareLocale()
    var total = 0
    for scalar in text.unicodeScalars {
        let width = Int(kk_wcwidth(scalar.value))
        if width < 0 { return nil }
        total += width
    }
    return total
}

/// The graphemes of the strings made from each of `values`, with `suffix` scalars after each.
private func graphemes<S: Sequence>(_ values: S, suffix: [UInt32] = [], prefix: [UInt32] = []) -> [Character]
where S.Element == UInt32 {
    var result: [Character] = []
    for value in values {
        var scalars = String.UnicodeScalarView()
        for v in prefix + [value] + suffix {
            if let scalar = Unicode.Scalar(v) { scalars.append(scalar) }
        }
        result.append(contentsOf: String(scalars))
    }
    return result
}

/// Whether a scalar value is an emoji (Unicode's Emoji property).
private func isEmoji(_ value: UInt32) -> Bool { Unicode.Scalar(value)?.properties.isEmoji == true }

/// Whether a scalar value takes a skin-tone modifier.
private func isModifierBase(_ value: UInt32) -> Bool {
    Unicode.Scalar(value)?.properties.isEmojiModifierBase == true
}

/// The bases of the keycaps: digits, number sign and asterisk.
private let keycapBases = Array("0123456789#*".unicodeScalars.map(\.value))

/// The graphemes of the bundled songs' lines and translations.
private func bundledGraphemes() -> [Character] {
    var result = Set<Character>()
    for song in BundledLyricFiles.songs {
        for line in song.song.lines {
            result.formUnion(line.text)
            for translation in line.translations { result.formUnion(translation) }
        }
        if let title = song.song.metadata.displayTitle { result.formUnion(title) }
    }
    return result.sorted { String($0) < String($1) }
}

@Suite("The width of a grapheme")
struct DisplayWidthTests {
    static let table: [WidthCase] = [
        // Printable ASCII is one cell and painted as itself.
        WidthCase("ASCII letter", "a", width: 1),
        // A space is a cell like any other.
        WidthCase("ASCII space", " ", width: 1),
        // Punctuation at the top of the ASCII range.
        WidthCase("ASCII tilde", "~", width: 1),
        // A CJK ideograph is wide.
        WidthCase("CJK ideograph", "桜", width: 2),
        // Hiragana is wide.
        WidthCase("hiragana", "さ", width: 2),
        // Katakana is wide.
        WidthCase("katakana", "カ", width: 2),
        // Halfwidth katakana is one cell.
        WidthCase("halfwidth katakana", "ｶ", width: 1),
        // The halfwidth voiced mark is a spacing character that joins the cluster: two cells.
        WidthCase("halfwidth kana with voiced mark", "ｶﾞ", width: 2),
        // Fullwidth Latin is wide.
        WidthCase("fullwidth Latin", "Ａ", width: 2),
        // The ideographic space is wide.
        WidthCase("ideographic space", "\u{3000}", width: 2),
        // A precomposed Hangul syllable is wide.
        WidthCase("Hangul syllable", "한", width: 2),
        // Conjoining jamo L+V+T: the leading jamo is wide, the vowel and final add nothing.
        WidthCase("Hangul conjoining jamo", "\u{1112}\u{1161}\u{11AB}", width: 2),
        // A combining acute adds nothing to its base.
        WidthCase("e with combining acute", "e\u{301}", width: 1),
        // The precomposed form is the same width.
        WidthCase("precomposed é", "é", width: 1),
        // Hebrew with niqqud: the points add nothing.
        WidthCase("Hebrew letter with points", "\u{5E9}\u{5B8}\u{5C1}", width: 1),
        // Arabic letters are narrow.
        WidthCase("Arabic letter", "ع", width: 1),
        // An emoji with emoji presentation is wide.
        WidthCase("plain emoji", "🌸", width: 2),
        // A skin-tone modifier sequence is two cells, painted as its base (ncurses keeps only that).
        WidthCase("emoji with skin tone", "👍🏽", width: 2, painted: "👍"),
        // The same for the wave of the bundled song.
        WidthCase("waving hand with skin tone", "👋🏽", width: 2, painted: "👋"),
        // A ZWJ family is two cells in tmux but six in ncurses' model: painted as its first emoji.
        WidthCase("ZWJ family", "👨\u{200D}👩\u{200D}👧", width: 2, painted: "👨"),
        // A ZWJ sequence with a skin tone inside is reduced the same way.
        WidthCase("ZWJ astronaut with skin tone", "🧑🏽\u{200D}🚀", width: 2, painted: "🧑"),
        // A flag is two regional indicators, one cell each by glibc: painted whole.
        WidthCase("flag", "🇯🇵", width: 2),
        // A lone regional indicator is one cell, as glibc says.
        WidthCase("lone regional indicator", "🇯", width: 1),
        // VS16 makes the heart an emoji (2 cells) but glibc and terminals advance 1: padded with a space.
        WidthCase("heart with VS16", "❤\u{FE0F}", width: 2, painted: "❤ "),
        // Without VS16 the heart is text, one cell.
        WidthCase("heart without selector", "❤", width: 1),
        // VS15 asks for text presentation: still one cell, painted whole.
        WidthCase("heart with VS15", "❤\u{FE0E}", width: 1),
        // A keycap is two cells, painted as its narrow base and a space.
        WidthCase("keycap one", "1\u{FE0F}\u{20E3}", width: 2, painted: "1 "),
        // A keycap without VS16 is still a keycap.
        WidthCase("keycap hash without VS16", "#\u{20E3}", width: 2, painted: "# "),
        // An emoji glibc 2.36 does not know (Unicode 15) cannot be painted: a replacement character.
        WidthCase("emoji unknown to glibc", "🫨", width: 1, painted: "\u{FFFD}"),
        // Such an emoji in a modifier sequence is still two cells; its base is replaced, not sent raw.
        WidthCase("unknown emoji with skin tone", "🫸🏽", width: 2, painted: "\u{FFFD} "),
        // An unassigned scalar is one replacement character.
        WidthCase("unassigned scalar", "\u{378}", width: 1, painted: "\u{FFFD}"),
        // A lone combining mark takes no cell.
        WidthCase("lone combining mark", "\u{301}", width: 0),
        // A zero-width space takes no cell.
        WidthCase("zero-width space", "\u{200B}", width: 0),
        // ESC is a control: no cell, nothing painted.
        WidthCase("ESC", "\u{1B}", width: 0, painted: ""),
        // BEL, which ends an OSC sequence.
        WidthCase("BEL", "\u{7}", width: 0, painted: ""),
        // A tab that reached layout would be a control; the parser has already made it a space.
        WidthCase("tab", "\t", width: 0, painted: ""),
        // CR LF is one grapheme of two controls.
        WidthCase("CR LF", "\r\n", width: 0, painted: ""),
        // DEL.
        WidthCase("DEL", "\u{7F}", width: 0, painted: ""),
        // C1 NEL.
        WidthCase("C1 next line", "\u{85}", width: 0, painted: ""),
        // C1 CSI, which some terminals obey as ESC [.
        WidthCase("C1 CSI", "\u{9B}", width: 0, painted: ""),
        // A bidi override would reorder the terminal's line.
        WidthCase("right-to-left override", "\u{202E}", width: 0, painted: ""),
        // A bidi isolate.
        WidthCase("first strong isolate", "\u{2068}", width: 0, painted: ""),
    ]

    @Test("is the cells its kind takes, and it is painted in a form of that width", arguments: table)
    func widthOfEachKind(_ c: WidthCase) {
        let glyph = DisplayWidth.glyph(c.grapheme)
        #expect(DisplayWidth.of(c.grapheme) == c.width)
        #expect(glyph.width == c.width)
        #expect(glyph.text == c.painted)
    }

    static let families: [GraphemeFamily] = [
        // Every printable ASCII character.
        GraphemeFamily(label: "printable ASCII", graphemes: graphemes(0x20...0x7E)),
        // Latin letters and symbols beyond ASCII, the soft hyphen included.
        GraphemeFamily(label: "Latin-1 and Latin Extended", graphemes: graphemes(0xA0...0x24F)),
        // Each combining diacritic on a base: the marks add nothing.
        GraphemeFamily(
            label: "a with each combining diacritic",
            graphemes: graphemes(0x300...0x36F, prefix: [0x61])),
        // More marks than ncurses keeps in one cell (five): the width must not change.
        GraphemeFamily(
            label: "a with a stack of five marks",
            graphemes: graphemes(0x300...0x30F, suffix: [0x301, 0x302, 0x303, 0x304], prefix: [0x61])),
        // Hebrew letters, bare and pointed.
        GraphemeFamily(
            label: "Hebrew letters and points",
            graphemes: graphemes(0x5D0...0x5EA) + graphemes(0x5D0...0x5EA, suffix: [0x5B8, 0x5C1])),
        // Arabic letters, with a fatha, and the Arabic-Indic digits.
        GraphemeFamily(
            label: "Arabic letters, harakat and digits",
            graphemes: graphemes(0x620...0x64A) + graphemes(0x620...0x64A, suffix: [0x64E])
                + graphemes(0x660...0x669)),
        // Clusters with a spacing vowel sign or a conjunct: several spacing scalars in one grapheme.
        GraphemeFamily(
            label: "Indic and Thai clusters",
            graphemes: graphemes(0x915...0x939, suffix: [0x93F])
                + graphemes(0x915...0x939, suffix: [0x94D, 0x937])
                + graphemes(0xE01...0xE2E, suffix: [0xE33])),
        // A sample of the basic block and of plane 2.
        GraphemeFamily(
            label: "CJK ideographs",
            graphemes: graphemes(stride(from: 0x4E00, through: 0x9FFF, by: 31).map(UInt32.init))
                + graphemes(stride(from: 0x20000, through: 0x2A6DF, by: 997).map(UInt32.init))),
        // Every kana, CJK punctuation mark and halfwidth or fullwidth form.
        GraphemeFamily(
            label: "kana, CJK punctuation and fullwidth forms",
            graphemes: graphemes(0x3000...0x30FF) + graphemes(0xFF01...0xFFEE)),
        // Halfwidth kana with the (spacing) halfwidth voiced and semi-voiced marks.
        GraphemeFamily(
            label: "halfwidth kana with voiced marks",
            graphemes: graphemes(0xFF66...0xFF9D, suffix: [0xFF9E])
                + graphemes(0xFF66...0xFF9D, suffix: [0xFF9F])),
        // A sample of the precomposed syllables.
        GraphemeFamily(
            label: "Hangul syllables",
            graphemes: graphemes(stride(from: 0xAC00, through: 0xD7A3, by: 7).map(UInt32.init))),
        // L+V+T, L+V and L+L spelt in conjoining jamo.
        GraphemeFamily(
            label: "Hangul conjoining jamo",
            graphemes: graphemes(0x1100...0x1112, suffix: [0x1161, 0x11A8])
                + graphemes(0x1100...0x1112, suffix: [0x1175])
                + graphemes(0x1100...0x1112, suffix: [0x1100])),
        // Every scalar of the emoji blocks alone, those newer than glibc included.
        GraphemeFamily(
            label: "single emoji scalars",
            graphemes: graphemes(0x1F300...0x1FAFF) + graphemes(0x2600...0x27BF)),
        // Every emoji with VS16: emoji presentation, two cells.
        GraphemeFamily(
            label: "emoji with VS16",
            graphemes: graphemes((0x2000...0x2BFF).filter(isEmoji), suffix: [0xFE0F])
                + graphemes((0x1F000...0x1FAFF).filter(isEmoji), suffix: [0xFE0F]),
            isEmojiSequence: true),
        // Every modifier base with every skin tone.
        GraphemeFamily(
            label: "emoji with each skin tone",
            graphemes: (0x1F3FB...0x1F3FF).flatMap { tone in
                graphemes((0x261D...0x1FAFF).filter(isModifierBase), suffix: [UInt32(tone)])
            },
            isEmojiSequence: true),
        // The twelve keycaps, with and without VS16.
        GraphemeFamily(
            label: "keycaps",
            graphemes: graphemes(keycapBases, suffix: [0xFE0F, 0x20E3])
                + graphemes(keycapBases, suffix: [0x20E3]),
            isEmojiSequence: true),
        // All 676 pairs of regional indicators, flags or not.
        GraphemeFamily(
            label: "every pair of regional indicators",
            graphemes: (0x1F1E6...0x1F1FF).flatMap { graphemes(0x1F1E6...0x1F1FF, prefix: [UInt32($0)]) },
            isEmojiSequence: true),
        // Families, professions, flags with ZWJ, and sequences newer than glibc.
        GraphemeFamily(
            label: "ZWJ sequences",
            graphemes: Array(
                "👨‍👩‍👧👨‍👩‍👧‍👦🧑‍🚀👩🏽‍💻🏳️‍🌈🏳️‍⚧️❤️‍🔥❤️‍🩹🐦‍🔥🫱🏼‍🫲🏿👁️‍🗨️🧑‍🤝‍🧑"
                    + "👩‍❤️‍💋‍👨🐕‍🦺🐻‍❄️🧔🏻‍♀️🏃‍➡️🙂‍↔️"),
            isEmojiSequence: true),
        // Regional indicators alone: one cell each, as glibc says.
        GraphemeFamily(label: "lone regional indicators", graphemes: graphemes(0x1F1E6...0x1F1FF)),
        // C0, DEL, C1, zero-width and bidi format characters, CR LF, BOM and soft hyphen.
        GraphemeFamily(
            label: "controls and format characters",
            graphemes: graphemes(0x00...0x1F) + graphemes(0x7F...0x9F) + graphemes(0x200B...0x200F)
                + graphemes(0x202A...0x202E) + graphemes(0x2060...0x206F)
                + Array("\r\n\u{FEFF}\u{AD}")),
        // Unassigned scalars, private use, specials and a tag-sequence flag.
        GraphemeFamily(
            label: "oddities: unassigned, private use, tags, specials",
            graphemes: graphemes(0x378...0x379) + graphemes(0xE000...0xE004) + graphemes(0xFFF9...0xFFFD)
                + graphemes(0x10FFFD...0x10FFFD)
                + Array("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}")),
        // What the bundled songs actually hold.
        GraphemeFamily(label: "every grapheme of the bundled songs", graphemes: bundledGraphemes()),
    ]

    @Test("is what the terminal advances for the painted form", arguments: families)
    func paintedFormTakesTheWidth(_ family: GraphemeFamily) throws {
        try #require(!family.graphemes.isEmpty)
        for grapheme in family.graphemes {
            let glyph = DisplayWidth.glyph(grapheme)
            let scalars = grapheme.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
            // The promise that painter and terminal agree: glibc advances exactly `width` for the painted text.
            #expect(glibcWidth(glyph.text) == glyph.width, "painted form of \(scalars)")
            #expect(DisplayWidth.of(grapheme) == glyph.width, "of and glyph disagree for \(scalars)")
            #expect(
                !glyph.text.unicodeScalars.contains { ControlCharacters.isForbidden($0.value) },
                "a control is painted for \(scalars)")
            if family.isEmojiSequence {
                #expect(glyph.width == 2, "emoji sequence \(scalars)")
            }
        }
    }

    @Test(
        "of a string is the sum over its graphemes",
        arguments: [
            // Ten narrow cells: DESIGN §3.3's worked example.
            ("la la land", 10),
            // Three kana, a space and an emoji.
            ("さくら 🌸", 9),
            // A family emoji counts once, as two cells.
            ("a👨\u{200D}👩\u{200D}👧b", 4),
            // Controls count nothing.
            ("a\u{1B}b\u{7F}", 2),
            // The empty string.
            ("", 0),
        ])
    func widthOfText(_ text: String, _ width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }
}
