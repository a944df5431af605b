/// One row of a wrapped line: which graphemes it shows and how wide they are.
public struct WrappedRow: Sendable, Equatable {
    /// Indices into the line's graphemes; the spaces at a break fall between rows and are not shown.
    public var range: Range<Int>
    /// Cells the row takes.
    public var width: Int
}

/// Breaks a line into rows no wider than the lyric area (DESIGN §3.2).
///
/// A row may end after a run of spaces, or between two CJK ideographs, kana or fullwidth characters
/// (except before closing punctuation and small kana, and after opening brackets, which Japanese
/// typesetting keeps with their neighbour). A word wider than the area breaks between graphemes; a
/// grapheme is never split. The one row that can be wider than the area is a single grapheme that does
/// not fit on its own (a wide character in a one-column area); the frame never makes an area that narrow.
/// Zero-width graphemes that would make a row of their own are left out of the rows (they paint nothing).
public enum LineWrapping {
    /// The rows of `graphemes` (with their cell `widths`) in an area `maxWidth` cells wide.
    public static func wrap(_ graphemes: [Character], widths: [Int], maxWidth: Int) -> [WrappedRow] {
        precondition(graphemes.count == widths.count, "one width per grapheme")
        let count = graphemes.count
        let limit = max(1, maxWidth)
        var rows: [WrappedRow] = []
        var start = 0
        while start < count, isSpace(graphemes[start]) { start += 1 }
        while start < count {
            var used = 0
            var index = start
            var lastBreak: Int? = nil
            while index < count {
                if index > start && canBreak(before: index, graphemes) { lastBreak = index }
                let width = widths[index]
                // Spaces may run past the edge: at a break they are not shown.
                if used + width > limit && !isSpace(graphemes[index]) { break }
                used += width
                index += 1
            }
            var end: Int
            if index == count {
                end = count
            } else if let lastBreak, lastBreak > start {
                end = lastBreak
            } else {
                // Forced break: take the grapheme that does not fit when nothing visible precedes it
                // (zero-width ones alone would make a blank row).
                end = used == 0 ? index + 1 : index
            }
            var visibleEnd = end
            while visibleEnd > start, isSpace(graphemes[visibleEnd - 1]) { visibleEnd -= 1 }
            var width = 0
            for k in start..<visibleEnd { width += widths[k] }
            // A row of zero-width graphemes alone (a zero-width space before a break, say) would show
            // as a blank row; nothing of it is painted, so it is left out.
            if visibleEnd > start && width > 0 { rows.append(WrappedRow(range: start..<visibleEnd, width: width)) }
            start = end
            while start < count, isSpace(graphemes[start]) { start += 1 }
        }
        if rows.isEmpty, let first = graphemes.firstIndex(where: { !isSpace($0) }),
            let last = graphemes.lastIndex(where: { !isSpace($0) })
        {
            // A line of invisible graphemes still has its one (empty) row, like any sung line.
            rows.append(WrappedRow(range: first..<(last + 1), width: 0))
        }
        return rows
    }

    /// Whether a row may end just before `graphemes[index]`.
    static func canBreak(before index: Int, _ graphemes: [Character]) -> Bool {
        let previous = graphemes[index - 1], next = graphemes[index]
        if isSpace(next) { return false }
        if isSpace(previous) { return true }
        guard let before = previous.unicodeScalars.first, let after = next.unicodeScalars.first else { return false }
        return isBreakableCJK(before.value) && isBreakableCJK(after.value)
            && !noBreakBefore(after.value) && !noBreakAfter(before.value)
    }

    /// The spaces a row can break at: ASCII and ideographic.
    @inline(__always)
    static func isSpace(_ character: Character) -> Bool { character == " " || character == "\u{3000}" }

    /// CJK ideographs, kana, CJK punctuation and fullwidth forms: any boundary between two of them may break.
    static func isBreakableCJK(_ value: UInt32) -> Bool {
        switch value {
        case 0x2E80...0x2FDF, 0x3001...0x303F, 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF01...0xFF60, 0xFF61...0xFF9F, 0xFFE0...0xFFE6,
            0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }

    /// Closing punctuation, small kana, iteration marks and the prolonged sound mark never start a row.
    ///
    /// The small kana include ゕゖ, the Ainu extensions ㇰ…ㇿ and the halfwidth ｧ…ｯ; halfwidth text
    /// (｡｣､･ｰ) follows the same rules as fullwidth, since those characters break like kana.
    static func noBreakBefore(_ value: UInt32) -> Bool {
        switch value {
        case 0x3001, 0x3002, 0xFF0C, 0xFF0E, 0xFF1A, 0xFF1B, 0xFF1F, 0xFF01, 0xFF09, 0xFF3D, 0xFF5D,
            0x300D, 0x300F, 0x3011, 0x3015, 0x3009, 0x300B, 0x301F, 0x30FC, 0x30FB, 0x309D, 0x309E,
            0x30FD, 0x30FE, 0x3041, 0x3043, 0x3045, 0x3047, 0x3049, 0x3063, 0x3083, 0x3085, 0x3087,
            0x308E, 0x30A1, 0x30A3, 0x30A5, 0x30A7, 0x30A9, 0x30C3, 0x30E3, 0x30E5, 0x30E7, 0x30EE,
            0x30F5, 0x30F6,
            0x3095, 0x3096, 0x31F0...0x31FF, 0x3005, 0x303B, 0x309B, 0x309C, 0x3017, 0x3019, 0x301B,
            0xFF60, 0xFF61, 0xFF63, 0xFF64, 0xFF65, 0xFF67...0xFF70:
            return true
        default:
            return false
        }
    }

    /// Opening brackets never end a row.
    static func noBreakAfter(_ value: UInt32) -> Bool {
        switch value {
        case 0xFF08, 0xFF3B, 0xFF5B, 0x300C, 0x300E, 0x3010, 0x3014, 0x3008, 0x300A, 0x301D,
            0x3016, 0x3018, 0x301A, 0xFF5F, 0xFF62:
            return true
        default: return false
        }
    }
}
