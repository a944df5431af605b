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

    /// The depth of a terminal whose terminfo entry has `count` colours (`colors`, -1 or 0 for none), as
    /// `play` takes it: 2^24 and more direct, 256 and more the palette, 8 and more basic.
    public init(colorCount count: Int) {
        self = count >= 0x1000000 ? .direct : count >= 256 ? .indexed256 : count >= 8 ? .basic : .none
    }

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
        (1...7).min { distance(color, basicColors[$0]) < distance(color, basicColors[$1]) }!
    }

    /// The eight ANSI colours as xterm shows them, by index.
    static let basicColors = [
        RGB(hex: 0x000000), RGB(hex: 0xCD0000), RGB(hex: 0x00CD00), RGB(hex: 0xCDCD00),
        RGB(hex: 0x0000EE), RGB(hex: 0xCD00CD), RGB(hex: 0x00CDCD), RGB(hex: 0xE5E5E5),
    ]

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
    /// The cell's background as a 24-bit colour (direct), nil for the terminal's own.
    public var backgroundRGB: RGB? = nil
    /// The cell's background as a palette index (256 colours, or 0–7 on a basic terminal), nil for the
    /// terminal's own. Only picture cells have a background (DESIGN §19.7).
    public var backgroundIndex: Int? = nil

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

    /// The colour number the terminal's `setab` takes for the background, nil for the default one; the
    /// same numbering as `colorNumber`.
    public var backgroundNumber: Int? {
        if let backgroundRGB {
            let value = Int(backgroundRGB.hexValue)
            return value > 0 && value < 8 ? 8 : value
        }
        return backgroundIndex
    }

    /// The pen that draws this style on a terminal of `depth`.
    func pen(depth: ColorDepth) -> TerminalCodes.Pen {
        depth == .none
            ? TerminalCodes.Pen(weight: weight, color: nil)
            : TerminalCodes.Pen(weight: weight, color: colorNumber, background: backgroundNumber)
    }

    /// The style for `cell` at `depth`.
    public static func of(_ cell: FrameCell, depth: ColorDepth) -> TerminalStyle {
        // A QR code's dark ink and white paper are colours like a picture's, and reduced the same way.
        if cell.role == .picture || cell.role == .code { return picture(cell, depth: depth) }
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
            case .notice, .blank, .picture, .code: return TerminalStyle(rgb: nil, paletteIndex: nil, weight: .bold)
            }
        case .none:
            switch cell.role {
            case .lyric, .countIn, .lanes:
                return TerminalStyle(rgb: nil, paletteIndex: nil, weight: cell.fill >= 0.5 ? .bold : .normal)
            case .title, .notice: return TerminalStyle(rgb: nil, paletteIndex: nil, weight: .bold)
            case .translation, .status, .blank, .picture, .code:
                return TerminalStyle(rgb: nil, paletteIndex: nil, weight: .normal)
            }
        }
    }

    /// The glyph a terminal of `depth` draws for `cell`: its own, except a QR code cell's without colour.
    ///
    /// Without colour the ink and the ground are the terminal's, light on dark in most themes, so a QR code
    /// cell shows its complement (`QRCodeCells.complement(of:)`): the ink then draws the light modules and the
    /// code still reads dark on light. Reverse video would do the same with the same glyphs, but not every
    /// terminal has it, and ours never uses it. On a light theme the code shows inverted (DESIGN §22.1).
    public static func glyph(of cell: FrameCell, depth: ColorDepth) -> String {
        cell.role == .code && depth == .none ? QRCodeCells.complement(of: cell.glyph) : cell.glyph
    }

    /// A picture cell's ink and background at `depth` (DESIGN §19.7): exact in direct colour, the nearest
    /// palette or basic colour otherwise; without colour only the block shapes are left.
    private static func picture(_ cell: FrameCell, depth: ColorDepth) -> TerminalStyle {
        let background = cell.background ?? cell.color
        switch depth {
        case .direct:
            return TerminalStyle(rgb: cell.color, paletteIndex: nil, weight: .normal, backgroundRGB: background)
        case .indexed256:
            return TerminalStyle(
                rgb: nil, paletteIndex: ColorDepth.paletteIndex(cell.color), weight: .normal,
                backgroundIndex: ColorDepth.paletteIndex(background))
        case .basic:
            // Black counts here: a picture's dark areas are black, not the nearest of the text inks.
            func nearest(_ color: RGB) -> Int {
                let black = ColorDepth.distance(color, RGB(0, 0, 0))
                let ink = ColorDepth.basicIndex(color)
                return black <= ColorDepth.distance(color, ColorDepth.basicColors[ink]) ? 0 : ink
            }
            return TerminalStyle(
                rgb: nil, paletteIndex: nearest(cell.color), weight: .normal, backgroundIndex: nearest(background))
        case .none:
            return TerminalStyle(rgb: nil, paletteIndex: nil, weight: .normal)
        }
    }
}
