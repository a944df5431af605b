import Glibc

/// The small steps every lyric format parser takes over a file's UTF-8 bytes: classing a byte, skipping
/// and trimming blanks, matching an ASCII keyword, finding a byte, reading digits, and quoting a piece
/// of the source for a message.
///
/// The parsers walk an `UnsafeBufferPointer<UInt8>` by byte index and make a `String` only for text
/// they keep (DESIGN §7); these helpers keep that style in one place, so each format's file holds only
/// what that format means. None of them reads outside the range it is given, and none overflows on a
/// hundred digits.
enum ByteScanner {
    /// Times read from a lyric file stay below 100 hours, in milliseconds: nothing that long is a song,
    /// and sums and products of such times cannot overflow an `Int`.
    static let timeLimit = 100 * 3_600_000

    // MARK: Classes of bytes

    /// Whether a byte is an ASCII digit `0`…`9`.
    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    /// Whether a byte is an ASCII letter.
    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

    /// Whether a byte is a space or a tab: what separates fields on a line of LRC, UltraStar and ASS.
    @inline(__always) static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Whether a byte is ASCII white space as WebVTT (and the HTML standard) means it: space, tab, LF,
    /// form feed or CR. On a line from `TextLines` only the first three of these can occur.
    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// Whether a byte is XML white space: space, tab, LF or CR (form feed is not XML).
    @inline(__always) static func isXMLWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// The byte with an ASCII capital letter made small; every other byte as it is.
    @inline(__always) static func lowercased(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    // MARK: Walking

    /// The index of the first byte from `index` up to `end` that is not `skipped` (`end` when all are).
    @inline(__always)
    static func skip(
        _ bytes: UnsafeBufferPointer<UInt8>, from index: Int, to end: Int,
        while skipped: (UInt8) -> Bool = isBlank
    ) -> Int {
        var i = index
        while i < end, skipped(bytes[i]) { i += 1 }
        return i
    }

    /// `range` without the `blank` bytes at its two ends (space and tab unless told otherwise).
    @inline(__always)
    static func trimmed<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, _ range: Range<Int>, where blank: (UInt8) -> Bool = isBlank
    ) -> Range<Int> where Bytes.Index == Int {
        var low = range.lowerBound, high = range.upperBound
        while low < high, blank(bytes[low]) { low += 1 }
        while high > low, blank(bytes[high - 1]) { high -= 1 }
        return low..<high
    }

    /// Whether `bytes[index..<end]` starts with the ASCII `word`; with `ignoringCase`, ASCII letters match
    /// in either case (`dialogue:` matches `Dialogue:`), and every other byte only itself.
    @inline(__always)
    static func hasPrefix(
        _ word: StaticString, in bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int,
        ignoringCase: Bool
    ) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - index >= count else { return false }
        let letters = word.utf8Start
        if ignoringCase {
            for k in 0..<count where lowercased(bytes[index + k]) != lowercased(letters[k]) { return false }
        } else {
            for k in 0..<count where bytes[index + k] != letters[k] { return false }
        }
        return true
    }

    /// Whether `bytes[range]` is exactly the ASCII `word`, with or without regard to case.
    @inline(__always)
    static func equals(
        _ word: StaticString, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
        ignoringCase: Bool
    ) -> Bool {
        range.count == word.utf8CodeUnitCount
            && hasPrefix(word, in: bytes, at: range.lowerBound, end: range.upperBound, ignoringCase: ignoringCase)
    }

    /// The index after a UTF-8 byte order mark at `index`, or `index` when there is none.
    ///
    /// `SourceText` removes a file's own; parsers skip one where a line starts too, for callers that did
    /// not use it and for files joined from two with a BOM each.
    @inline(__always)
    static func skipByteOrderMark<Bytes: RandomAccessCollection<UInt8>>(
        _ bytes: Bytes, at index: Int, end: Int
    ) -> Int where Bytes.Index == Int {
        end - index >= 3 && bytes[index] == 0xEF && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF
            ? index + 3 : index
    }

    /// The index of the first `byte` from `index` up to `end`, or `end` when there is none (memchr: a
    /// line of a million bytes is searched at memory speed).
    @inline(__always)
    static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from index: Int, to end: Int) -> Int {
        guard index < end, let base = bytes.baseAddress else { return end }
        return memchr(base + index, Int32(byte), end - index)
            .map { base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? end
    }

    // MARK: Numbers

    /// Reads the digits from `i` (moved past all of them): the value of the first `kept` of them, and
    /// how many there were, so a caller can refuse too many without a hundred digits overflowing.
    @inline(__always)
    static func readDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int, keeping kept: Int)
        -> (value: Int, digits: Int)
    {
        var value = 0, digits = 0
        while i < end, isDigit(bytes[i]) {
            if digits < kept { value = value * 10 + Int(bytes[i] &- 0x30) }
            digits += 1
            i += 1
        }
        return (value, digits)
    }

    /// Reads the digits of a decimal fraction of a second from `i` (moved past them): the milliseconds of
    /// the first three (`.5` is 500, `.05` is 50) and how many digits there were, so a caller can refuse more.
    @inline(__always)
    static func readFraction(_ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int)
        -> (milliseconds: Int, digits: Int)
    {
        let (value, digits) = readDigits(bytes, &i, end, keeping: 3)
        return (digits == 1 ? value * 100 : digits == 2 ? value * 10 : value, digits)
    }

    /// Reads an unsigned decimal number from `i` (moved past it): digits with at most one decimal point
    /// (`.`, or also `,` with `decimalComma`, as UltraStar files write `300,5`), such as `12`, `12.5`,
    /// `.5` or `12.`; nil when there is no digit.
    ///
    /// Past 15 digits a `Double` holds no more: later digits of the whole part only scale it, later
    /// fraction digits are read past. A caller that multiplies the value caps it first. A format that
    /// calls such a number malformed instead (TTML) gives `maximumDigits`: past that many digits the
    /// number is still read past, but the result is nil.
    static func readDecimal(
        _ bytes: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int,
        decimalComma: Bool = false, maximumDigits: Int = .max
    ) -> Double? {
        var value = 0.0, scale = 1.0, digits = 0, inFraction = false
        while i < end {
            let byte = bytes[i]
            if isDigit(byte) {
                if digits < 15 {
                    value = value * 10 + Double(byte &- 0x30)
                    if inFraction { scale *= 10 }
                } else if !inFraction {
                    value *= 10
                }
                digits += 1
            } else if !inFraction, byte == 0x2E || (decimalComma && byte == 0x2C) {
                inFraction = true
            } else {
                break
            }
            i += 1
        }
        return digits > 0 && digits <= maximumDigits ? value / scale : nil
    }

    // MARK: Messages

    /// At most this many bytes of the source are quoted in a message; a longer piece ends in `…`.
    static let quoteLimit = 40

    /// `bytes[range]` quoted for a message, as `'text'`: control characters dropped (a file's escape
    /// sequence must not reach the terminal through a warning), cut after `quoteLimit` bytes with `…`.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var shown: [UInt8] = []
        var cut = min(range.upperBound, range.lowerBound + quoteLimit)
        // Back off to a character's first byte, so a long CJK quote does not end in U+FFFD.
        while cut < range.upperBound, cut > range.lowerBound, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        ControlCharacters.appendStripped(bytes, range.lowerBound..<cut, to: &shown)
        return "'" + String(decoding: shown, as: UTF8.self) + (cut < range.upperBound ? "…'" : "'")
    }
}
