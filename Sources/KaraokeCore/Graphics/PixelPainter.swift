/// Draws a CD+G picture in pixels over the cells the frame gives it (DESIGN §19.9), beside the
/// `ScreenWriter` that draws every other cell.
///
/// Each frame is split in two: the frame without its picture cells, for the writer (so it never writes
/// over the pixels), and the bytes that draw the pixels after the writer's. Pixels are sent for the cells
/// the renderer drew again since the last frame, and for cells that are the picture's again after
/// something else stood on them (the help box, a resize): the writer has just written blanks there. While
/// anything other than the picture stands inside the picture's cells, nothing is drawn there: sixel
/// would cover the help box, so changes wait for it to close; a kitty image, which is drawn above the
/// text, is deleted and sent again afterwards.
public struct PixelPainter {
    /// The protocol the pixels are sent in.
    public let pixelProtocol: PixelProtocol
    /// A cell's size in pixels.
    public let cellSize: TerminalGraphicsAnswer.PixelSize
    /// The renderer the picture's track draws with: it tells what changed.
    public let renderer: PixelPictureRenderer
    /// The screen cells (row × columns + column) that were the picture's in the last frame.
    private var owned: Set<Int> = []
    /// Picture cells not yet drawn in pixels, in the picture's own cells.
    private var pending: (columns: Range<Int>, rows: Range<Int>)?
    /// Whether a kitty image is on the screen.
    private var kittyShown = false
    /// The kitty image's id: one picture a screen.
    static let imageID = 1

    /// A painter in `pixelProtocol` for cells of `cellSize`, told what changed by `renderer`.
    public init(
        pixelProtocol: PixelProtocol, cellSize: TerminalGraphicsAnswer.PixelSize, renderer: PixelPictureRenderer
    ) {
        self.pixelProtocol = pixelProtocol
        self.cellSize = cellSize
        self.renderer = renderer
    }

    /// Forgets what is shown, after the screen was cleared: every picture cell is drawn again. Gives the
    /// bytes that take a kitty image away (a clear leaves it).
    public mutating func forgetScreen() -> [UInt8] {
        owned = []
        pending = nil
        defer { kittyShown = false }
        return kittyShown ? KittyEncoder.delete(id: Self.imageID) : []
    }

    /// `frame` without its picture cells, and the bytes that draw the pixels over them (empty when none).
    /// The pixels' bytes start with a cursor move and leave the cursor where the terminal puts it.
    public mutating func split(_ frame: Frame) -> (cells: Frame, pixels: [UInt8]) {
        var cells = frame
        var nowOwned: Set<Int> = []
        let width = frame.columns
        for y in frame.rows.indices where frame.rows[y].kind == .picture {
            for cell in frame.rows[y].cells where cell.role == .picture { nowOwned.insert(y * width + cell.column) }
            cells.rows[y].cells.removeAll { $0.role == .picture }
        }
        if let changed = renderer.takeChangedCells() { add(changed) }
        let size = renderer.size
        let origin = FrameComposer.pictureOrigin(
            columns: size.columns, rows: size.rows, screenColumns: width, screenRows: frame.rows.count)
        var whole = size.columns > 0 && size.rows > 0
        for row in 0..<size.rows {
            for column in 0..<size.columns {
                let key = (origin.row + row) * width + origin.column + column
                if !nowOwned.contains(key) {
                    whole = false
                } else if !owned.contains(key) {
                    add((column..<(column + 1), row..<(row + 1)))
                }
            }
        }
        owned = nowOwned
        var out: [UInt8] = []
        guard whole, let picture = renderer.picture else {
            // Something stands over the picture (or there is none): a kitty image would hide it.
            if kittyShown {
                out += KittyEncoder.delete(id: Self.imageID)
                kittyShown = false
            }
            return (cells, out)
        }
        guard let part = pending else { return (cells, out) }
        pending = nil
        let pixels = (width: size.columns * cellSize.width, height: size.rows * cellSize.height)
        switch pixelProtocol {
        case .sixel:
            out +=
                "\u{1B}[\(origin.row + part.rows.lowerBound + 1);\(origin.column + part.columns.lowerBound + 1)H".utf8
            out += SixelEncoder.encode(
                picture, width: pixels.width, height: pixels.height,
                columns: (part.columns.lowerBound * cellSize.width)..<(part.columns.upperBound * cellSize.width),
                rows: (part.rows.lowerBound * cellSize.height)..<(part.rows.upperBound * cellSize.height))
        case .kitty:
            // The whole picture again, under the same id: the terminal replaces the one shown.
            out += "\u{1B}[\(origin.row + 1);\(origin.column + 1)H".utf8
            out += KittyEncoder.encode(picture, width: pixels.width, height: pixels.height, id: Self.imageID)
            kittyShown = true
        }
        return (cells, out)
    }

    /// Adds picture cells to those waiting to be drawn.
    private mutating func add(_ part: (columns: Range<Int>, rows: Range<Int>)) {
        guard !part.columns.isEmpty, !part.rows.isEmpty else { return }
        guard let old = pending else {
            pending = part
            return
        }
        pending = (
            min(old.columns.lowerBound, part.columns.lowerBound)..<max(old.columns.upperBound, part.columns.upperBound),
            min(old.rows.lowerBound, part.rows.lowerBound)..<max(old.rows.upperBound, part.rows.upperBound)
        )
    }
}
