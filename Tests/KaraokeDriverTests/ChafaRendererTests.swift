import KaraokeCore
import KaraokeDriver
import Testing

/// Whether libchafa loads here, as karaoke loads it (`make deps` installs libchafa0).
private let chafaLoads = (try? ChafaRenderer()) != nil

/// A picture whose pixel at (x, y) has colour-table entry `index(x, y)`, over `colors`.
private func picture(_ colors: [RGB], _ index: (Int, Int) -> Int) -> CDGPicture {
    var indices = [UInt8](repeating: 0, count: CDGPicture.width * CDGPicture.height)
    for y in 0..<CDGPicture.height {
        for x in 0..<CDGPicture.width { indices[y * CDGPicture.width + x] = UInt8(index(x, y)) }
    }
    return CDGPicture(indices: indices, colors: colors + Array(repeating: RGB(0, 0, 0), count: 16 - colors.count))
}

/// The colours a cell shows in its top and bottom halves, nil for a glyph that does not split that way.
private func halves(_ cell: PictureCells.Cell) -> (top: RGB, bottom: RGB)? {
    switch cell.glyph {
    case " ": (cell.background, cell.background)
    case "\u{2588}": (cell.foreground, cell.foreground) // █
    case "\u{2580}": (cell.foreground, cell.background) // ▀
    case "\u{2584}": (cell.background, cell.foreground) // ▄
    default: nil
    }
}

private let red = RGB(hex: 0xFF0000)
private let blue = RGB(hex: 0x0000FF)

@Suite(
    "libchafa draws a CD+G picture in block cells",
    .enabled(if: chafaLoads, "needs libchafa0 (make deps)"))
