/// How many colours a terminal shows, and how a frame's exact colours map onto them (DESIGN §4).
public enum ColorDepth: String, Sendable, Equatable {
    /// 24-bit colour: exact blends.
    case direct
    /// The xterm 256-colour palette: the 6×6×6 cube and the gray ramp.
    case indexed256
    /// 8 or 16 colours: dim, normal and bold stand for brightness.
    case basic
    /// No colour (`--color never`, `NO_COLOR`, a mono terminal): normal for unsung, bold for sung.
    case none

    /// The nearest xterm-256 palette index to `color`, from the cube (16…231) or the gray ramp (232…255).
    public static func paletteIndex(_ color: RGB) -> Int {
        // The cube's levels are 0, 95, 135, 175, 215, 255; a value goes to the nearest, a tie to the lower.
        // Comparisons rather than a table: this runs for every changed cell of every frame.
        func nearestLevel(_ value: UInt8) -> Int {
            switch value {
            case ...47: 0
            case ...115: 1
            case ...155: 2
            case ...195: 3
            case ...235: 4
            default: 5
            }
        }
        func level(_ index: Int) -> UInt8 { index == 0 ? 0 : UInt8(55 + 40 * index) }
        let r = nearestLevel(color.red), g = nearestLevel(color.green), b = nearestLevel(color.blue)
        let cube = RGB(level(r), level(g), level(b))
        // The gray nearest by `distance` is the nearest ramp step to the channels' mean weighted as
        // `distance` weighs them (the distance to a gray L is 9 (L − mean)² + a constant); a plain
        // mean picks a worse step for tinted colours.
        let mean = Double(3 * Int(color.red) + 4 * Int(color.green) + 2 * Int(color.blue)) / 9
        let grayStep = min(23, max(0, Int(((mean - 8) / 10).rounded())))
        let grayLevel = UInt8(8 + 10 * grayStep)
        let gray = RGB(grayLevel, grayLevel, grayLevel)
        return distance(color, gray) < distance(color, cube) ? 232 + grayStep : 16 + 36 * r + 6 * g + b
    }

    /// The colour a palette index shows (the cube and gray ramp; the 16 system colours as xterm's).
    public static func paletteColor(_ index: Int) -> RGB {
        switch index {
        case 232...255:
            let level = UInt8(8 + 10 * (index - 232))
            return RGB(level, level, level)
        case 16...231:
            let levels: [UInt8] = [0, 95, 135, 175, 215, 255]
            let n = index - 16
            return RGB(levels[n / 36], levels[n / 6 % 6], levels[n % 6])
        default:
            return RGB(hex: 0xC0C0C0)
        }
    }

    /// The nearest of the six ANSI hues (red 1 … cyan 6) or white (7), for the title on an 8-colour terminal.
    public static func basicIndex(_ color: RGB) -> Int {
        let ansi: [(Int, RGB)] = [
            (1, RGB(hex: 0xCD0000)), (2, RGB(hex: 0x00CD00)), (3, RGB(hex: 0xCDCD00)),
            (4, RGB(hex: 0x0000EE)), (5, RGB(hex: 0xCD00CD)), (6, RGB(hex: 0x00CDCD)),
            (7, RGB(hex: 0xE5E5E5)),
        ]
        return ansi.min { distance(color, $0.1) < distance(color, $1.1) }!.0
    }

    /// The ANSI hue (red 1 … magenta 5, cyan 6) nearest `color`'s hue, or nil for a gray, so a dimmed or pale
    /// ink keeps its hue on an 8-colour terminal where `basicIndex` would round it to white (DESIGN §15.3).
    public static func basicHueIndex(_ color: RGB) -> Int? {
        let r = Double(color.red), g = Double(color.green), b = Double(color.blue)
        let high = max(r, g, b), low = min(r, g, b), spread = high - low
        guard spread >= 40 else { return nil }
        var sector: Double // the hue in sixths of a turn: 0 red, 1 yellow, 2 green, 3 cyan, 4 blue, 5 magenta
        if high == r {
            sector = (g - b) / spread
        } else if high == g {
            sector = 2 + (b - r) / spread
        } else {
            sector = 4 + (r - g) / spread
        }
        if sector < 0 { sector += 6 }
        let ansi = [1, 3, 2, 6, 4, 5]
        return ansi[Int(sector.rounded()) % 6]
    }

    /// Squared distance between two colours, weighted roughly as the eye weighs the channels.
    static func distance(_ a: RGB, _ b: RGB) -> Int {
        let dr = Int(a.red) - Int(b.red), dg = Int(a.green) - Int(b.green), db = Int(a.blue) - Int(b.blue)
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }
}

/// The style a cell gets on a terminal of some depth: a colour or none, and an attribute.
public struct TerminalStyle: Sendable, Equatable, Hashable {
    /// The weight that stands for brightness where colours cannot.
    public enum Weight: Sendable, Equatable, Hashable {
        case dim, normal, bold
    }

    /// The 24-bit colour (direct) or nil.
    public var rgb: RGB?
    /// The palette index (256 colours, or 0–7 on a basic terminal) or nil.
    public var paletteIndex: Int?
    /// The attribute.
    public var weight: Weight

    /// The colour number the terminal's `setaf` takes for this style, nil for the default colour.
    ///
    /// In direct colour it is `0xRRGGBB`, except that 1…7 still mean the ANSI colours there, so a near-black
    /// that lands on them is nudged to 8.
    public var colorNumber: Int? {
        if let rgb {
            let value = Int(rgb.hexValue)
            return value > 0 && value < 8 ? 8 : value
        }
        return paletteIndex
    }

    /// The style for `cell` at `depth`.
    public static func of(_ cell: FrameCell, depth: ColorDepth) -> TerminalStyle {
        switch depth {
        case .direct:
            return TerminalStyle(rgb: cell.color, paletteIndex: nil, weight: cell.role == .title ? .bold : .normal)
        case .indexed256:
            return TerminalStyle(
                rgb: nil, paletteIndex: ColorDepth.paletteIndex(cell.color),
                weight: cell.role == .title ? .bold : .normal)
        case .basic:
            switch cell.role {
            case .lyric, .countIn:
                return TerminalStyle(
                    rgb: nil, paletteIndex: nil,
                    weight: cell.fill >= 1
                        ? .bold
                        : cell.fill > 0 ? .normal : .dim)
            case .lanes:
                // Hit bars bold, unsung ones dim, the trail normal; gold and duet inks keep their hue.
                return TerminalStyle(
                    rgb: nil, paletteIndex: cell.accent.flatMap(ColorDepth.basicHueIndex),
                    weight: cell.fill >= 1 ? .bold : cell.fill > 0 ? .normal : .dim)
            case .translation, .status: return TerminalStyle(rgb: nil, paletteIndex: nil, weight: .dim)
            case .title: return TerminalStyle(rgb: nil, paletteIndex: ColorDepth.basicIndex(cell.color), weight: .bold)
            case .notice, .blank: return TerminalStyle(rgb: nil, paletteIndex: nil, weight: .bold)
            }
        case .none:
            switch cell.role {
            case .lyric, .countIn, .lanes:
                return TerminalStyle(rgb: nil, paletteIndex: nil, weight: cell.fill >= 0.5 ? .bold : .normal)
            case .title, .notice: return TerminalStyle(rgb: nil, paletteIndex: nil, weight: .bold)
            case .translation, .status, .blank: return TerminalStyle(rgb: nil, paletteIndex: nil, weight: .normal)
            }
        }
    }
}
