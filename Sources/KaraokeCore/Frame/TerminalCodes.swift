import Glibc

/// The escape sequences one terminal takes, read from its terminfo entry, and the cheapest of them for a
/// cursor move or a change of attributes (DESIGN §9).
public struct TerminalCodes: Sendable, Equatable {
    /// The terminfo string capabilities the codes are made of.
    public static let capabilityNames = [
        "cup", "hpa", "cuf", "cuf1", "cub1", "cr", "sgr0", "bold", "dim", "setaf", "setab", "op",
        "csr", "indn", "rin", "smcup", "civis", "clear",
    ]

    /// `cup`: move to a row and column.
    public var cursorAddress: TerminfoTemplate
    /// `hpa`: move to a column of the same row.
    public var columnAddress: TerminfoTemplate?
    /// `cuf`: move right by n columns.
    public var cursorForward: TerminfoTemplate?
    /// `cuf1`: move right by one column.
    public var cursorForwardOne: [UInt8]?
    /// `cub1`: move left by one column.
    public var cursorBackOne: [UInt8]?
    /// `cr`: move to the first column.
    public var carriageReturn: [UInt8]?
    /// `sgr0`: every attribute and colour back to normal.
    public var resetAttributes: [UInt8]
    /// `bold`.
    public var bold: [UInt8]?
    /// `dim` (vt100 has none).
    public var dim: [UInt8]?
    /// `setaf`: the foreground colour.
    public var setForeground: TerminfoTemplate?
    /// `setab`: the background colour (only pictures set one, DESIGN §19.7).
    public var setBackground: TerminfoTemplate?
    /// `op`: the default colours.
    public var defaultColors: [UInt8]?
    /// `csr`: the scrolling region, from a top to a bottom row.
    public var scrollRegion: TerminfoTemplate?
    /// `indn`: scroll the region up by n rows.
    public var scrollUp: TerminfoTemplate?
    /// `rin`: scroll the region down by n rows.
    public var scrollDown: TerminfoTemplate?
    /// Whether writing the last column of the last row scrolls the screen (`am` without `xenl`).
    public var scrollsAtBottomRight: Bool
    /// `smcup`: the alternate screen, which the terminal gives back as it was when the program ends.
    public var enterAlternateScreen: [UInt8]?
    /// `civis`: the cursor hidden.
    public var hideCursor: [UInt8]?
    /// `clear`: the screen cleared and the cursor at the top left.
    public var clearScreen: [UInt8]?

    /// What `play` writes before its first frame, as ncurses writes it when the player takes the terminal
    /// over (DESIGN §26.2): the alternate screen, the cursor hidden, the screen cleared. A recording starts
    /// with it; `ScreenWriter` then starts from the cleared screen.
    public var setUp: [UInt8] { (enterAlternateScreen ?? []) + (hideCursor ?? []) + (clearScreen ?? []) }

