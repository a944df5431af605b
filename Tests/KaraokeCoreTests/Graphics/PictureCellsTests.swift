import Testing

@testable import KaraokeCore

/// A picture of one colour index everywhere, with `colors` as its table (the rest black).
private func solid(_ index: UInt8, colors: [RGB]) -> CDGPicture {
    CDGPicture(
        indices: [UInt8](repeating: index, count: CDGPicture.width * CDGPicture.height),
        colors: colors + [RGB](repeating: RGB(0, 0, 0), count: 16 - colors.count))
}

/// A picture whose pixels take their colour index from `index(x, y)`.
private func picture(colors: [RGB], _ index: (Int, Int) -> UInt8) -> CDGPicture {
    var indices: [UInt8] = []
    for y in 0..<CDGPicture.height { for x in 0..<CDGPicture.width { indices.append(index(x, y)) } }
    return CDGPicture(indices: indices, colors: colors + [RGB](repeating: RGB(0, 0, 0), count: 16 - colors.count))
}

/// A renderer that counts its calls and the cells it draws, through the half-block one.
private final class CountingRenderer: PictureRenderer {
    var calls = 0
    var cellsDrawn = 0
    let inner = HalfBlockRenderer()
    func draw(
        _ picture: CDGPicture, into cells: inout PictureCells, columns: Range<Int>, rows: Range<Int>, depth: ColorDepth
    ) {
        calls += 1
        cellsDrawn += columns.count * rows.count
        inner.draw(picture, into: &cells, columns: columns, rows: rows, depth: depth)
    }
}

private let red = RGB(hex: 0xFF0000), blue = RGB(hex: 0x0000FF), white = RGB(hex: 0xFFFFFF)

@Suite("A CD+G picture in cells")
struct PictureCellsTests {
    @Test(
        "the picture takes the largest size at its aspect on cells twice as tall as wide",
        arguments: [
            (100, 28, 78, 28), (80, 22, 61, 22), (200, 58, 161, 58), (40, 28, 40, 14), (12, 3, 8, 3), (1, 1, 1, 1),
        ])
    func fits(columns: Int, rows: Int, fittedColumns: Int, fittedRows: Int) {
        let fitted = PictureCells.fit(width: 300, height: 216, columns: columns, rows: rows)
        #expect(fitted.columns == fittedColumns && fitted.rows == fittedRows)
    }

    @Test("every fitted size is inside the room and within a cell of the picture's aspect", arguments: 1...40)
    func fitProperty(seed: Int) {
        var generator = SeededGenerator(state: UInt64(seed))
        let columns = Int.random(in: 1...300, using: &generator), rows = Int.random(in: 1...100, using: &generator)
        let fitted = PictureCells.fit(width: 300, height: 216, columns: columns, rows: rows)
        #expect(fitted.columns >= 1 && fitted.columns <= columns && fitted.rows >= 1 && fitted.rows <= rows)
        // Either side fills the room, and the other is the picture's aspect to within a cell.
        #expect(fitted.columns == columns || fitted.rows == rows)
        let aspect = 300.0 / 216.0
        #expect(abs(Double(fitted.columns) - aspect * 2 * Double(fitted.rows)) <= 1.0 + aspect)
    }

