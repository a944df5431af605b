/// A guest's name as the party keeps it: cleaned for the terminal and the page, and the key two spellings of
/// one singer share (DESIGN §20.1).
public struct SingerName: Sendable, Equatable, Hashable {
    /// The longest name kept, in characters, after cleaning.
    public static let maximumLength = 32

    /// The name as shown: control and bidi-control characters removed, trimmed.
    public let shown: String
    /// What names are compared by: `shown` lower-cased, runs of white space made one space, so `Ana`,
    /// ` ana ` and `ANA` are one singer.
    public let key: String

    /// The name `text` makes, or nil when nothing is left after cleaning or more than `maximumLength`
    /// characters are.
    public init?(_ text: String) {
        let cleaned = Self.cleaned(text)
        guard !cleaned.isEmpty, cleaned.count <= Self.maximumLength else { return nil }
        shown = cleaned
        var key = ""
        var pendingSpace = false
        for character in cleaned.lowercased() {
            if character.isWhitespace {
                pendingSpace = true
                continue
            }
            if pendingSpace { key.append(" ") }
            pendingSpace = false
            key.append(character)
        }
        self.key = key
    }

    /// Two names are one singer when their keys are equal, whatever their spelling.
    public static func == (lhs: SingerName, rhs: SingerName) -> Bool { lhs.key == rhs.key }

    /// Hashes the key only, as `==` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// `text` without the characters a guest must not put on the host's screen, trimmed of white space.
    ///
    /// The terminal's forbidden set (`ControlCharacters`) plus the bidi marks U+200E, U+200F and U+061C,
    /// which do not reorder text on their own but can still flip the order a name is shown in beside another.
    public static func cleaned(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in ControlCharacters.strip(text).unicodeScalars where !isRemoved(scalar.value) {
            scalars.append(scalar)
        }
        var result = Substring(String(scalars))
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return String(result)
    }

    /// Whether a scalar is removed from guests' text: the terminal's forbidden characters and the bidi marks.
    static func isRemoved(_ value: UInt32) -> Bool {
        switch value {
        case 0x200E, 0x200F, 0x061C: return true
        default: return ControlCharacters.isForbidden(value)
        }
    }
}
