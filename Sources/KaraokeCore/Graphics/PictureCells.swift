/// A picture drawn in terminal cells: one character and two colours a cell (DESIGN §19.7).
///
/// A renderer (libchafa at the edge, `HalfBlockRenderer` in the core) fills one in from a CD+G picture;
/// the composer lays it into the frame's lyric area and the painter writes only the cells that changed.
public struct PictureCells: Sendable, Equatable {
    /// One cell: a block or other symbol character, its ink and the cell's background.
    public struct Cell: Sendable, Equatable {
        /// The character, one column wide (a space, a half block, a quadrant, a sextant, …).
        public var glyph: Unicode.Scalar
        /// The colour the glyph's ink is drawn in.
        public var foreground: RGB
        /// The colour of the rest of the cell.
        public var background: RGB

        /// Creates a cell.
        public init(glyph: Unicode.Scalar, foreground: RGB, background: RGB) {
            self.glyph = glyph
            self.foreground = foreground
            self.background = background
        }
    }

    /// Width in cells.
    public let columns: Int
    /// Height in cells.
    public let rows: Int
    /// `columns × rows` cells, row by row from the top left.
    public var cells: [Cell]

    /// Cells from a row-by-row array of exactly `columns × rows`.
    public init(columns: Int, rows: Int, cells: [Cell]) {
        precondition(cells.count == columns * rows, "wrong number of picture cells")
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }

    /// The cell at `column`, `row`.
    public subscript(column: Int, row: Int) -> Cell { cells[row * columns + column] }

    /// The largest size in cells that shows a `width` × `height` pixel picture at its aspect on cells twice
    /// as tall as they are wide, within `columns` × `rows` (at least 1 × 1 when either is positive).
    public static func fit(width: Int, height: Int, columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        guard columns > 0, rows > 0, width > 0, height > 0 else { return (0, 0) }
        // A cell is 1 wide and 2 tall: c columns by r rows look like c : 2r.
        let byRows = (columns: (2 * rows * width + height / 2) / height, rows: rows)
        if byRows.columns <= columns { return (max(1, byRows.columns), rows) }
        let fittedRows = (columns * height + width) / (2 * width)
        return (columns, max(1, fittedRows))
    }
}

extension PictureCells {
    /// The pixels under cell `index` of `count` cells across `pixels` pixels: every pixel is under exactly
    /// one cell, and a cell's pixels are its own, so a cell can be drawn without its neighbours.
    public static func pixelSpan(of index: Int, count: Int, pixels: Int) -> Range<Int> {
        (index * pixels / count)..<((index + 1) * pixels / count)
    }

    /// The cells of a `columns` × `rows` picture that lie over any pixel of `area`; a cell narrower than a
    /// pixel stands for the pixel it starts on, as the renderers draw it.
    public static func cells(covering area: CDGArea, columns: Int, rows: Int) -> (columns: Range<Int>, rows: Range<Int>)
    {
        func covering(_ low: Int, _ high: Int, count: Int, pixels: Int) -> Range<Int> {
            var first: Int?, end = 0
            // A thousand cells at most: a scan is as cheap as anything cleverer, and plainly right.
            for cell in 0..<count {
                let span = pixelSpan(of: cell, count: count, pixels: pixels)
                let start = span.lowerBound, stop = max(span.upperBound, start + 1)
                if start < high && stop > low {
                    if first == nil { first = cell }
                    end = cell + 1
                }
            }
            return first.map { $0..<end } ?? 0..<0
        }
        return (
            covering(area.x, area.x + area.width, count: columns, pixels: CDGPicture.width),
            covering(area.y, area.y + area.height, count: rows, pixels: CDGPicture.height)
        )
    }
}

/// Turns a CD+G picture into cells. libchafa's renderer lives at the edge (it is a C library loaded on
/// first use); the core's `HalfBlockRenderer` is the one tests and a machine without libchafa use.
///
/// A renderer draws a part of the cells: only the cells over the area a packet changed are drawn again
/// (DESIGN §19.7). Each cell must come from the pixels under it alone (`PictureCells.pixelSpan`), so the
/// cells of a part are those of the whole.
public protocol PictureRenderer: AnyObject {
    /// Draws the cells in `columns` × `rows` of `cells` (a whole picture of `cells.columns × cells.rows`)
    /// from `picture`, colours fit to `depth`: on a 256-colour terminal each colour is one the palette shows
    /// exactly (`ColorDepth.paletteColor`).
    func draw(
        _ picture: CDGPicture, into cells: inout PictureCells, columns: Range<Int>, rows: Range<Int>, depth: ColorDepth)
}

extension PictureRenderer {
    /// The cells that show `picture` in exactly `columns` × `rows` cells, colours fit to `depth`.
    public func cells(for picture: CDGPicture, columns: Int, rows: Int, depth: ColorDepth) -> PictureCells {
        let blank = PictureCells.Cell(glyph: " ", foreground: RGB(0, 0, 0), background: RGB(0, 0, 0))
        var cells = PictureCells(
            columns: max(0, columns), rows: max(0, rows),
            cells: Array(repeating: blank, count: max(0, columns) * max(0, rows)))
        draw(picture, into: &cells, columns: 0..<cells.columns, rows: 0..<cells.rows, depth: depth)
        return cells
    }
}
