/// The title's drifting colours (the second seed; DESIGN §4), as a pure function of position and time.
///
/// For n colours the 2n + 1 stops `c0…c(n−1) c0…c(n−1) c0` sit evenly on [0, 1]. The grapheme centred at
/// u across the title takes the colour at `(u + s) / 2`, with `s` the fraction of the current cycle, so
/// the gradient spans twice the title and slides left by one title width per cycle: no seam.
public struct TitleGradient: Sendable, Equatable {
    /// The colours, at least one: an empty list falls back to the defaults (no colour to index is a crash).
    public var colors: [RGB] {
        didSet { if colors.isEmpty { colors = TitleGradient.defaultColors } }
    }
    /// Seconds for one full cycle, above 0: anything else falls back to 4 (the shift divides by it).
    public var cycle: Double {
        didSet { if !(cycle > 0 && cycle.isFinite) { cycle = 4 } }
    }

    /// The default colours: pink, orange, yellow, mint, cyan, purple.
    public static let defaultColors: [RGB] = ["pink", "orange", "yellow", "mint", "cyan", "purple"]
        .map { name in RGB.named.first { $0.name == name }!.color }

    /// Creates a gradient; an empty list falls back to the defaults.
    public init(colors: [RGB] = TitleGradient.defaultColors, cycle: Double = 4) {
        self.colors = colors.isEmpty ? TitleGradient.defaultColors : colors
        self.cycle = cycle > 0 && cycle.isFinite ? cycle : 4
    }

    /// How far through its cycle the drift is at `time` seconds: s ∈ [0, 1), or 0 when `still`.
    public func shift(at time: Double, still: Bool) -> Double {
        guard !still else { return 0 }
        let phase = time.truncatingRemainder(dividingBy: cycle) / cycle
        return phase < 0 ? phase + 1 : phase
    }

    /// The colour of a grapheme centred at `u` ∈ [0, 1] across the title, with the drift at `shift`.
    public func color(at u: Double, shift: Double) -> RGB {
        let n = colors.count
        let position = min(1, max(0, (u + shift) / 2)) * Double(2 * n)
        let stop = min(Int(position), 2 * n - 1)
        let fraction = position - Double(stop)
        return colors[stop % n].mixed(with: colors[(stop + 1) % n], fraction)
    }
}
