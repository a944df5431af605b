import Testing
@testable import KaraokeCore

extension VisualOrderTests {
    /// A line in logical order and how it reads on screen, left to right.
    struct Example: CustomTestStringConvertible, Sendable {
        var label: String
        var logical: String
        var visual: String
        var testDescription: String { label }
    }
}

/// `text` as one row in visual order, in its own direction, brackets in right-to-left runs mirrored.
private func visual(_ text: String) -> String {
    let graphemes = Array(text)
    let direction = TextDirection.of(graphemes)
    var shown = ""
    for entry in VisualOrder.order(graphemes[...], direction: direction) {
        let character = graphemes[entry.index]
        shown.append(entry.rightToLeft ? VisualOrder.mirrored(character) ?? character : character)
    }
    return shown
}

@Suite("Putting a row in visual order")
struct VisualOrderTests {
    static let examples: [Example] = [
        // A Hebrew word reads from the right: its first letter stands at the right end.
        Example(label: "Hebrew word", logical: "שלום", visual: "םולש"),
        // Hebrew words and the spaces between them reverse as a whole.
        Example(label: "Hebrew phrase", logical: "כוכבי המדבר דולקים", visual: "םיקלוד רבדמה יבכוכ"),
        // DESIGN §3.5: digits keep their order inside a right-to-left line.
        Example(label: "year in a Hebrew line", logical: "שנת 2024", visual: "2024 תנש"),
        // Digits in the middle of the line, as in the bundled song.
        Example(label: "number mid-line", logical: "ואני סופר 1001 כוכבים", visual: "םיבכוכ 1001 רפוס ינאו"),
        // A percent sign goes with its number.
        Example(label: "percentage in a Hebrew line", logical: "שלום 50%", visual: "50% םולש"),
        // So does a currency sign before it.
        Example(label: "price in a Hebrew line", logical: "מחיר ₪20 בלבד", visual: "דבלב ₪20 ריחמ"),
        // A time keeps its colon between the digits.
        Example(label: "time in a Hebrew line", logical: "בשעה 12:30", visual: "12:30 העשב"),
        // A Latin word keeps its order inside a Hebrew line.
        Example(
            label: "Latin word in a Hebrew line", logical: "שרים karaoke מתחת",
            visual: "תחתמ karaoke םירש"),
        // A space between two Latin words joins them into one left-to-right run.
        Example(label: "neutral between Latin words", logical: "שיר hello world", visual: "hello world ריש"),
        // Punctuation between two Latin words stays in their run too.
        Example(label: "comma between Latin words", logical: "שיר one, two", visual: "one, two ריש"),
        // Brackets around Hebrew are mirrored, so they still open and close the right way.
        Example(label: "brackets around Hebrew", logical: "(שלום)", visual: "(םולש)"),
        // Square brackets and guillemets mirror too.
        Example(label: "other brackets", logical: "[שיר] «טוב»", visual: "«בוט» [ריש]"),
        // A Latin word in brackets inside a Hebrew line: the brackets belong to the RTL text, mirrored.
        Example(label: "Latin in brackets in a Hebrew line", logical: "שיר (hello) טוב", visual: "בוט (hello) ריש"),
        // Punctuation at the end of a Hebrew line takes the line's direction: it stands at the left.
        Example(label: "final punctuation", logical: "שלום!", visual: "!םולש"),
        // A comma between Hebrew words stays between them.
        Example(label: "comma in a Hebrew line", logical: "כוכבי המדבר, אל תכבו", visual: "ובכת לא ,רבדמה יבכוכ"),
        // Arabic reads from the right like Hebrew.
        Example(label: "Arabic", logical: "يا نجوم الليل", visual: "ليللا موجن اي"),
        // Arabic-Indic digits keep their order.
        Example(label: "Arabic-Indic digits", logical: "سنة ٢٠٢٤", visual: "٢٠٢٤ ةنس"),
        // Points stay with their letter: reordering moves graphemes, not scalars.
        Example(
            label: "Hebrew with niqqud", logical: "\u{5E9}\u{5B8}\u{5DC}\u{5D5}\u{5B9}\u{5DD}",
            visual: "\u{5DD}\u{5D5}\u{5B9}\u{5DC}\u{5E9}\u{5B8}"),
        // An LTR line with an embedded Hebrew word reverses only that word.
        Example(label: "Hebrew word in an English line", logical: "I said שלום to you", visual: "I said םולש to you"),
        // Two embedded Hebrew words reverse together, the space between them included.
        Example(label: "Hebrew phrase in an English line", logical: "say שלום עולם now", visual: "say םלוע םולש now"),
        // Brackets in a left-to-right line are never mirrored.
        Example(label: "brackets in an English line", logical: "a (b) c", visual: "a (b) c"),
        // Brackets around Hebrew in an English line take the line's direction: not mirrored.
        Example(label: "Hebrew in brackets in an English line", logical: "a (שלום) b", visual: "a (םולש) b"),
        // A line without right-to-left letters is left alone, however it starts.
        Example(label: "Japanese and emoji", logical: "さくらの駅で 🌸!", visual: "さくらの駅で 🌸!"),
    ]

