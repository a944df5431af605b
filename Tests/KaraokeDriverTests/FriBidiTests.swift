import Foundation
import KaraokeCore
import KaraokeDriver
import Testing

/// Where the `fribidi` command is, when libfribidi-bin is installed (`make deps-test`).
private let fribidiCommand = ["/usr/bin/fribidi", "/bin/fribidi"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// Whether libfribidi loads here, as karaoke loads it (`make deps` installs libfribidi0).
private let libraryLoads = FriBidi.load() == nil

/// Mixed-direction lines, each grapheme one scalar (FriBidi counts scalars, the layout graphemes).
private let lines: [String] = [
    // Hebrew with an English name and a number.
    "שלום David, יש לי 3 חתולים ושני כלבים",
    // A number before a Latin word in a Hebrew line: the number goes with the Hebrew (`cats 3`).
    "יש לי 3 cats ו-2 dogs בבית",
    // Brackets around Hebrew and around Latin, and a percent sign after a number.
    "הנחה (גדולה) של 25% על [every] שיר היום",
    // A Latin line with a Hebrew word in it.
    "We sang שלום together at 9 pm, twice",
    // Nested punctuation: quotes inside brackets, a question and an exclamation.
    "אמרה: \"(מה?) no way!\" וצחקה",
    // A Latin line that starts with a number and ends with Hebrew.
    "2024: the year of אהבה ושמחה",
    // Arabic: after Arabic letters the digits are Arabic numbers, and `%` a neutral of its own.
    "خصم 25% على كل الأغاني (اليوم)",
    // Arabic with a Latin name and a time.
    "غنى Sami في الساعة 10:30 مساء",
]

/// The widths of lyric area tried: the first wide enough that nothing wraps, the last the narrowest screen
/// (`FrameComposer.minimumColumns`).
private let widths = [200, 30, 21, 16, 13, 12]

/// FriBidi's visual order of `line` as one paragraph (base direction from its first strong character): the
/// visual string and the logical index at each visual position (`fribidi --nopad --nobreak --vtol`).
private func fribidiOrder(of line: String, options: [String] = []) throws -> (
    visual: [Unicode.Scalar], logicalAt: [Int]
) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(fribidiCommand))
    process.arguments = ["--nopad", "--nobreak", "--vtol"] + options
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let printed = String(decoding: data, as: UTF8.self).split(separator: "\n")
    try #require(printed.count >= 2, "fribidi printed \(printed)")
    return (Array(printed[0].unicodeScalars), printed[1].split(separator: " ").compactMap { Int($0) })
}

/// The lyric rows karaoke shows of `line` in a lyric area `width` cells wide, through FriBidi: each row's glyphs
/// left to right.
private func shownRows(of line: String, width: Int, language: String? = nil) -> [String] {
    var options = FrameOptions()
    options.bidi = FriBidi.choice
    options.alignment = .left
    options.countIn = false
    var metadata = SongMetadata(title: "t")
    metadata.language = language
    let song = Song(metadata: metadata, lines: [LyricLine(start: 0, end: 10_000, text: line)], medianLineDuration: nil)
    // From 24 columns up the lyric area is 4 narrower (DESIGN §3.2).
    let columns = width >= 20 ? width + 4 : width
    var composer = FrameComposer(song: song, fallbackTitle: "t", columns: columns, rows: 40, options: options)
    let frame = composer.frame(FrameInput(time: 5))
    return frame.rows.filter { $0.kind == .lyric && !$0.cells.isEmpty }.map { row in
        row.cells.sorted { $0.column < $1.column }.map(\.glyph).joined()
    }
}

/// Whether FriBidi's shaping may change `scalar`: an Arabic letter, shown unshaped by karaoke (the terminal
/// shapes), which the `fribidi` command replaces by its presentation form.
private func isShaped(_ scalar: Unicode.Scalar) -> Bool {
    (0x0620...0x064A).contains(scalar.value)
}

@Suite(
    "FriBidi's order, row by row (DESIGN §3.5)",
    .enabled(if: fribidiCommand != nil, "the fribidi command is missing (Debian: libfribidi-bin)"),
    .enabled(if: libraryLoads, "libfribidi.so.0 cannot be loaded (Debian: libfribidi0)"))
