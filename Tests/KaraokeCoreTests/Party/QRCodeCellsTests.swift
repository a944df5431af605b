import Testing
@testable import KaraokeCore

/// A symbol `width` modules wide whose module (x, y) is dark when `dark(x, y)`.
private func symbol(_ width: Int, _ dark: (Int, Int) -> Bool) -> QRModules {
    QRModules(width: width, dark: (0..<width * width).map { dark($0 % width, $0 / width) })
}

/// Whether the top and bottom halves of a drawn cell are dark, read from its glyph alone.
private func halves(_ glyph: String) -> (top: Bool, bottom: Bool)? {
    switch glyph {
    case "\u{2588}": (true, true)
    case "\u{2580}": (true, false)
    case "\u{2584}": (false, true)
    case " ": (false, false)
    default: nil
    }
}

/// The modules drawn by `rows` (quiet zone included), read back from the glyphs: nil for a glyph that is no
/// half block, or a row whose cells are not one a column from `column`.
private func modules(of rows: [FrameRow], column: Int) -> [[Bool]]? {
    var result: [[Bool]] = []
    for row in rows {
        var top: [Bool] = [], bottom: [Bool] = []
        for (offset, cell) in row.cells.enumerated() {
            guard cell.column == column + offset, cell.width == 1, let pair = halves(cell.glyph) else { return nil }
            top.append(pair.top)
            bottom.append(pair.bottom)
        }
        result += [top, bottom]
    }
    return result
}

/// A pattern with no symmetry, so a flip or a shift of one module shows.
private func scattered(_ x: Int, _ y: Int) -> Bool { (x * 7 + y * 3 + x * y) % 5 < 2 }

