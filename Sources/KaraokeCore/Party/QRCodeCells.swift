/// A QR code drawn in terminal cells, two modules to a cell with half blocks, dark on white (DESIGN §22.1).
///
/// A cell is one module wide and two tall: on a terminal whose cells are about twice as tall as wide the
/// modules come out square. The glyph's ink is the dark modules (`█` both, `▀` the upper, `▄` the lower, a
/// space neither), and every cell sets both colours, `QRCodeCells.dark` ink on `QRCodeCells.light` paper, so
/// that a terminal with a dark theme still shows dark modules on a light ground, which scanners need. Without
/// colour the painter shows each cell's complement instead (`TerminalStyle.glyph(of:depth:)`).
public struct QRCodeCells: Sendable, Equatable {
    /// The ink of dark modules: the gray ramp's darkest entry (palette 232), sent exactly at 256 colours and in
    /// direct colour. Not pure black, which direct colour's `setaf` sends as ANSI colour 0, a theme's colour.
    public static let dark = RGB(hex: 0x080808)
    /// The paper of light modules: white, the 6×6×6 cube's last entry (palette 231), exact at both depths.
    public static let light = RGB(hex: 0xFFFFFF)
    /// The quiet zone the QR standard asks for around the symbol, in modules.
    public static let standardQuietZone = 4
    /// The narrower quiet zone used when the standard one does not fit: zbarimg reads a code with two light
    /// modules around it (tested), though the standard asks for four.
    public static let narrowQuietZone = 2

    /// The symbol drawn.
    public let modules: QRModules
    /// Light modules on each side of the symbol.
    public let quietZone: Int

    /// `modules` with `quietZone` light modules on every side.
    public init(_ modules: QRModules, quietZone: Int = QRCodeCells.standardQuietZone) {
        self.modules = modules
        self.quietZone = max(0, quietZone)
    }

    /// `modules` in the widest quiet zone, standard or narrow, that fits `columns` × `rows` cells; nil when
    /// even the narrow one does not fit.
    public static func fitting(_ modules: QRModules, columns: Int, rows: Int) -> QRCodeCells? {
        for quietZone in [standardQuietZone, narrowQuietZone] {
            let cells = QRCodeCells(modules, quietZone: quietZone)
            if cells.columns <= columns && cells.rowCount <= rows { return cells }
        }
        return nil
    }

    /// Columns the drawing takes: one a module, quiet zone included.
    public var columns: Int { modules.width + 2 * quietZone }

    /// Rows the drawing takes: two modules a row, rounded up. The symbol and its quiet zone are an odd number
    /// of modules tall whenever the symbol is a QR code, so the last row's lower half is one more light module.
    public var rowCount: Int { (columns + 1) / 2 }

    /// Whether the module at (`x`, `y`) of the drawing, quiet zone included, is dark.
    public func isDark(x: Int, y: Int) -> Bool { modules[x - quietZone, y - quietZone] }

    /// The drawing as `rowCount` rows of `columns` cells each, the first cell at `column`.
    public func rows(from column: Int) -> [FrameRow] {
        (0..<rowCount).map { row in
            FrameRow(
                kind: .code,
                cells: (0..<columns).map { x in
                    let glyph = QRCodeCells.glyph(top: isDark(x: x, y: 2 * row), bottom: isDark(x: x, y: 2 * row + 1))
                    return FrameCell(
                        column: column + x, grapheme: glyph, glyph: String(glyph), width: 1, role: .code, fill: 1,
                        color: QRCodeCells.dark, background: QRCodeCells.light)
                })
        }
    }

    /// The half block whose ink covers the dark halves of a cell: `█`, `▀`, `▄` or a space.
    public static func glyph(top: Bool, bottom: Bool) -> Character {
        switch (top, bottom) {
        case (true, true): "\u{2588}"
        case (true, false): "\u{2580}"
        case (false, true): "\u{2584}"
        case (false, false): " "
        }
    }

    /// The glyph whose ink covers the other halves of the cell: what a terminal without colour shows, where
    /// the ink is the terminal's own (light on the dark themes most terminals have) and must draw the light
    /// modules.
    public static func complement(of glyph: String) -> String {
        switch glyph {
        case "\u{2588}": " "
        case "\u{2580}": "\u{2584}"
        case "\u{2584}": "\u{2580}"
        case " ": "\u{2588}"
        default: glyph
        }
    }
}
