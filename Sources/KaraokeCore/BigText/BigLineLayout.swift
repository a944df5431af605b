/// One lyric line drawn in big glyphs for a lyric area: its wrapped rows as pixels, ready for any moment's
/// fill (DESIGN §23.2, §23.3).
///
/// Built from the line laid out as text in an area `cellsPerColumn` times narrower (`narrow`): every
/// grapheme grows by the same factor, so wrapping there is wrapping in big cells, and the narrow layout's
/// fill slots give the same fill fractions as today's line. Each font pixel becomes `pixel` × `pixel`
/// sub-cell pixels, drawn with `cells`' block characters.
struct BigLineLayout {
    /// One wrapped row of the line: a band of screen rows.
    struct Band {
        /// The screen column of its first cell.
        var start: Int
        /// Cells across.
        var width: Int
        /// Sub-cell pixels, `pixelWidth` across and `pixelHeight` down, row after row.
        var pixels: [Bool]
        /// The fill slot (the narrow layout's, row after row) each pixel column belongs to.
        var slotOfColumn: [Int]
        /// Each pixel column's place in its grapheme in reading order (from the right in a right-to-left
        /// line), and how many columns the grapheme has.
        var rankOfColumn: [(rank: Int, count: Int)]
        /// The graphemes in visual order with their big column and width, unsung, for `render --format json`.
        var graphemes: [FrameCell]
        /// The fill slot of each of `graphemes`.
        var graphemeSlots: [Int]
    }

    /// The line laid out as text in the narrow area; its slots, cells and direction drive the fill.
    let narrow: LineLayout
    /// The bands, top to bottom.
    let bands: [Band]
    /// Sub-cell pixels each font pixel takes across and down.
    let pixel: Int
    /// The block characters used.
    let cells: BigTextCells
    /// Screen rows a band takes.
    let bandHeight: Int
    /// Pixels across a band's cell.
    private var pixelsAcross: Int { cells.pixelsAcross }
    /// The screen rows unsung, and sung.
    private(set) var unsungRows: [[FrameCell]] = []
    private(set) var sungRows: [[FrameCell]] = []
    /// The graphemes described on each screen row, unsung, and sung.
    private(set) var unsungGraphemes: [[FrameCell]] = []
    private(set) var sungGraphemes: [[FrameCell]] = []
    /// The unsung and sung colours, and the rest brightness between which a cell's fill blends.
    private let theme: Theme
    private let restOpacity: Double

    /// Screen rows the line's own glyphs take.
    var height: Int { bands.count * bandHeight }

    /// Screen cells one text cell grows to at `size` with `cells`: a text cell is 8 font pixels across.
    static func cellsPerColumn(size: Int, cells: BigTextCells) -> Int {
        8 * (size - 1) / cells.pixelsAcross
    }

    /// Screen rows one text row grows to at `size`: 16 font pixels down.
    static func rowsPerRow(size: Int, cells: BigTextCells) -> Int {
        (16 * (size - 1) + cells.pixelsDown - 1) / cells.pixelsDown
    }

    /// Lays `narrow` (laid out from column 0, left aligned) out in big glyphs of `font` at `size` in the
    /// area `areaStart` + `areaWidth` cells, aligned by `alignment`.
    init(
        narrow: LineLayout, font: BitmapFont, size: Int, cells: BigTextCells, areaStart: Int, areaWidth: Int,
        alignment: FrameOptions.Alignment, theme: Theme, restOpacity: Double
    ) {
        self.narrow = narrow
        self.cells = cells
        self.theme = theme
        self.restOpacity = restOpacity
        let pixel = max(1, size - 1)
        self.pixel = pixel
        bandHeight = BigLineLayout.rowsPerRow(size: size, cells: cells)
        let perColumn = BigLineLayout.cellsPerColumn(size: size, cells: cells)
        let pixelHeight = BitmapGlyph.height * pixel
        var bands: [Band] = []
        var slot = 0
        for row in narrow.unsungRows {
            let textWidth = row.last.map { $0.column + $0.width } ?? 0
            let width = textWidth * perColumn
            let start: Int
            switch alignment {
            case .left: start = areaStart
            case .center: start = areaStart + max(0, areaWidth - width) / 2
            case .right: start = areaStart + max(0, areaWidth - width)
            }
            let pixelWidth = width * cells.pixelsAcross
            var band = Band(
                start: start, width: width, pixels: [Bool](repeating: false, count: pixelWidth * pixelHeight),
                slotOfColumn: [Int](repeating: 0, count: pixelWidth),
                rankOfColumn: [(Int, Int)](repeating: (0, 1), count: pixelWidth), graphemes: [], graphemeSlots: [])
            for cell in row {
                let left = cell.column * 8 * pixel
                let count = cell.width * 8 * pixel
                let glyph = BigLineLayout.glyph(for: cell.glyph, width: cell.width, font: font)
                // A glyph narrower than its cells is centred; a wider one is cut at the right.
                let shift = max(0, (cell.width * 8 - glyph.width) / 2)
                for x in 0..<count {
                    let column = left + x
                    band.slotOfColumn[column] = slot
                    band.rankOfColumn[column] = (narrow.direction == .rightToLeft ? count - 1 - x : x, count)
                    let fontX = x / pixel - shift
                    for y in 0..<pixelHeight where glyph.isSet(x: fontX, y: y / pixel) {
                        band.pixels[y * pixelWidth + column] = true
                    }
                }
                var described = cell
                described.column = start + cell.column * perColumn
                described.width = cell.width * perColumn
                band.graphemes.append(described)
                band.graphemeSlots.append(slot)
                slot += 1
            }
            bands.append(band)
        }
        self.bands = bands
        let unsung = draw(fills: [Double](repeating: 0, count: slot))
        let sung = draw(fills: [Double](repeating: 1, count: slot))
        (unsungRows, unsungGraphemes) = unsung
        (sungRows, sungGraphemes) = sung
    }

