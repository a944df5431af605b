import Synchronization

/// Where the big glyphs' font comes from: read the first time a size of 2 or more is shown, then kept
/// (DESIGN §23.1).
///
/// The edge hands in a function that reads the file's bytes (the core itself reads nothing); `font` calls it
/// once, on first use, so `karaoke --version` and frames at size 1 never read the 10 MB file. Shared by every
/// composer of a run, which is why it is a class; two sources are equal only when they are the same one.
public final class BigFontSource: Sendable, Equatable {
    private enum State {
        case unread
        case read(BitmapFont?)
    }
    private let read: @Sendable () -> [UInt8]?
    private let state = Mutex<State>(.unread)

    /// A source that calls `read` for the `.hex` bytes when the font is first needed; nil from `read` means
    /// the font is missing.
    public init(read: @escaping @Sendable () -> [UInt8]?) {
        self.read = read
    }

    /// A source holding `font` already (nil: missing).
    public init(font: BitmapFont?) {
        read = { nil }
        state.withLock { $0 = .read(font) }
    }

    /// The font, read now if it has not been; nil when it is missing or holds no glyph.
    public var font: BitmapFont? {
        state.withLock { state in
            if case .read(let font) = state { return font }
            let font = read().map { BitmapFont(hex: $0) }.flatMap { $0.glyphCount > 0 ? $0 : nil }
            state = .read(font)
            return font
        }
    }

    /// Whether the font has been asked for already.
    public var hasBeenRead: Bool {
        state.withLock { if case .read = $0 { true } else { false } }
    }

    /// The same source.
    public static func == (lhs: BigFontSource, rhs: BigFontSource) -> Bool { lhs === rhs }
}