struct ChafaRendererTests {
    @Test("two solid halves in true colour give cells of exactly each side's colour")
    func solidHalves() throws {
        let renderer = try ChafaRenderer()
        // 300 pixels over 20 columns: the halves meet at a cell's edge.
        let cells = renderer.cells(
            for: picture([red, blue]) { x, _ in x < 150 ? 0 : 1 }, columns: 20, rows: 6, depth: .direct)
        for row in 0..<6 {
            for column in 0..<20 {
                let cell = cells[column, row], side = column < 10 ? red : blue
                #expect(
                    cell.foreground == side && cell.background == side,
                    "(\(column), \(row)): \(cell.glyph) \(cell.foreground) on \(cell.background)")
            }
        }
    }

    @Test("a stripe over the lower half of a row gives that row a half block of both colours")
    func stripeGivesHalfBlocks() throws {
        let renderer = try ChafaRenderer()
        let yellow = RGB(hex: 0xFFFF55), green = RGB(hex: 0x00AA00)
        // Six rows of 36 pixels: row 2 is pixels 72…107, its lower half 90…107.
        let cells = renderer.cells(
            for: picture([yellow, green]) { _, y in (90..<108).contains(y) ? 1 : 0 }, columns: 12, rows: 6,
            depth: .direct)
        for column in 0..<12 {
            let cell = cells[column, 2]
            #expect(["\u{2580}", "\u{2584}"].contains(cell.glyph), "(\(column), 2): \(cell.glyph)")
            let shown = try #require(halves(cell))
            #expect(shown.top == yellow && shown.bottom == green, "(\(column), 2): \(shown)")
            for row in [0, 1, 3, 4, 5] {
                #expect(halves(cells[column, row]).map { $0.top == yellow && $0.bottom == yellow } == true)
            }
        }
    }

    /// A picture of 6×12 tiles of all 16 colours of a table of 12-bit colours, as a CD+G song draws.
    static let tiles: CDGPicture = {
        var seed: UInt32 = 2_024
        func next() -> UInt32 {
            seed = seed &* 1_103_515_245 &+ 12_345
            return seed >> 16
        }
        let colors = (0..<16).map { _ in
            RGB(UInt8(next() % 16 * 17), UInt8(next() % 16 * 17), UInt8(next() % 16 * 17))
        }
        let tileColors = (0..<(50 * 18)).map { _ in Int(next() % 16) }
        return picture(colors) { x, y in tileColors[y / 12 * 50 + x / 6] }
    }()

    @Test(
        "below direct colour every colour is a palette entry 16…255 as the painter finds it again",
        arguments: [ColorDepth.indexed256, .basic, .none])
    func paletteColors(depth: ColorDepth) throws {
        let renderer = try ChafaRenderer()
        let cells = renderer.cells(for: Self.tiles, columns: 78, rows: 28, depth: depth)
        var seen = Set<Int>()
        for cell in cells.cells {
            for color in [cell.foreground, cell.background] {
                let index = ColorDepth.paletteIndex(color)
                #expect((16...255).contains(index) && ColorDepth.paletteColor(index) == color, "\(color)")
                seen.insert(index)
            }
        }
        #expect(seen.count > 8, "many entries are used: \(seen.sorted())")
    }

    @Test(
        "the cells are exactly columns × rows, each a space or a block element",
        arguments: [ColorDepth.direct, .indexed256])
    func onlyBlockElements(depth: ColorDepth) throws {
        let renderer = try ChafaRenderer()
        let cells = renderer.cells(for: Self.tiles, columns: 37, rows: 11, depth: depth)
        #expect(cells.columns == 37 && cells.rows == 11 && cells.cells.count == 37 * 11)
        for cell in cells.cells {
            #expect(cell.glyph == " " || (0x2580...0x259F).contains(cell.glyph.value), "U+\(cell.glyph.value)")
        }
        #expect(cells.cells.contains { $0.glyph != " " }, "the tiles need more than spaces")
    }

    @Test("sextants are drawn only when allowed")
    func sextantsWhenAllowed() throws {
        let renderer = try ChafaRenderer(allowsSextants: true)
        let cells = renderer.cells(for: Self.tiles, columns: 37, rows: 11, depth: .direct)
        let isSextant = { (glyph: Unicode.Scalar) in (0x1FB00...0x1FB3B).contains(glyph.value) }
        #expect(cells.cells.contains { isSextant($0.glyph) }, "the random tiles take a sextant")
        for cell in cells.cells {
            #expect(cell.glyph == " " || (0x2580...0x259F).contains(cell.glyph.value) || isSextant(cell.glyph))
        }
    }

    @Test("one renderer draws two sizes and two depths in turn, each right")
    func sizesInTurn() throws {
        let renderer = try ChafaRenderer()
        let halvesPicture = picture([red, blue]) { x, _ in x < 150 ? 0 : 1 }
        for (columns, rows, depth) in [
            (20, 6, ColorDepth.direct), (8, 3, .direct), (20, 6, .indexed256), (20, 6, .direct),
        ] {
            let cells = renderer.cells(for: halvesPicture, columns: columns, rows: rows, depth: depth)
            #expect(cells.columns == columns && cells.rows == rows && cells.cells.count == columns * rows)
            // Red and blue are both palette entries (196 and 21): the same colours in 256.
            #expect(cells[0, 0].background == red && cells[columns - 1, rows - 1].background == blue)
            #expect(cells[columns / 2 - 1, 0].foreground == red && cells[columns / 2, rows - 1].foreground == blue)
        }
        #expect(renderer.cells(for: halvesPicture, columns: 0, rows: 4, depth: .direct).cells.isEmpty)
    }

    @Test(
        "a part drawn again over a changed picture gives the cells a whole drawing gives",
        arguments: [ColorDepth.direct, .indexed256])
    func partsEqualWhole(depth: ColorDepth) throws {
        let renderer = try ChafaRenderer()
        var seed: UInt32 = 77
        func next(_ bound: Int) -> Int {
            seed = seed &* 1_103_515_245 &+ 12_345
            return Int(seed >> 16) % bound
        }
        let before = renderer.cells(for: Self.tiles, columns: 78, rows: 28, depth: depth)
        for _ in 0..<12 {
            // A changed rectangle of the picture: its cells drawn again over the old ones.
            let area = CDGArea(x: next(290), y: next(200), width: 1 + next(60), height: 1 + next(40))
            var changed = Self.tiles
            for y in area.y..<min(216, area.y + area.height) {
                for x in area.x..<min(300, area.x + area.width) { changed.indices[y * 300 + x] = UInt8(next(16)) }
            }
            var cells = before
            let part = PictureCells.cells(covering: area, columns: 78, rows: 28)
            renderer.draw(changed, into: &cells, columns: part.columns, rows: part.rows, depth: depth)
            #expect(cells == renderer.cells(for: changed, columns: 78, rows: 28, depth: depth), "\(area)")
        }
    }
}
