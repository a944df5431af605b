/// The colours text is blended from: the lyric ink, the background it fades into, and the quiet parts.
public struct Theme: Sendable, Equatable {
    /// Fully sung lyrics.
    public var foreground: RGB
    /// What the terminal's background is taken to be; unsung text is blended towards it.
    public var background: RGB
    /// The status bar.
    public var status: RGB

    /// Light text on a dark terminal.
    public static let dark = Theme(
        foreground: RGB(hex: 0xFFFFFF), background: RGB(hex: 0x000000),
        status: RGB(hex: 0x8E8E93))
    /// Dark text on a light terminal.
    public static let light = Theme(
        foreground: RGB(hex: 0x000000), background: RGB(hex: 0xFFFFFF),
        status: RGB(hex: 0x6C6C70))

    /// The ink of a duet voice: the first part in the plain foreground, the others and everyone
    /// together in tints that stay readable on this theme's background.
    public func ink(for voice: Voice) -> RGB {
        let dark = background.red < 128
        switch voice {
        case .part(let n):
            let tints: [RGB] =
                dark
                ? [foreground, RGB(hex: 0x7FD3FF), RGB(hex: 0xFFA8C8), RGB(hex: 0xB8F2A0)]
                : [foreground, RGB(hex: 0x0B5FA5), RGB(hex: 0xA3124F), RGB(hex: 0x2F6B1F)]
            return tints[n % tints.count]
        case .together:
            return dark ? RGB(hex: 0xFFE08A) : RGB(hex: 0x7A5600)
        }
    }

    /// Golden notes in the note lanes: a warm gold on a dark background, a deep amber on a light one, both
    /// readable on their background (DESIGN §15.3).
    public var gold: RGB { background.red < 128 ? RGB(hex: 0xFFC83D) : RGB(hex: 0x9A6700) }

    /// The lyric colour at `brightness` (DESIGN §3.3: the text colour at that opacity over the background).
    @inlinable
    public func lyric(brightness: Double) -> RGB { background.mixed(with: foreground, brightness) }

    /// The theme for `choice`; `auto` reads the background from `COLORFGBG` (`fg;bg`, as rxvt and
    /// Konsole set it): 7 or 15 is a light background, anything else or nothing is dark.
    public static func resolve(_ choice: ThemeChoice, colorFGBG: String?) -> Theme {
        switch choice {
        case .dark: return .dark
        case .light: return .light
        case .auto:
            guard let value = colorFGBG, let background = value.split(separator: ";").last.flatMap({ Int($0) })
            else { return .dark }
            return background == 7 || background == 15 ? .light : .dark
        }
    }
}