    @Test("shows right-to-left text the way it reads", arguments: examples)
    func showsTextTheWayItReads(_ example: Example) {
        #expect(visual(example.logical) == example.visual)
    }

    @Test("mirrors only brackets resolved right to left")
    func mirrorsOnlyRightToLeftBrackets() throws {
        let graphemes = Array("שיר (hello) טוב")
        let order = VisualOrder.order(graphemes[...], direction: .rightToLeft)
        let open = try #require(order.first { graphemes[$0.index] == "(" })
        let latin = try #require(order.first { graphemes[$0.index] == "h" })
        #expect(open.rightToLeft)
        #expect(!latin.rightToLeft)
        #expect(VisualOrder.mirrored("(") == ")")
        #expect(VisualOrder.mirrored("»") == "«")
        #expect(VisualOrder.mirrored("a") == nil)
    }

    @Test("keeps the indices of a row cut from the middle of a line")
    func keepsTheIndicesOfASlice() {
        let graphemes = Array("abc שלום def")
        let row = graphemes[4..<8] // "שלום"
        let order = VisualOrder.order(row, direction: .leftToRight)
        #expect(order.map(\.index) == [7, 6, 5, 4])
        #expect(order.allSatisfy { $0.rightToLeft })
    }

    @Test("leaves a left-to-right row as it is")
    func leavesLeftToRightAlone() {
        let graphemes = Array("Down where the lantern river bends (1999)")
        let order = VisualOrder.order(graphemes[...], direction: .leftToRight)
        #expect(order.map(\.index) == Array(graphemes.indices))
        #expect(!order.contains { $0.rightToLeft })
    }

    @Test("shows every grapheme of a row exactly once", arguments: BundledLyricFiles.songs.map(\.name))
    func isAPermutation(_ name: String) throws {
        let entry = try #require(BundledLyricFiles.songs.first { $0.name == name })
        for line in entry.song.lines {
            let graphemes = Array(line.text)
            for direction in [TextDirection.leftToRight, .rightToLeft] {
                let order = VisualOrder.order(graphemes[...], direction: direction)
                #expect(order.map(\.index).sorted() == Array(graphemes.indices), "\(line.text)")
            }
        }
    }

    @Test("reverses a line of right-to-left letters and spaces entirely")
    func reversesPureRightToLeft() throws {
        let entry = try #require(BundledLyricFiles.songs.first { $0.name == "desert-stars.lrc" })
        let pure = entry.song.lines.map(\.text).filter {
            $0.allSatisfy { $0 == " " || VisualOrder.strength(of: $0) == .rightToLeft }
        }
        try #require(pure.count >= 5)
        for text in pure {
            #expect(visual(text) == String(text.reversed()))
        }
    }

    static let directions: [(String, TextDirection)] = [
        // Hebrew first: right to left.
        ("שלום world", .rightToLeft),
        // Latin first: left to right, whatever follows.
        ("hello שלום", .leftToRight),
        // Digits are not strong: the Hebrew after them decides.
        ("2024 שנה", .rightToLeft),
        // Neither is punctuation.
        ("... (שלום)", .rightToLeft),
        // Arabic is right to left.
        ("يا نجوم", .rightToLeft),
        // Kana are strong left to right.
        ("さくら שלום", .leftToRight),
        // Accented Latin is strong left to right.
        ("été שלום", .leftToRight),
        // Emoji are neutral.
        ("🌸 שלום", .rightToLeft),
        // No strong character at all: left to right.
        ("123 ...", .leftToRight),
        // The empty line.
        ("", .leftToRight),
    ]

    @Test("takes a line's direction from its first strong character", arguments: directions)
    func directionOfTheFirstStrongCharacter(_ text: String, _ direction: TextDirection) {
        #expect(TextDirection.of(text) == direction)
    }

    @Test(
        "classes graphemes by their first scalar",
        arguments: [
            // A Hebrew letter.
            ("ש" as Character, VisualOrder.Strength.rightToLeft),
            // An Arabic letter.
            ("ع", .rightToLeft),
            // A Latin letter.
            ("Z", .leftToRight),
            // A precomposed accented letter.
            ("é", .leftToRight),
            // A CJK ideograph.
            ("桜", .leftToRight),
            // An ASCII digit.
            ("7", .number),
            // An Arabic-Indic digit.
            ("٣", .number),
            // ASCII punctuation next to the letters in the table.
            ("[", .neutral),
            // The backquote, just below `a`.
            ("`", .neutral),
            // A space.
            (" ", .neutral),
            // An emoji.
            ("🌸", .neutral),
        ])
    func strengthOfAGrapheme(_ character: Character, _ strength: VisualOrder.Strength) {
        #expect(VisualOrder.strength(of: character) == strength)
    }
}
