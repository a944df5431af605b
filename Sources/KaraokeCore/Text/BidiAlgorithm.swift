/// What rule L1 of UAX #9 needs to know of a character: whether it goes back to the paragraph's level at the
/// end of a row or before a separator (DESIGN §3.5).
public enum BidiSpacing: UInt8, Sendable, Equatable {
    /// Any other character.
    case other
    /// Whitespace (WS), an isolate control, or a character rule X9 removes (BN, embeddings, overrides): at the
    /// end of a row, or before a separator, it takes the paragraph's level.
    case whitespace
    /// A segment (S) or paragraph (B) separator: takes the paragraph's level wherever it is.
    case separator
}

/// A paragraph's embedding levels as UAX #9 resolves them (rules P2 to I2), one entry per Unicode scalar.
public struct BidiResolution: Sendable, Equatable {
    /// 0 for a left-to-right paragraph, 1 for a right-to-left one.
    public var paragraphLevel: UInt8
    /// Each scalar's resolved embedding level.
    public var levels: [UInt8]
    /// Each scalar's part in rule L1.
    public var spacing: [BidiSpacing]
    /// Each scalar's mirrored glyph (Bidi_Mirroring_Glyph), shown in its place when its level is odd (rule L4).
    public var mirrors: [Unicode.Scalar?]

    /// Creates a resolution; the three arrays are as long as the text in scalars.
    public init(paragraphLevel: UInt8, levels: [UInt8], spacing: [BidiSpacing], mirrors: [Unicode.Scalar?]) {
        self.paragraphLevel = paragraphLevel
        self.levels = levels
        self.spacing = spacing
        self.mirrors = mirrors
    }
}

/// Resolves embedding levels by the Unicode Bidirectional Algorithm for a whole line (DESIGN §3.5).
///
/// The core never loads anything: the executable passes one in through `FrameOptions.bidi` (FriBidi, loaded
/// on the first right-to-left line), and the core reorders each wrapped row from its levels itself
/// (`BidiReorder`).
public protocol BidiAlgorithm: Sendable {
    /// The levels of `scalars` as one paragraph whose direction is `base`, or, when nil, that of its first
    /// strong character (rules P2 and P3). Nil when the algorithm cannot answer (its library did not load);
    /// the simple rule of `VisualOrder` is used instead.
    func resolve(_ scalars: [Unicode.Scalar], base: TextDirection?) -> BidiResolution?
}

/// The bidi algorithm a frame uses, by name, so that `FrameOptions` stays `Equatable`: nil is the simple rule.
public struct BidiChoice: Sendable, Equatable, CustomStringConvertible {
    /// Says which algorithm it is; two choices with the same name are the same.
    public let name: String
    /// The algorithm, or nil for `VisualOrder`'s simple rule.
    public let algorithm: (any BidiAlgorithm)?

    /// A named algorithm.
    public init(name: String, algorithm: (any BidiAlgorithm)?) {
        self.name = name
        self.algorithm = algorithm
    }

    /// `VisualOrder`'s simple rule, the default and the fallback.
    public static let simple = BidiChoice(name: "simple", algorithm: nil)

    /// The name.
    public var description: String { name }

    /// Whether two choices have the same name.
    public static func == (lhs: BidiChoice, rhs: BidiChoice) -> Bool { lhs.name == rhs.name }
}
