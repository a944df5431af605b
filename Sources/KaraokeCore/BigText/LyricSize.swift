/// How big the lyrics are drawn: `--size` and the `z` key (DESIGN §23).
public enum LyricSize: Sendable, Equatable, CustomStringConvertible {
    /// The largest size at which every line and the one after it fit the lyric area; 1 when none does.
    case auto
    /// A fixed size: 1 is text, 2…4 big glyphs.
    case fixed(Int)

    /// The fixed sizes.
    public static let sizes = 1...4

    /// The size `text` names (`auto`, `1`…`4`), or nil.
    public init?(_ text: String) {
        if text == "auto" {
            self = .auto
        } else if let n = Int(text), LyricSize.sizes.contains(n) {
            self = .fixed(n)
        } else {
            return nil
        }
    }

    /// `auto` or the number.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .fixed(let n): "\(n)"
        }
    }

    /// The next size the `z` key steps to: auto → 1 → 2 → 3 → 4 → auto.
    public var next: LyricSize {
        switch self {
        case .auto: .fixed(1)
        case .fixed(let n) where n < LyricSize.sizes.upperBound: .fixed(n + 1)
        case .fixed: .auto
        }
    }
}

/// Which block characters draw the big glyphs' sub-cell pixels (DESIGN §23.2).
public enum BigTextCells: String, Sendable, Equatable, CaseIterable {
    /// 2×2 pixels a cell: ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█.
    case quadrants
    /// 1×2 pixels a cell: ▀▄█, for fonts without the quadrants.
    case halves
    /// 2×3 pixels a cell: the sextants of U+1FB00…U+1FB3B with ▌▐█, for fonts that have them (Unicode 13).
    case sextants

    /// Pixels across one cell.
    public var pixelsAcross: Int { self == .halves ? 1 : 2 }
    /// Pixels down one cell.
    public var pixelsDown: Int { self == .sextants ? 3 : 2 }

    /// The block character of a cell whose pixels `pattern` sets: the pixel in row `r` and column `c` of the
    /// cell is bit 2r + c (bit 0 top left, 1 top right, 2 the next row's left, …; half blocks use bits 0 and 2).
    public func character(_ pattern: Int) -> Character {
        switch self {
        case .quadrants: BigTextCells.quadrantCharacters[pattern & 15]
        case .halves: BigTextCells.halfCharacters[(pattern & 1) | (pattern >> 1 & 2)]
        case .sextants: BigTextCells.sextantCharacters[pattern & 63]
        }
    }

    private static let quadrantCharacters: [Character] = [
        " ", "▘", "▝", "▀", "▖", "▌", "▞", "▛", "▗", "▚", "▐", "▜", "▄", "▙", "▟", "█",
    ]
    private static let halfCharacters: [Character] = [" ", "▀", "▄", "█"]
    /// Unicode numbers the six pixels 1 2 / 3 4 / 5 6, our bits 0…5, and gives the sextants in the order of
    /// that number, leaving out the four patterns older blocks already draw: none, the left column (▌), the
    /// right column (▐) and all (█).
    private static let sextantCharacters: [Character] = (0..<64).map { pattern in
        switch pattern {
        case 0: " "
        case 0b01_0101: "▌"
        case 0b10_1010: "▐"
        case 63: "█"
        default:
            Character(
                Unicode.Scalar(0x1FB00 + pattern - 1 - (pattern > 0b01_0101 ? 1 : 0) - (pattern > 0b10_1010 ? 1 : 0))!)
        }
    }
}
