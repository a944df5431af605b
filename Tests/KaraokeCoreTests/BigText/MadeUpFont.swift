@testable import KaraokeCore

/// A small font of our own for the big-lyrics tests, so golden frames never depend on a system file: each
/// character is a box (8 or 16 pixels wide, as wide as the text it stands for) with its code point's low
/// byte drawn as a bar of pixels across its middle, so different letters look different.
enum MadeUpFont {
    /// The `.hex` text of the glyphs of every scalar in `texts`, one line each, plus U+FFFD.
    static func hex(for texts: [String]) -> String {
        var scalars = Set<UInt32>([0xFFFD])
        for text in texts {
            for scalar in text.unicodeScalars { scalars.insert(scalar.value) }
        }
        return scalars.sorted().map { line(for: $0) }.joined(separator: "\n") + "\n"
    }

    /// The font of every scalar in `texts`.
    static func font(for texts: [String]) -> BitmapFont {
        BitmapFont(hex: Array(hex(for: texts).utf8))
    }

    /// The font of every scalar in the song's lines and translations.
    static func font(for song: Song) -> BitmapFont {
        font(for: song.lines.flatMap { [$0.text] + $0.translations })
    }

    /// The `CODEPOINT:BITMAP` line of `value`: wide when the character is.
    static func line(for value: UInt32) -> String {
        let wide = Unicode.Scalar(value).map { DisplayWidth.of(String(Character($0))) >= 2 } ?? false
        let width = wide ? 16 : 8
        // Rows as `width`-bit numbers, the leftmost pixel the highest bit: a box from x = 1 to width − 2.
        let interior = UInt16((1 << (width - 1)) - 2) // bits of x = 1 … width − 2
        let sides = UInt16(1 << (width - 2) | 2)
        var rows: [UInt16] = []
        for y in 0..<16 {
            var row: UInt16 = 0
            if y == 1 || y == 14 {
                row = interior
            } else if y > 1 && y < 14 {
                row = sides
                if y == 7 || y == 8 { row |= UInt16(value & 0xFF) << UInt16((width - 8) / 2) }
            }
            rows.append(row)
        }
        let digits = rows.map { width == 8 ? hex($0 & 0xFF, 2) : hex($0, 4) }.joined()
        return hex(value, 4) + ":" + digits
    }

    private static func hex<T: BinaryInteger>(_ value: T, _ digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
