import Testing
@testable import KaraokeCore

/// Runs `body` on the UTF-8 bytes of `text` as the parsers hold them.
private func scanning<T>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
    Array(text.utf8).withUnsafeBufferPointer(body)
}

/// The text of `range` in `text`'s bytes, to compare ranges by what they hold.
private func slice(_ text: String, _ range: Range<Int>) -> String {
    String(decoding: Array(text.utf8)[range], as: UTF8.self)
}

@Suite("The byte scanner the parsers share")
struct ByteScannerTests {
    @Test(
        "trimming drops blanks at both ends and nothing inside",
        arguments: [
            ("  la la  ", "la la"), // spaces
            ("\tla\t", "la"), // tabs
            (" \t \t", ""), // only blanks: an empty range
            ("", ""), // nothing
            ("la", "la"), // nothing to trim
            ("\u{0C}la\u{0C}", "\u{0C}la\u{0C}"), // a form feed is not a blank
        ])
    func trimmingBlanks(text: String, expected: String) {
        let range = scanning(text) { ByteScanner.trimmed($0, 0..<$0.count) }
        #expect(slice(text, range) == expected)
    }

    @Test(
        "trimming white space also drops form feeds, and XML white space line ends",
        arguments: [
            ("\u{0C} la\t\u{0C}", false, "la"), // WebVTT: form feed is white space
            ("\n\r la \r\n", true, "la"), // XML: line ends are white space
            ("\u{0C}la", true, "\u{0C}la"), // XML: form feed is not
        ])
    func trimmingWhitespace(text: String, xml: Bool, expected: String) {
        let range = scanning(text) {
            ByteScanner.trimmed($0, 0..<$0.count, where: xml ? ByteScanner.isXMLWhitespace : ByteScanner.isWhitespace)
        }
        #expect(slice(text, range) == expected)
    }

    @Test("trimming stays inside the range it is given")
    func trimmingInsideRange() {
        let text = "a  b  c"
        let range = scanning(text) { ByteScanner.trimmed($0, 1..<6) }
        #expect(range == 3..<4)
    }

    @Test(
        "skipping blanks stops at the first other byte or at the end",
        arguments: [
            ("   x", 0, 3), (" \t x", 1, 3), ("x", 0, 0), ("   ", 0, 3), ("", 0, 0),
        ])
    func skippingBlanks(text: String, from: Int, expected: Int) {
        #expect(scanning(text) { ByteScanner.skip($0, from: from, to: $0.count) } == expected)
    }

