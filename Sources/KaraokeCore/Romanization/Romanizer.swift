/// A way of writing one script's text in Latin letters, for `--romanize` (DESIGN §29.4).
///
/// Korean is one (`HangulRomanizer`); Japanese would be another, reading kana and kanji through KAKASI, and is
/// not written yet.
public protocol Romanizer: Sendable {
    /// Whether `text` holds anything this romanizer reads.
    func reads(_ text: String) -> Bool
    /// `text` in Latin letters; what it does not read is kept.
    func romanize(_ text: String) -> String
}

/// Korean through the Revised Romanization (DESIGN §29.1).
public struct HangulRomanizer: Romanizer {
    /// The romanizer.
    public init() {}

    /// Whether `text` holds a Hangul syllable.
    public func reads(_ text: String) -> Bool { HangulRomanization.containsHangul(text) }

    /// `text` romanized by `HangulRomanization`.
    public func romanize(_ text: String) -> String { HangulRomanization.romanize(text) }
}