@Suite("A QR code drawn in cells")
struct QRCodeCellsTests {
    @Test("a single dark module sits inside four light modules on every side")
    func quietZone() throws {
        let cells = QRCodeCells(symbol(1) { _, _ in true })
        #expect(cells.columns == 9)
        #expect(cells.rowCount == 5)
        let rows = cells.rows(from: 0)
        let drawn = try #require(modules(of: rows, column: 0))
        // Nine modules down, drawn in five rows: the tenth half is one more light module.
        #expect(drawn.count == 10)
        for (y, line) in drawn.enumerated() {
            for (x, dark) in line.enumerated() { #expect(dark == (x == 4 && y == 4), "(\(x), \(y))") }
        }
        // Module row 4 is the upper half of cell row 2.
        #expect(rows[2].cells[4].glyph == "\u{2580}")
    }

    @Test(
        "each cell's glyph inks exactly its dark halves",
        arguments: [
            (top: true, bottom: true, glyph: "\u{2588}"), // both: a full block
            (top: true, bottom: false, glyph: "\u{2580}"), // the upper: ▀
            (top: false, bottom: true, glyph: "\u{2584}"), // the lower: ▄
            (top: false, bottom: false, glyph: " "), // neither: the paper alone
        ])
    func halfBlockPairing(top: Bool, bottom: Bool, glyph: String) throws {
        // One column, two modules: one cell, no quiet zone.
        let modules = QRModules(width: 2, dark: [top, false, bottom, false])
        let rows = QRCodeCells(modules, quietZone: 0).rows(from: 0)
        try #require(rows.count == 1)
        #expect(rows[0].cells.map(\.glyph) == [glyph, " "])
        #expect(String(QRCodeCells.glyph(top: top, bottom: bottom)) == glyph)
    }

    @Test(
        "the cells give back every module, odd and even widths, standard and narrow quiet zones",
        arguments: [1, 2, 5, 6, 21, 29], [0, 2, 4])
    func roundTrip(width: Int, quietZone: Int) throws {
        let symbol = symbol(width, scattered)
        let cells = QRCodeCells(symbol, quietZone: quietZone)
        let side = width + 2 * quietZone
        #expect(cells.columns == side)
        #expect(cells.rowCount == (side + 1) / 2)
        let drawn = try #require(modules(of: cells.rows(from: 3), column: 3))
        #expect(drawn.count == 2 * cells.rowCount)
        for (y, line) in drawn.enumerated() {
            try #require(line.count == side)
            for (x, dark) in line.enumerated() {
                #expect(dark == symbol[x - quietZone, y - quietZone], "(\(x), \(y))")
            }
        }
        // An odd side leaves the last row's lower half light, below the quiet zone.
        if side % 2 == 1 { #expect(drawn.last!.allSatisfy { !$0 }) }
    }

    @Test("every cell is dark ink on white paper, in rows and cells of the code's own kind")
    func colours() {
        let rows = QRCodeCells(symbol(21, scattered)).rows(from: 10)
        #expect(rows.count == 15)
        for row in rows {
            #expect(row.kind == .code)
            #expect(row.cells.count == 29)
            #expect(row.cells.first?.column == 10)
            for cell in row.cells {
                #expect(cell.role == .code)
                #expect(cell.color == QRCodeCells.dark)
                #expect(cell.background == QRCodeCells.light)
            }
        }
    }

    @Test(
        "the ink and paper are set at every depth with colour, and only the shapes change without",
        arguments: [
            // exact in direct colour, dark not pure black (setaf would send 0 as the theme's colour)
            (depth: ColorDepth.direct, ink: 0x080808, paper: 0xFF_FFFF),
            // the gray ramp's first and the cube's last entry: neither is a theme's colour
            (depth: .indexed256, ink: 232, paper: 231),
            // the theme's black and white
            (depth: .basic, ink: 0, paper: 7),
        ])
    func styles(depth: ColorDepth, ink: Int, paper: Int) {
        for cell in QRCodeCells(symbol(5, scattered)).rows(from: 0).flatMap(\.cells) {
            let style = TerminalStyle.of(cell, depth: depth)
            #expect(style.colorNumber == ink)
            #expect(style.backgroundNumber == paper)
            #expect(TerminalStyle.glyph(of: cell, depth: depth) == cell.glyph)
        }
    }

    @Test("without colour each cell shows its complement, so the terminal's light ink draws the light modules")
    func colourless() throws {
        let cells = QRCodeCells(symbol(21, scattered))
        let rows = cells.rows(from: 0)
        for row in rows {
            let screen = ScreenRow(row, width: 29, depth: .none)
            for (x, column) in screen.columns.enumerated() {
                guard case .glyph(let glyph, 1, let style) = column else {
                    Issue.record("column \(x) is \(column)")
                    continue
                }
                #expect(style == TerminalStyle(rgb: nil, paletteIndex: nil, weight: .normal))
                let shown = try #require(halves(glyph)), drawn = try #require(halves(row.cells[x].glyph))
                #expect(shown.top == !drawn.top && shown.bottom == !drawn.bottom)
            }
        }
        // The same in `render --format ansi`: the light quiet zone's first row is full blocks there, spaces on
        // white paper with colour.
        let frame = Frame(time: 0, columns: 29, rows: rows)
        let blocks = String(repeating: "\u{2588}", count: 29), spaces = String(repeating: " ", count: 29)
        #expect(frame.ansiRendering(depth: .none).hasPrefix("\u{1B}[0m" + blocks + "\u{1B}[0m\n"))
        #expect(frame.ansiRendering(depth: .direct).hasPrefix("\u{1B}[0;38;2;8;8;8;48;2;255;255;255m" + spaces))
    }

    @Test("the complement swaps the full block with a space and the two half blocks, and leaves other text")
    func complement() {
        for glyph in ["\u{2588}", "\u{2580}", "\u{2584}", " "] {
            #expect(QRCodeCells.complement(of: QRCodeCells.complement(of: glyph)) == glyph)
            #expect(QRCodeCells.complement(of: glyph) != glyph)
        }
        #expect(QRCodeCells.complement(of: "a") == "a")
    }

    @Test(
        "a code takes the standard quiet zone where it fits, else the narrow one, else none fits",
        arguments: [
            // version 3, the party's address: 37 × 19 cells
            (version: 3, columns: 80, rows: 23, quietZone: 4 as Int?),
            // version 5 in 22 rows: 45 × 23 with four modules, 41 × 21 with two
            (version: 5, columns: 80, rows: 22, quietZone: 2),
            // the width decides too
            (version: 3, columns: 36, rows: 23, quietZone: 2),
            // version 10 is 57 modules: 31 rows even with two
            (version: 10, columns: 80, rows: 23, quietZone: nil),
        ])
    func fitting(version: Int, columns: Int, rows: Int, quietZone: Int?) {
        let width = QRModules.width(ofVersion: version)
        let cells = QRCodeCells.fitting(symbol(width, scattered), columns: columns, rows: rows)
        #expect(cells?.quietZone == quietZone)
        if let cells {
            #expect(cells.columns <= columns && cells.rowCount <= rows)
        }
    }

    @Test(
        "a symbol's version follows from its width, and a width no version has has none",
        arguments: [(21, 1 as Int?), (29, 3), (37, 5), (177, 40), (22, nil), (17, nil), (181, nil)])
    func version(width: Int, version: Int?) {
        #expect(symbol(width) { _, _ in false }.version == version)
    }
}
