import CFriBidi
import KaraokeCore

/// The Unicode Bidirectional Algorithm through GNU FriBidi, loaded on the first line that needs it (DESIGN §3.5).
///
/// FriBidi resolves the levels of a whole line; the core reorders each wrapped row from them. When libfribidi
/// cannot be loaded every line answers nil, so the core keeps its simple rule, and `karaoke check` says so.
public struct FriBidi: BidiAlgorithm {
    /// The choice the executable puts in `FrameOptions.bidi`: nothing is loaded until a line asks.
    public static let choice = BidiChoice(name: "fribidi", algorithm: FriBidi())

    /// The algorithm; libfribidi is loaded by the first line it resolves.
    public init() {}

    /// Loads libfribidi if this is the first call: nil when it is ready, else the loader's message, naming the
    /// Debian package (`libfribidi0`), control characters removed.
    public static func load() -> String? {
        kk_fribidi_load().map { ControlCharacters.strip(String(cString: $0)) }
    }

    /// The levels of `scalars` by FriBidi, or nil when libfribidi cannot be loaded or fails.
    public func resolve(_ scalars: [Unicode.Scalar], base: TextDirection?) -> BidiResolution? {
        guard FriBidi.load() == nil, scalars.count < Int(Int32.max) else { return nil }
        let count = scalars.count
        let text = scalars.map(\.value)
        var levels = [UInt8](repeating: 0, count: count)
        var spacing = [UInt8](repeating: 0, count: count)
        var mirrors = [UInt32](repeating: 0, count: count)
        let baseCode: Int32 =
            switch base {
            case nil: -1
            case .leftToRight: 0
            case .rightToLeft: 1
            }
        let paragraph = kk_fribidi_resolve(text, Int32(count), baseCode, &levels, &spacing, &mirrors)
        guard paragraph >= 0 else { return nil }
        return BidiResolution(
            paragraphLevel: UInt8(paragraph), levels: levels,
            spacing: spacing.map { BidiSpacing(rawValue: $0) ?? .other },
            mirrors: mirrors.map { $0 == 0 ? nil : Unicode.Scalar($0) })
    }
}
