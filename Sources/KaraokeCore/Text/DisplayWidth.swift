import CTextWidth

/// How many terminal cells a grapheme cluster takes, and what to paint so that it takes exactly that.
///
/// The width of a cluster (DESIGN §3.1), in the order the rules are tried:
/// 1. Printable ASCII is 1 cell. A control (C0, DEL, C1, a bidi embedding, override or isolate) is
///    0 cells and painted as nothing: they are removed before layout, and must never reach the terminal.
/// 2. A flag (two regional indicators) is 2 cells; a lone regional indicator is 1, as glibc says.
/// 3. An emoji sequence is 2 cells: a base followed by VS16 (U+FE0F), a skin-tone modifier
///    (U+1F3FB…1F3FF), a keycap mark (U+20E3), or a ZWJ (U+200D) that joins emoji. A base newer than
///    glibc's tables (Unicode 15 emoji on glibc 2.36) is painted as U+FFFD, as in rule 5.
/// 4. Anything else is the sum of glibc `wcwidth` over its scalars, so combining marks, ZWJ and
///    variation selectors add nothing, and a Hangul syllable spelt in jamo is as wide as its first jamo.
/// 5. A scalar `wcwidth` cannot print (unassigned, say) counts 1 and is painted as U+FFFD.
///
/// Terminals disagree about rule 3 (tmux advances a ZWJ family by 2, ncurses' model by 6; ❤️ is 1 in
/// both), so the painted form of an emoji sequence is reduced to its first scalar, padded with a space
/// when that scalar is narrow. Every terminal then advances the cursor exactly as the layout assumed. A
/// terminal in grapheme-cluster mode (DESIGN §3.6) takes the whole sequence at the same width: its painted
/// form `.whole` keeps the sequence's own scalars, and the width stays what these rules say.
public enum DisplayWidth {
    /// The number of cells `character` takes.
    @inlinable
    public static func of(_ character: Character) -> Int {
        let utf8 = character.utf8
        if utf8.count == 1, let byte = utf8.first { return byte >= 0x20 && byte < 0x7F ? 1 : 0 }
        return glyph(character).width
    }

    /// The number of cells `text` takes, laid out on one row.
    public static func of(_ text: String) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// What the painter sends for `character`: its own scalars, or a reduced form of the same width; an
    /// emoji sequence is reduced unless `form` is `.whole`.
    public static func glyph(_ character: Character, form: GraphemeForm = .reduced) -> TerminalGlyph {
        let scalars = character.unicodeScalars
        var iterator = scalars.makeIterator()
        guard let base = iterator.next() else { return TerminalGlyph(text: "", width: 0) }
        guard let second = iterator.next() else {
            // Controls are their own grapheme (only CR LF pairs up), so this is where they arrive.
            if ControlCharacters.isForbidden(base.value) { return TerminalGlyph(text: "", width: 0) }
            let width = scalarWidth(base)
            if width < 0 { return TerminalGlyph(text: "\u{FFFD}", width: 1) }
            return TerminalGlyph(text: String(character), width: width)
        }
        if isRegionalIndicator(base) && isRegionalIndicator(second) {
            return TerminalGlyph(text: String(character), width: 2)
        }
        if isEmojiSequence(base: base, scalars) {
            if form == .whole { return TerminalGlyph(text: String(character), width: 2) }
            // Swift knows newer emoji than glibc: a base glibc cannot print would reach the terminal
            // with a width nobody agreed on, so it is replaced like any unprintable scalar.
            let baseWidth = scalarWidth(base)
            var reduced = baseWidth < 1 ? "\u{FFFD}" : String(base)
            if baseWidth < 2 { reduced.append(" ") }
            return TerminalGlyph(text: reduced, width: 2)
        }
        var width = 0
        var text = String.UnicodeScalarView()
        var replaced = false // whether `text` differs from the grapheme
        for scalar in scalars {
            if ControlCharacters.isForbidden(scalar.value) {
                replaced = true // CR LF: neither half is painted
                continue
            }
            let w = scalarWidth(scalar)
            if w < 0 {
                width += 1
                text.append("\u{FFFD}")
                replaced = true
            } else {
                width += w
                text.append(scalar)
            }
        }
        return TerminalGlyph(text: replaced ? String(text) : String(character), width: width)
    }

    /// glibc's width of one scalar under a UTF-8 locale; -1 when it is not printable.
    @inlinable
    public static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        if scalar.value >= 0x20 && scalar.value < 0x7F { return 1 }
        _ = utf8LocaleReady
        return Int(kk_wcwidth(scalar.value))
    }

    static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
        (0x1F1E6...0x1F1FF).contains(scalar.value)
    }

    static func isEmojiSequence(base: Unicode.Scalar, _ scalars: Character.UnicodeScalarView) -> Bool {
        guard base.properties.isEmoji else { return false }
        for scalar in scalars.dropFirst() {
            switch scalar.value {
            case 0xFE0F, 0x20E3, 0x1F3FB...0x1F3FF, 0x200D: return true
            default: continue
            }
        }
        return false
    }
}

/// `wcwidth` answers -1 for everything but ASCII under the C locale, which is what a process gets when
/// `LANG` is unset; so the first width asked for switches LC_CTYPE to UTF-8 (the user's, or C.UTF-8).
@usableFromInline
let utf8LocaleReady: Bool = kk_use_utf8_ctype() != 0

/// A grapheme as the terminal is given it: the text to send and the cells it takes.
public struct TerminalGlyph: Sendable, Equatable {
    /// The scalars to send; a reduced form of the grapheme when terminals disagree about its width.
    public var text: String
    /// The cells it takes on every terminal.
    public var width: Int
}

extension DisplayWidth {
    /// Switches LC_CTYPE to UTF-8 now (the user's locale if it is UTF-8, else C.UTF-8), as the terminal
    /// edge must before `newterm`; returns whether UTF-8 is in effect.
    @discardableResult
    public static func prepareLocale() -> Bool { utf8LocaleReady }
}