    @Test("the cells covering an area are exactly those over one of its pixels", arguments: 1...30)
    func covering(seed: Int) {
        var generator = SeededGenerator(state: UInt64(seed))
        let columns = Int.random(in: 1...400, using: &generator), rows = Int.random(in: 1...300, using: &generator)
        let x = Int.random(in: 0..<300, using: &generator), y = Int.random(in: 0..<216, using: &generator)
        let area = CDGArea(
            x: x, y: y, width: Int.random(in: 1...(300 - x), using: &generator),
            height: Int.random(in: 1...(216 - y), using: &generator))
        let part = PictureCells.cells(covering: area, columns: columns, rows: rows)
        for column in 0..<columns {
            let span = PictureCells.pixelSpan(of: column, count: columns, pixels: 300)
            // A cell narrower than a pixel stands for the pixel it starts on.
            let pixels = span.isEmpty ? span.lowerBound..<(span.lowerBound + 1) : span
            let over = pixels.overlaps(area.x..<(area.x + area.width))
            #expect(!over || part.columns.contains(column), "column \(column) of \(columns)")
            if !span.isEmpty && !over { #expect(!part.columns.contains(column), "column \(column) of \(columns)") }
        }
        for row in 0..<rows {
            let span = PictureCells.pixelSpan(of: row, count: rows, pixels: 216)
            let pixels = span.isEmpty ? span.lowerBound..<(span.lowerBound + 1) : span
            let over = pixels.overlaps(area.y..<(area.y + area.height))
            #expect(!over || part.rows.contains(row), "row \(row) of \(rows)")
            if !span.isEmpty && !over { #expect(!part.rows.contains(row), "row \(row) of \(rows)") }
        }
    }

    @Test("a part drawn again over a changed picture gives the half blocks a whole drawing gives", arguments: 1...10)
    func halfBlockParts(seed: Int) {
        var generator = SeededGenerator(state: UInt64(seed))
        let table = (0..<16).map { _ in RGB(hex: UInt32.random(in: 0...0xFFFFFF, using: &generator)) }
        var picture = CDGPicture(
            indices: (0..<(300 * 216)).map { _ in UInt8.random(in: 0...15, using: &generator) }, colors: table)
        let renderer = HalfBlockRenderer()
        let columns = Int.random(in: 20...160, using: &generator), rows = Int.random(in: 5...60, using: &generator)
        var cells = renderer.cells(for: picture, columns: columns, rows: rows, depth: .indexed256)
        let x = Int.random(in: 0..<300, using: &generator), y = Int.random(in: 0..<216, using: &generator)
        let area = CDGArea(x: x, y: y, width: min(300 - x, 24), height: min(216 - y, 36))
        for py in area.y..<(area.y + area.height) {
            for px in area.x..<(area.x + area.width) {
                picture.indices[py * 300 + px] = UInt8.random(in: 0...15, using: &generator)
            }
        }
        let part = PictureCells.cells(covering: area, columns: columns, rows: rows)
        renderer.draw(picture, into: &cells, columns: part.columns, rows: part.rows, depth: .indexed256)
        #expect(cells == renderer.cells(for: picture, columns: columns, rows: rows, depth: .indexed256))
    }

    @Test("one colour everywhere is spaces on that colour", arguments: [ColorDepth.direct, .indexed256])
    func solidIsSpaces(depth: ColorDepth) {
        let cells = HalfBlockRenderer().cells(for: solid(1, colors: [white, red]), columns: 7, rows: 3, depth: depth)
        #expect(cells.cells.count == 21)
        #expect(cells.cells.allSatisfy { $0.glyph == " " && $0.background == red && $0.foreground == red })
    }

    @Test("a cell whose top half is red and bottom half blue is an upper half block, red on blue")
    func halves() {
        // One row of cells: the picture's top half red, bottom half blue.
        let split = picture(colors: [red, blue]) { _, y in y < 108 ? 0 : 1 }
        let cells = HalfBlockRenderer().cells(for: split, columns: 5, rows: 1, depth: .direct)
        #expect(cells.cells.allSatisfy { $0.glyph == "\u{2580}" && $0.foreground == red && $0.background == blue })
        // Two rows: each row is one colour, so spaces.
        let two = HalfBlockRenderer().cells(for: split, columns: 5, rows: 2, depth: .direct)
        #expect((0..<5).allSatisfy { two[$0, 0].background == red && two[$0, 1].background == blue })
    }

    @Test("a cell over both colours shows their average, each channel rounded")
    func averages() {
        // Left half red, right half blue, drawn in one cell: every half is half and half.
        let split = picture(colors: [red, blue]) { x, _ in x < 150 ? 0 : 1 }
        let cell = HalfBlockRenderer().cells(for: split, columns: 1, rows: 1, depth: .direct)[0, 0]
        #expect(cell.background == RGB(128, 0, 128) && cell.glyph == " ")
    }

    @Test("in 256 colours every colour is one the palette shows exactly", arguments: 1...8)
    func paletteColors(seed: Int) {
        var generator = SeededGenerator(state: UInt64(seed))
        let table = (0..<16).map { _ in RGB(hex: UInt32.random(in: 0...0xFFFFFF, using: &generator)) }
        let noisy = CDGPicture(
            indices: (0..<(300 * 216)).map { _ in UInt8.random(in: 0...15, using: &generator) }, colors: table)
        let cells = HalfBlockRenderer().cells(for: noisy, columns: 31, rows: 9, depth: .indexed256)
        for cell in cells.cells {
            for color in [cell.foreground, cell.background] {
                #expect(ColorDepth.paletteColor(ColorDepth.paletteIndex(color)) == color)
            }
        }
    }
}

@Suite("A CD+G track as the player shows it")
struct CDGTrackTests {
    /// A file: blue everywhere at packet 10, a red tile at packet 310 (1.0333 s), nothing after 400.
    private static func file() -> [UInt8] {
        var writer = CDGWriter()
        writer.nothing(1)
        writer.colorTable(
            high: false, [(0, 0, 0), (15, 0, 0), (0, 0, 15), (15, 15, 15), (0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])
        writer.nothing(8)
        writer.memoryPreset(color: 2)
        writer.nothing(299)
        writer.tile(color0: 1, color1: 1, row: 5, column: 20, rows: [UInt8](repeating: 0x3F, count: 12))
        writer.nothing(89)
        return writer.bytes
    }

    @Test("the next change is the start of the next packet with an instruction, and none after the last")
    func nextChange() {
        let track = CDGTrack(bytes: Self.file(), renderer: HalfBlockRenderer(), depth: .direct)
        #expect(track.nextChange(after: -1) == 1.0 / 300)
        #expect(track.nextChange(after: 0.01) == 10.0 / 300)
        #expect(track.nextChange(after: 10.0 / 300) == 310.0 / 300)
        #expect(track.nextChange(after: 310.0 / 300) == nil)
        #expect(track.length == 400.0 / 300)
    }

    @Test(
        "the renderer runs only when a packet changed the picture, for the cells over the change, or the size changed; a seek back draws all again"
    )
    func rendersOnChange() throws {
        let renderer = CountingRenderer()
        var track = CDGTrack(bytes: Self.file(), renderer: renderer, depth: .direct)
        let firstCells = track.cells(at: 0.5, columns: 10, rows: 4)
        let first = try #require(firstCells)
        #expect(first.cells.allSatisfy { $0.background == blue })
        _ = track.cells(at: 0.6, columns: 10, rows: 4)
        _ = track.cells(at: 1.0, columns: 10, rows: 4)
        #expect(renderer.calls == 1)
        // The tile's packet starts at 310/300 s: shown from exactly then.
        let tiledCells = track.cells(at: 310.0 / 300, columns: 10, rows: 4)
        let tiled = try #require(tiledCells)
        // The tile (pixels 120…125 × 60…71) lies under one cell of the 10 × 4: only that one is drawn.
        #expect(renderer.calls == 2 && renderer.cellsDrawn == 40 + 1)
        #expect(tiled.cells.contains { $0.background != blue || $0.foreground != blue })
        _ = track.cells(at: 1.2, columns: 12, rows: 5)
        #expect(renderer.calls == 3)
        let backCells = track.cells(at: 0.5, columns: 12, rows: 5)
        let back = try #require(backCells)
        #expect(renderer.calls == 4 && renderer.cellsDrawn == 41 + 60 + 60)
        #expect(back.cells.allSatisfy { $0.background == blue })
        #expect(track.cells(at: 0.5, columns: 0, rows: 5) == nil)
    }
}
