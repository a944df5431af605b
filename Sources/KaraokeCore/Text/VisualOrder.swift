/// Which way a line reads.
public enum TextDirection: Sendable, Equatable {
    /// Left to right.
    case leftToRight
    /// Right to left: the line's first strong character is Hebrew, Arabic, …
    case rightToLeft

    /// The direction of the first strong character in `text` (DESIGN §3.5); left to right when there is none.
    public static func of<S: Sequence>(_ text: S) -> TextDirection where S.Element == Character {
        for character in text {
            switch VisualOrder.strength(of: character) {
            case .rightToLeft: return .rightToLeft
            case .leftToRight: return .leftToRight
            case .number, .neutral: continue
            }
        }
        return .leftToRight
    }
}

/// Puts a row of logical text into the order the terminal shows it (the simple rule of DESIGN §3.5).
///
/// The row splits into runs of one direction: strong characters are right-to-left (Hebrew, Arabic and
/// the other RTL scripts' letters) or left-to-right (other letters); digits read left to right, and so
/// do the percent and currency signs that touch them; a neutral (space, punctuation) between two
/// characters of one direction joins them and otherwise takes the line's direction. A right-to-left
/// line shows its runs from right to left; a left-to-right run inside it keeps its order, so
/// `שנת 2024` shows `2024 תנש`. Brackets in right-to-left runs are mirrored. This is not full UAX #9
/// (no embedding levels, no Arabic shaping), which lyric lines do not need; the README says so.
public enum VisualOrder {
    /// A grapheme's part in deciding order.
    public enum Strength: Sendable, Equatable {
        case leftToRight, rightToLeft, number, neutral
    }

    /// The logical indices of `row` in visual order, left to right, each with whether it was resolved
    /// right to left (such a bracket is shown mirrored).
    public static func order(
        _ row: ArraySlice<Character>,
        direction: TextDirection
    ) -> [(index: Int, rightToLeft: Bool)] {
        let base = row.startIndex
        var strengths = row.map(strength(of:))
        guard direction == .rightToLeft || strengths.contains(.rightToLeft) else {
            return row.indices.map { ($0, false) }
        }
        // A percent or currency sign belongs to the number it touches (UAX #9 rule W5), or `50%` in a
        // right-to-left line would show as `%50`.
        for k in strengths.indices where strengths[k] == .number {
            var before = k - 1
            while before >= 0, strengths[before] == .neutral, isNumberTerminator(row[base + before]) {
                strengths[before] = .number
                before -= 1
            }
            var after = k + 1
            while after < strengths.count, strengths[after] == .neutral, isNumberTerminator(row[base + after]) {
                strengths[after] = .number
                after += 1
            }
        }
        // Resolve each grapheme to one of two directions.
        var rightToLeft = [Bool](repeating: direction == .rightToLeft, count: strengths.count)
        var previousStrong: Bool? = nil // the direction of the last strong (or number) seen, true = RTL
        var k = 0
        while k < strengths.count {
            switch strengths[k] {
            case .rightToLeft: rightToLeft[k] = true; previousStrong = true; k += 1
            case .leftToRight, .number: rightToLeft[k] = false; previousStrong = false; k += 1
            case .neutral:
                var next = k
                while next < strengths.count, strengths[next] == .neutral { next += 1 }
                let following: Bool? = next < strengths.count ? strengths[next] == .rightToLeft : nil
                let resolved =
                    (previousStrong != nil && previousStrong == following)
                    ? previousStrong! : direction == .rightToLeft
                for n in k..<next { rightToLeft[n] = resolved }
                k = next
            }
        }
        // Runs of one direction; reverse the RTL ones, and the order of runs on an RTL line.
        var runs: [[(index: Int, rightToLeft: Bool)]] = []
        var runStart = 0
        for index in 0...rightToLeft.count {
            if index == rightToLeft.count || rightToLeft[index] != rightToLeft[runStart] {
                guard index > runStart else { continue }
                let isRTL = rightToLeft[runStart]
                var run = ((base + runStart)..<(base + index)).map { (index: $0, rightToLeft: isRTL) }
                if isRTL { run.reverse() }
                runs.append(run)
                runStart = index
            }
        }
        if direction == .rightToLeft { runs.reverse() }
        return runs.flatMap { $0 }
    }

    /// The mirrored form of a bracket shown in a right-to-left run, or nil.
    public static func mirrored(_ character: Character) -> Character? {
        switch character {
        case "(": return ")"
        case ")": return "("
        case "[": return "]"
        case "]": return "["
        case "{": return "}"
        case "}": return "{"
        case "<": return ">"
        case ">": return "<"
        case "«": return "»"
        case "»": return "«"
        default: return nil
        }
    }

    /// How a grapheme (by its first scalar) takes part in ordering.
    public static func strength(of character: Character) -> Strength {
        guard let scalar = character.unicodeScalars.first else { return .neutral }
        let value = scalar.value
        if value < 0x80 {
            if ByteScanner.isDigit(UInt8(value)) { return .number }
            return ByteScanner.isLetter(UInt8(value)) ? .leftToRight : .neutral
        }
        switch scalar.properties.generalCategory {
        case .decimalNumber:
            return .number
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            return isRightToLeftScript(value) ? .rightToLeft : .leftToRight
        default:
            return .neutral
        }
    }

    /// Signs that go with a number (bidi class ET): `#`, `$`, `%`, degree, plus-minus, per mille, primes,
    /// the Arabic percent sign and the currency signs (¢ £ ¤ ¥ and the U+20A0 block, ₪ and € among them).
    static func isNumberTerminator(_ character: Character) -> Bool {
        guard let value = character.unicodeScalars.first?.value else { return false }
        switch value {
        case 0x23, 0x24, 0x25, 0xA2...0xA5, 0xB0, 0xB1, 0x066A, 0x2030...0x2034, 0x20A0...0x20CF: return true
        default: return false
        }
    }

    /// The blocks of the right-to-left scripts: Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic,
    /// their presentation forms, and the RTL ranges of the supplementary planes.
    static func isRightToLeftScript(_ value: UInt32) -> Bool {
        switch value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: return true
        default: return false
        }
    }
}