    @Test(
        "an ASCII prefix matches letters in either case only when told to",
        arguments: [
            ("Dialogue: 0,…", "dialogue:", true, true), // case differs, ignored
            ("DIALOGUE:", "dialogue:", true, true), // all capitals
            ("Dialogue: 0,…", "dialogue:", false, false), // case differs, exact wanted
            ("NOTE this", "NOTE", false, true), // exact match
            ("dialog", "dialogue:", true, false), // too short
            ("dialogue\u{1A}", "dialogue:", true, false), // only letters fold: 0x1A is not ':'
            ("{script info]", "[script info]", true, false), // nor is '{' a '['
            ("WEBVTT", "WEBVTT", true, true), // the whole text
        ])
    func asciiPrefix(text: String, word: StaticString, ignoringCase: Bool, expected: Bool) {
        #expect(
            scanning(text) {
                ByteScanner.hasPrefix(word, in: $0, at: 0, end: $0.count, ignoringCase: ignoringCase)
            } == expected)
    }

    @Test(
        "a range equals a word only when it has the word's length",
        arguments: [
            ("fx", true), ("FX", true), ("fxx", false), ("f", false), ("", false),
        ])
    func equalsWord(text: String, expected: Bool) {
        #expect(scanning(text) { ByteScanner.equals("fx", in: $0, 0..<$0.count, ignoringCase: true) } == expected)
    }

    @Test(
        "a UTF-8 byte order mark is skipped where it stands, and only there",
        arguments: [
            ([0xEF, 0xBB, 0xBF, 0x5B], 0, 3), // at the start
            ([0x20, 0xEF, 0xBB, 0xBF], 1, 4), // where a later line starts
            ([0xEF, 0xBB], 0, 0), // cut short
            ([0x5B, 0xEF, 0xBB, 0xBF], 0, 0), // not at the index asked about
            ([0xFF, 0xFE, 0x5B, 0x00], 0, 0), // UTF-16's is not UTF-8's
        ] as [([UInt8], Int, Int)])
    func byteOrderMark(bytes: [UInt8], at index: Int, expected: Int) {
        #expect(ByteScanner.skipByteOrderMark(bytes, at: index, end: bytes.count) == expected)
        #expect(
            bytes.withUnsafeBufferPointer { ByteScanner.skipByteOrderMark($0, at: index, end: $0.count) } == expected)
    }

    @Test(
        "finding a byte gives its index, or the end when it is not there",
        arguments: [
            ("<i>la</i>", 0, 2), ("<i>la</i>", 3, 8), ("no close", 0, 8), ("x>", 2, 2), ("", 0, 0),
        ])
    func findingAByte(text: String, from: Int, expected: Int) {
        #expect(
            scanning(text) { ByteScanner.index(of: UInt8(ascii: ">"), in: $0, from: from, to: $0.count) } == expected)
    }

    @Test(
        "digits are all read past and counted, but only the first ones kept add up",
        arguments: [
            ("42", 9, 42, 2),
            ("42:", 9, 42, 2), // stops at the first other byte
            ("12345", 2, 12, 5), // two kept, five counted
            ("", 2, 0, 0), // none
            ("x1", 2, 0, 0), // none where it starts
            (String(repeating: "9", count: 100), 9, 999_999_999, 100), // a hundred digits do not overflow
        ])
    func digits(text: String, kept: Int, value: Int, digits: Int) {
        let (read, next) = scanning(text) { bytes -> ((value: Int, digits: Int), Int) in
            var i = 0
            return (ByteScanner.readDigits(bytes, &i, bytes.count, keeping: kept), i)
        }
        #expect(read.value == value)
        #expect(read.digits == digits)
        #expect(next == digits)
    }

    @Test(
        "fraction digits are read as milliseconds, and counted",
        arguments: [
            ("5", 500, 1), ("05", 50, 2), ("005", 5, 3), ("123", 123, 3),
            ("1234", 123, 4), // a fourth digit is counted, not added
            ("", 0, 0), // none
            ("7x", 700, 1), // stops at the first other byte
            (String(repeating: "9", count: 100), 999, 100), // a hundred digits do not overflow
        ])
    func fractionDigits(text: String, milliseconds: Int, digits: Int) {
        let (read, next) = scanning(text) { bytes -> ((milliseconds: Int, digits: Int), Int) in
            var i = 0
            return (ByteScanner.readFraction(bytes, &i, bytes.count), i)
        }
        #expect(read.milliseconds == milliseconds)
        #expect(read.digits == digits)
        #expect(next == digits)
    }

    @Test(
        "decimals: digits with one decimal point, a comma only where the format allows it",
        arguments: [
            ("12", false, 12.0, 2),
            ("12.5", false, 12.5, 4),
            (".5", false, 0.5, 2),
            ("12.", false, 12.0, 3),
            ("300,5", true, 300.5, 5), // UltraStar's decimal comma
            ("300,5", false, 300.0, 3), // elsewhere a comma ends the number
            ("1.2.3", false, 1.2, 3), // a second point ends it
            ("2x", false, 2.0, 1),
            ("1" + String(repeating: "0", count: 20), false, 1e20, 21), // past 15 digits the value only scales
        ] as [(String, Bool, Double, Int)])
    func decimals(text: String, decimalComma: Bool, value: Double, next: Int) {
        let (read, after) = readDecimal(text, decimalComma: decimalComma)
        #expect(read == value)
        #expect(after == next)
    }

    @Test("a decimal needs a digit", arguments: ["", ".", "-1", "x", ","])
    func noDecimal(text: String) {
        #expect(readDecimal(text, decimalComma: true).value == nil)
    }

    @Test(
        "with a digit limit, a longer number is no decimal but is still read past",
        arguments: [
            ("123456789012345", 15, 123456789012345.0, 15), // 15 digits fit
            ("1234567890.12345", 15, 1234567890.12345, 16), // digits on both sides of the point count
            ("1234567890123456", 15, nil, 16), // 16 do not
            ("12345678901.23456", 15, nil, 17),
            ("123", 2, nil, 3),
        ] as [(String, Int, Double?, Int)])
    func decimalDigitLimit(text: String, maximumDigits: Int, value: Double?, next: Int) {
        let (read, after) = readDecimal(text, maximumDigits: maximumDigits)
        #expect(read == value)
        #expect(after == next)
    }

    /// `ByteScanner.readDecimal` from the start of `text`: the number and the index it stopped at.
    private func readDecimal(_ text: String, decimalComma: Bool = false, maximumDigits: Int = .max)
        -> (value: Double?, next: Int)
    {
        scanning(text) { bytes in
            var i = 0
            let value = ByteScanner.readDecimal(
                bytes, &i, bytes.count, decimalComma: decimalComma,
                maximumDigits: maximumDigits)
            return (value, i)
        }
    }

    @Test(
        "quotes for messages drop control characters and cut long text at a character's start",
        arguments: [
            ("la la", "'la la'"),
            ("a\u{1B}[2Jb", "'a[2Jb'"), // an escape sequence cannot reach the terminal
            ("a\tb", "'a b'"), // a tab shows as a space
            (String(repeating: "x", count: 40), "'" + String(repeating: "x", count: 40) + "'"), // 40 bytes fit
            (String(repeating: "x", count: 41), "'" + String(repeating: "x", count: 40) + "…'"), // 41 do not
            // 39 bytes, whole characters:
            (String(repeating: "歌", count: 20), "'" + String(repeating: "歌", count: 13) + "…'"),
            ("", "''"),
        ])
    func quotes(text: String, expected: String) {
        #expect(scanning(text) { ByteScanner.quoted($0, 0..<$0.count) } == expected)
    }

    @Test("digits and letters are ASCII only", arguments: Array(0...255))
    func classes(value: Int) {
        let byte = UInt8(value)
        let scalar = Unicode.Scalar(byte)
        #expect(ByteScanner.isDigit(byte) == (value < 0x80 && scalar.properties.numericType == .decimal))
        #expect(ByteScanner.isLetter(byte) == (value < 0x80 && scalar.properties.isAlphabetic))
        #expect(
            ByteScanner.lowercased(byte) == (value < 0x80 ? UInt8(Character(scalar).lowercased().utf8.first!) : byte))
    }

    @Test("the time limit is 100 hours in milliseconds, as LRC's 'beyond 100 hours' says")
    func timeLimit() {
        #expect(ByteScanner.timeLimit == 100 * 60 * 60 * 1000)
        let reading = scanning("6000:00.00") { readStamp($0, 0..<$0.count) }
        #expect(reading == .malformed(.beyondLimit))
        #expect(scanning("5999:59.99") { readStamp($0, 0..<$0.count) } == .time(ByteScanner.timeLimit - 10))
    }
}
