/// A way of writing one script's text in Latin letters, for `--romanize` (DESIGN §29.4).
///
/// Korean is one (`HangulRomanizer`, here in the core); Japanese is another, reading kana and kanji through
/// KAKASI, which lives at the edge because it loads a library (`KakasiRomanizer`).
public protocol Romanizer: Sendable {
    /// Whether `text` holds anything this romanizer reads; cheap, and loads nothing.
    func reads(_ text: String) -> Bool
    /// `text` in Latin letters, what it does not read kept; nil when the romanizer cannot work (its library
    /// is missing), so the line gets no romanization.
    func romanize(_ text: String) -> String?
}

/// Korean through the Revised Romanization (DESIGN §29.1).
public struct HangulRomanizer: Romanizer {
    /// The romanizer.
    public init() {}

    /// Whether `text` holds a Hangul syllable.
    public func reads(_ text: String) -> Bool { HangulRomanization.containsHangul(text) }

    /// `text` romanized by `HangulRomanization`.
    public func romanize(_ text: String) -> String? { HangulRomanization.romanize(text) }
}

/// The romanizers `--romanize` tries, in order, as a frame option (DESIGN §29.4).
///
/// Romanizers are not values to compare, so two lists are equal when they hold the same types in the same
/// order: enough for `FrameOptions`' equality, which asks whether the options changed.
public struct Romanizers: Sendable, Equatable {
    /// The romanizers; the first that reads a line romanizes it.
    public var list: [any Romanizer]

    /// A list of `list`.
    public init(_ list: [any Romanizer]) { self.list = list }

    /// The core's own: Korean.
    public static let core = Romanizers(Song.romanizers)

    public static func == (left: Romanizers, right: Romanizers) -> Bool {
        left.list.map { ObjectIdentifier(type(of: $0)) } == right.list.map { ObjectIdentifier(type(of: $0)) }
    }
}
