/// One character of a bitmap font: 16 rows of up to 16 pixels.
public struct BitmapGlyph: Sendable, Equatable {
    /// Pixels across: 8 or 16.
    public var width: Int
    /// The 16 rows from the top; bit 15 is the leftmost pixel (an 8-pixel glyph uses bits 15…8).
    public var rows: [UInt16]

    /// Pixels down, the same for every glyph.
    public static let height = 16

    /// Whether the pixel `x` across, `y` down is set; outside the glyph nothing is.
    @inline(__always)
    public func isSet(x: Int, y: Int) -> Bool {
        guard x >= 0, x < width, y >= 0, y < BitmapGlyph.height else { return false }
        return rows[y] & (0x8000 >> UInt16(x)) != 0
    }
}

/// A bitmap font read from GNU Unifont's `.hex` format (DESIGN §23.1).
///
/// Each line is `CODEPOINT:BITMAP`: the code point in hexadecimal, a colon, then 32 hexadecimal digits for
/// an 8×16 glyph or 64 for a 16×16 one, row after row from the top, most significant bit leftmost. The
/// bytes are parsed as bytes (the file is ASCII; no `Character` is made). A line that is not of that shape
/// is skipped and counted; an empty line is skipped without counting; a code point given twice keeps its
/// first glyph. Immutable once read, so one font is shared by every composer (it is a class for that).
public final class BitmapFont: Sendable {
    /// Glyph number of each code point.
    private let index: [UInt32: Int32]
    /// 16 rows a glyph, glyph after glyph.
    private let bits: [UInt16]
    /// Whether each glyph is 16 pixels wide.
    private let wide: [Bool]
    /// Lines that were neither empty nor `CODEPOINT:BITMAP`.
    public let skippedLines: Int

    /// The glyphs read.
    public var glyphCount: Int { wide.count }

    /// Reads `hex`, the bytes of a `.hex` file.
    public init(hex: [UInt8]) {
        var index: [UInt32: Int32] = [:]
        var bits: [UInt16] = []
        var wide: [Bool] = []
        var skipped = 0
        hex.withUnsafeBufferPointer { bytes in
            let count = bytes.count
            var start = 0
            while start < count {
                var end = start
                while end < count && bytes[end] != 0x0A { end += 1 }
                var last = end
                // CR LF line ends, trailing blanks.
                while last > start && (bytes[last - 1] == 0x0D || bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09) {
                    last -= 1
                }
                if last > start {
                    if let (scalar, rows) = BitmapFont.parseLine(bytes, from: start, to: last) {
                        if index[scalar] == nil {
                            index[scalar] = Int32(wide.count)
                            wide.append(rows.wide)
                            bits.append(contentsOf: rows.values)
                        }
                    } else {
                        skipped += 1
                    }
                }
                start = end + 1
            }
        }
        self.index = index
        self.bits = bits
        self.wide = wide
        skippedLines = skipped
    }

    /// The glyph of `scalar`, or nil when the font has none.
    public func glyph(for scalar: Unicode.Scalar) -> BitmapGlyph? {
        guard let number = index[scalar.value] else { return nil }
        let first = Int(number) * BitmapGlyph.height
        return BitmapGlyph(
            width: wide[Int(number)] ? 16 : 8, rows: Array(bits[first..<(first + BitmapGlyph.height)]))
    }

    /// The value of the hexadecimal digit `byte`, or nil.
    @inline(__always)
    private static func hexDigit(_ byte: UInt8) -> UInt16? {
        switch byte {
        case 0x30...0x39: UInt16(byte - 0x30)
        case 0x41...0x46: UInt16(byte - 0x41 + 10)
        case 0x61...0x66: UInt16(byte - 0x61 + 10)
        default: nil
        }
    }

    /// The code point and 16 rows of the line `bytes[from..<to]`, or nil when it is not `CODEPOINT:BITMAP`
    /// with a code point of 1 to 6 digits (at most U+10FFFF) and a bitmap of 32 or 64 digits.
    private static func parseLine(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> (UInt32, (wide: Bool, values: [UInt16]))? {
        var position = start
        var scalar: UInt32 = 0
        while position < end, position - start < 7, let digit = hexDigit(bytes[position]) {
            scalar = scalar << 4 | UInt32(digit)
            position += 1
        }
        let digits = position - start
        guard digits >= 1, digits <= 6, scalar <= 0x10FFFF, position < end, bytes[position] == 0x3A else {
            return nil
        }
        position += 1
        let length = end - position
        guard length == 32 || length == 64 else { return nil }
        let perRow = length / 16 // 2 digits (8 pixels) or 4 (16 pixels)
        var values = [UInt16](repeating: 0, count: 16)
        for row in 0..<16 {
            var value: UInt16 = 0
            for _ in 0..<perRow {
                guard let digit = hexDigit(bytes[position]) else { return nil }
                value = value << 4 | digit
                position += 1
            }
            // An 8-pixel row goes to the high byte, so bit 15 is always the leftmost pixel.
            values[row] = perRow == 2 ? value << 8 : value
        }
        return (scalar, (length == 64, values))
    }
}