struct FriBidiTests {
    /// Why comparing with the whole line's order is exact: UAX #9 resolves levels for the paragraph, and a
    /// row differs from the whole line only in rules L1 and L2. L1 only touches whitespace at the row's end,
    /// and karaoke's rows never show the spaces at a break. Under L2 two characters x < y of a row swap iff
    /// the number of levels k, from the lowest odd level up to the lowest level between x and y, is odd; the
    /// lowest odd level of the row and of the line are both odd, so that count has the same parity in both.
    /// So each row, by the line-by-line API, is the whole line's visual order restricted to the row's
    /// characters, and `fribidi --vtol` gives that order for the whole line.
    @Test("each wrapped row is FriBidi's visual order of the line restricted to the row", arguments: lines)
    func rowsAgree(_ line: String) throws {
        let logical = Array(line.unicodeScalars)
        try #require(line.count == logical.count, "one scalar a grapheme")
        let fribidi = try fribidiOrder(of: line)
        try #require(fribidi.logicalAt.count == logical.count && fribidi.visual.count == logical.count)
        for width in widths {
            let rows = shownRows(of: line, width: width)
            // The logical range of each row: rows follow each other, the spaces at a break not shown.
            var next = 0
            for row in rows {
                while next < logical.count && logical[next] == " " { next += 1 }
                let range = next..<(next + row.count)
                next = range.upperBound
                var expected = String.UnicodeScalarView()
                for (position, index) in fribidi.logicalAt.enumerated() where range.contains(index) {
                    let shown = fribidi.visual[position]
                    expected.append(isShaped(logical[index]) ? logical[index] : shown)
                }
                #expect(row == String(expected), "width \(width)")
            }
            #expect(next == logical.count, "width \(width): every character is on a row")
            if width == widths[0] { #expect(rows.count == 1) }
            if width == widths.last { #expect(rows.count > 2, "the narrowest area wraps the line") }
        }
    }

    @Test(
        "a line that does not wrap is exactly what fribidi prints",
        arguments: lines.filter { !$0.contains(where: \.isArabicLetter) })
    func wholeLine(_ line: String) throws {
        let fribidi = try fribidiOrder(of: line)
        #expect(shownRows(of: line, width: 200) == [String(String.UnicodeScalarView(fribidi.visual))])
    }

    @Test(
        "a song that says it is Hebrew reads every line from the right, as fribidi --rtl does",
        arguments: ["David 2024", "David אמר שלום, 3 times", "We sang (together) שיר", "2024: שנה טובה"])
    func declaredLanguageGivesBaseDirection(_ line: String) throws {
        let forced = try fribidiOrder(of: line, options: ["--rtl"])
        #expect(shownRows(of: line, width: 200, language: "he") == [String(String.UnicodeScalarView(forced.visual))])
        // Without the language, the first strong character decides, as fribidi does by default.
        let plain = try fribidiOrder(of: line)
        #expect(shownRows(of: line, width: 200) == [String(String.UnicodeScalarView(plain.visual))])
    }

    @Test("resolves levels and mirrors through the library")
    func resolution() throws {
        let resolution = try #require(FriBidi().resolve(Array("(שלום) 12".unicodeScalars), base: nil))
        #expect(resolution.paragraphLevel == 1)
        #expect(resolution.levels == [1, 1, 1, 1, 1, 1, 1, 2, 2])
        #expect(resolution.mirrors[0] == ")" && resolution.mirrors[5] == "(")
        #expect(resolution.spacing[6] == .whitespace)
        // A base direction given overrides the first strong character.
        let forced = try #require(FriBidi().resolve(Array("abc".unicodeScalars), base: .rightToLeft))
        #expect(forced.paragraphLevel == 1 && forced.levels == [2, 2, 2])
        #expect(FriBidi().resolve([], base: nil)?.levels == [])
    }
}

extension Character {
    /// An Arabic letter, which FriBidi's command shapes.
    fileprivate var isArabicLetter: Bool { unicodeScalars.contains { (0x0620...0x064A).contains($0.value) } }
}