    /// The codes of a terminfo entry read through `string` (a capability's NUL-terminated string, nil when
    /// the entry has none) and `flag` (a boolean capability), as ncurses' `tigetstr` and `tigetflag` give them.
    public init?(string: (String) -> UnsafePointer<CChar>?, flag: (String) -> Bool) {
        var strings: [String: [UInt8]] = [:]
        for name in Self.capabilityNames {
            guard let value = string(name) else { continue }
            strings[name] = Array(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: strlen(value)))
        }
        self.init(strings: strings, autoMargins: flag("am"), eatsNewlineGlitch: flag("xenl"))
    }

    /// The codes from terminfo strings by capability name (missing or empty ones absent) and the flags
    /// `am` and `xenl`; nil without `cup` or `sgr0`, which every terminal the painter can drive has.
    public init?(strings: [String: [UInt8]], autoMargins: Bool, eatsNewlineGlitch: Bool) {
        func string(_ name: String) -> [UInt8]? {
            guard let value = strings[name], !value.isEmpty else { return nil }
            return value
        }
        guard let cup = string("cup"), let sgr0 = string("sgr0") else { return nil }
        cursorAddress = TerminfoTemplate(cup)
        columnAddress = string("hpa").map(TerminfoTemplate.init)
        cursorForward = string("cuf").map(TerminfoTemplate.init)
        cursorForwardOne = string("cuf1")
        cursorBackOne = string("cub1")
        carriageReturn = string("cr")
        resetAttributes = sgr0
        bold = string("bold")
        dim = string("dim")
        setForeground = string("setaf").map(TerminfoTemplate.init)
        setBackground = string("setab").map(TerminfoTemplate.init)
        defaultColors = string("op")
        scrollRegion = string("csr").map(TerminfoTemplate.init)
        scrollUp = string("indn").map(TerminfoTemplate.init)
        scrollDown = string("rin").map(TerminfoTemplate.init)
        scrollsAtBottomRight = autoMargins && !eatsNewlineGlitch
        enterAlternateScreen = string("smcup")
        hideCursor = string("civis")
        clearScreen = string("clear")
    }

    /// xterm's codes as Debian's `xterm-256color` entry spells them; with `direct`, its `xterm-direct`
    /// colours (`setaf` takes 0xRRGGBB). For tests and for counting bytes without a terminal.
    public static func xterm(direct: Bool = false) -> TerminalCodes {
        let setaf =
            direct
            ? "\u{1B}[%?%p1%{8}%<%t3%p1%d%e38:2::%p1%{65536}%/%d:%p1%{256}%/%{255}%&%d:%p1%{255}%&%d%;m"
            : "\u{1B}[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m"
        let setab =
            direct
            ? "\u{1B}[%?%p1%{8}%<%t4%p1%d%e48:2::%p1%{65536}%/%d:%p1%{256}%/%{255}%&%d:%p1%{255}%&%d%;m"
            : "\u{1B}[%?%p1%{8}%<%t4%p1%d%e%p1%{16}%<%t10%p1%{8}%-%d%e48;5;%p1%d%;m"
        let strings: [String: String] = [
            "cup": "\u{1B}[%i%p1%d;%p2%dH", "hpa": "\u{1B}[%i%p1%dG", "cuf": "\u{1B}[%p1%dC", "cuf1": "\u{1B}[C",
            "cub1": "\u{8}", "cr": "\r", "sgr0": "\u{1B}(B\u{1B}[m", "bold": "\u{1B}[1m", "dim": "\u{1B}[2m",
            "setaf": setaf, "setab": setab, "op": "\u{1B}[39;49m", "csr": "\u{1B}[%i%p1%d;%p2%dr",
            "indn": "\u{1B}[%p1%dS",
            "rin": "\u{1B}[%p1%dT", "smcup": "\u{1B}[?1049h\u{1B}[22;0;0t", "civis": "\u{1B}[?25l",
            "clear": "\u{1B}[H\u{1B}[2J",
        ]
        return TerminalCodes(strings: strings.mapValues { Array($0.utf8) }, autoMargins: true, eatsNewlineGlitch: true)!
    }

    /// The shortest sequence that moves the cursor from `from` (nil: unknown) to `to`.
    public func move(from: (row: Int, column: Int)?, to: (row: Int, column: Int)) -> [UInt8] {
        var out: [UInt8] = []
        move(from: from, to: to, into: &out)
        return out
    }

    /// Appends the shortest sequence that moves the cursor from `from` (nil: unknown) to `to`.
    ///
    /// Each candidate is written after the best so far and kept only when shorter, so nothing is allocated
    /// beyond `out`'s own growth.
    public func move(from: (row: Int, column: Int)?, to: (row: Int, column: Int), into out: inout [UInt8]) {
        let start = out.count
        cursorAddress.expand(to.row, to.column, into: &out)
        guard let from, from.row == to.row, from.column != to.column else { return }
        func consider(_ write: (inout [UInt8]) -> Void) {
            let candidate = out.count
            write(&out)
            if out.count - candidate < candidate - start {
                out.removeSubrange(start..<candidate)
            } else {
                out.removeSubrange(candidate...)
            }
        }
        if to.column == 0, let carriageReturn { consider { $0 += carriageReturn } }
        if to.column == from.column - 1, let cursorBackOne { consider { $0 += cursorBackOne } }
        if to.column == from.column + 1, let cursorForwardOne { consider { $0 += cursorForwardOne } }
        if to.column > from.column, let cursorForward {
            consider { cursorForward.expand(to.column - from.column, into: &$0) }
        }
        if let columnAddress { consider { columnAddress.expand(to.column, into: &$0) } }
    }

    /// The sequence that moves the rows `top…bottom` by `distance` rows (up when positive, down when
    /// negative), blank rows entering, and sets the scrolling region back to the whole `rows`-row screen;
    /// nil when the terminal cannot. It leaves the cursor at the top left.
    public func scroll(top: Int, bottom: Int, by distance: Int, rows: Int) -> [UInt8]? {
        guard let scrollRegion, distance != 0 else { return nil }
        guard let step = distance > 0 ? scrollUp : scrollDown else { return nil }
        var out: [UInt8] = []
        scrollRegion.expand(top, bottom, into: &out)
        step.expand(abs(distance), into: &out)
        scrollRegion.expand(0, rows - 1, into: &out)
        return out
    }

    /// What the terminal draws the next glyph with: a weight, a colour number and a background number
    /// (nil: the default colours).
    public struct Pen: Sendable, Equatable {
        /// Bold, normal or dim.
        public var weight: TerminalStyle.Weight
        /// The number `setaf` takes, nil for the terminal's default colour.
        public var color: Int?
        /// The number `setab` takes, nil for the terminal's default background.
        public var background: Int?

        /// Creates a pen.
        public init(weight: TerminalStyle.Weight, color: Int?, background: Int? = nil) {
            self.weight = weight
            self.color = color
            self.background = background
        }

        /// The same pen on the terminal's own background: what a space with nothing drawn needs.
        public var withoutBackground: Pen { Pen(weight: weight, color: color) }

        /// Normal weight in the default colour: the terminal after `sgr0`.
        public static let plain = Pen(weight: .normal, color: nil)
    }

    /// The sequence that changes the pen from `from` (nil: unknown) to `to`; empty when they are the same.
    public func change(from: Pen?, to: Pen) -> [UInt8] {
        var out: [UInt8] = []
        change(from: from, to: to, into: &out)
        return out
    }

    /// Appends the sequence that changes the pen from `from` (nil: unknown) to `to`.
    ///
    /// terminfo has no string that only ends bold or dim, so leaving either takes `sgr0` (which also drops
    /// the colours, set again after it); going back to a default colour takes `op`, which resets both.
    public func change(from: Pen?, to: Pen, into out: inout [UInt8]) {
        if from == to { return }
        var now = from ?? .plain
        func dropsDefault() -> Bool {
            (to.color == nil && now.color != nil) || (to.background == nil && now.background != nil)
        }
        if from == nil || (now.weight != to.weight && now.weight != .normal) || (dropsDefault() && defaultColors == nil)
        {
            out += resetAttributes
            now = .plain
        }
        if now.weight != to.weight {
            if to.weight == .bold, let bold { out += bold }
            if to.weight == .dim, let dim { out += dim }
        }
        if dropsDefault(), let defaultColors {
            out += defaultColors
            now.color = nil
            now.background = nil
        }
        if now.color != to.color, let color = to.color { setForeground?.expand(color, into: &out) }
        if now.background != to.background, let background = to.background {
            setBackground?.expand(background, into: &out)
        }
    }
}