    /// The glyph drawn for `text` (a grapheme's painted form) `width` cells wide: the font's glyph of its
    /// first scalar, else U+FFFD's, else an empty box.
    static func glyph(for text: String, width: Int, font: BitmapFont) -> BitmapGlyph {
        if let scalar = text.unicodeScalars.first, let glyph = font.glyph(for: scalar) { return glyph }
        if let replacement = font.glyph(for: "\u{FFFD}") { return replacement }
        let pixels = width * 8
        let side: UInt16 = 0x8000 | (0x8000 >> UInt16(pixels - 2))
        let full: UInt16 = ~(0xFFFF >> UInt16(pixels - 1))
        var rows = [UInt16](repeating: 0, count: 16)
        for y in 2...13 { rows[y] = y == 2 || y == 13 ? full : side }
        return BitmapGlyph(width: pixels, rows: rows)
    }

    /// Whether a pixel column of `count` in its grapheme at `rank` (reading order) is lit when the grapheme's
    /// fill is `fill`: when its centre is under the fill.
    @inline(__always)
    static func isLit(rank: Int, count: Int, fill: Double) -> Bool {
        (Double(rank) + 0.5) <= fill * Double(count)
    }

    /// Which pixel columns of each band are lit for the narrow layout's slot `fills`, left to right.
    func litColumns(fills: [Double]) -> [[Bool]] {
        bands.map { band in
            (0..<band.width * pixelsAcross).map { column in
                let rank = band.rankOfColumn[column]
                return BigLineLayout.isLit(rank: rank.rank, count: rank.count, fill: fills[band.slotOfColumn[column]])
            }
        }
    }

    /// The screen rows, and the graphemes each describes, for the narrow layout's slot `fills`.
    ///
    /// A cell's fill is the share of its set pixels that are lit (of its pixel columns when none is set),
    /// and its colour the brightness that fill gives, as a text cell's: a cell the sweep is crossing takes
    /// an in-between shade. A cell without set pixels is left out, so it paints nothing.
    func draw(fills: [Double]) -> (rows: [[FrameCell]], graphemes: [[FrameCell]]) {
        var rows: [[FrameCell]] = []
        var described: [[FrameCell]] = []
        rows.reserveCapacity(height)
        let across = pixelsAcross
        let down = cells.pixelsDown
        let pixelHeight = BitmapGlyph.height * pixel
        let unsungColor = theme.lyric(brightness: restOpacity)
        let sungColor = theme.lyric(brightness: 1)
        for band in bands {
            let pixelWidth = band.width * across
            var lit = [Bool](repeating: false, count: pixelWidth)
            for column in 0..<pixelWidth {
                let rank = band.rankOfColumn[column]
                lit[column] = BigLineLayout.isLit(
                    rank: rank.rank, count: rank.count, fill: fills[band.slotOfColumn[column]])
            }
            var graphemes = band.graphemes
            for k in graphemes.indices {
                let fill = fills[band.graphemeSlots[k]]
                graphemes[k].fill = fill
                graphemes[k].color =
                    fill <= 0
                    ? unsungColor
                    : fill >= 1 ? sungColor : theme.lyric(brightness: restOpacity + (1 - restOpacity) * fill)
            }
            for cellRow in 0..<bandHeight {
                var row: [FrameCell] = []
                for cell in 0..<band.width {
                    var pattern = 0, set = 0, litSet = 0
                    for dy in 0..<down {
                        let y = cellRow * down + dy
                        guard y < pixelHeight else { continue }
                        for dx in 0..<across {
                            let x = cell * across + dx
                            if band.pixels[y * pixelWidth + x] {
                                pattern |= 1 << (dy * 2 + dx)
                                set += 1
                                if lit[x] { litSet += 1 }
                            }
                        }
                    }
                    guard pattern != 0 else { continue }
                    let fill = Double(litSet) / Double(set)
                    let character = cells.character(pattern)
                    row.append(
                        FrameCell(
                            column: band.start + cell, grapheme: character, glyph: String(character), width: 1,
                            role: .lyric, fill: fill,
                            color: fill <= 0
                                ? unsungColor
                                : fill >= 1
                                    ? sungColor : theme.lyric(brightness: restOpacity + (1 - restOpacity) * fill)))
                }
                rows.append(row)
                described.append(graphemes)
            }
        }
        return (rows, described)
    }
}
