import CChafa
import KaraokeCore

/// Draws a CD+G picture in terminal cells through libchafa, loaded on first use (DESIGN §19.7).
///
/// chafa chooses each cell's symbol (a space, the full block, a half block or a quadrant; sextants only when
/// asked for) and its two colours; the cells go to our own painter, never chafa's escape sequences. One
/// renderer keeps its canvas and buffers while the size and colour mode stay the same, since a CD+G song
/// redraws many times a second. Not for use from two threads at once.
public final class ChafaRenderer: PictureRenderer {
    /// Why libchafa cannot be used: the loader's message, naming the Debian package (`libchafa0`).
    public struct Unavailable: Error, Equatable, CustomStringConvertible {
        /// The message, control characters removed.
        public let message: String

        /// The message.
        public var description: String { message }
    }

    /// Whether the canvas may use the sextants (U+1FB00…U+1FB3B), which many fonts lack.
    public let allowsSextants: Bool

    /// A canvas's size and colour mode.
    private struct Shape: Hashable {
        var columns: Int
        var rows: Int
        var colors: UInt32
    }

    /// The canvases made so far, by shape: a song redraws parts of a few sizes over and over.
    private var canvases: [Shape: OpaquePointer] = [:]
    /// The most canvases kept; past it they are all freed and made again as needed.
    private static let canvasLimit = 64
    /// Pixels chafa works on for each cell, across and down: eight by eight, its own cell, so it scales nothing
    /// and each cell's choice depends on its own pixels only.
    private static let cellPixels = 8
    /// The pixels of the part drawn, red, green and blue bytes, `cellPixels` a cell each way.
    private var pixels: [UInt8] = []
    /// What chafa answers for each cell of the part.
    private var glyphs: [UInt32] = []
    private var foregrounds: [Int32] = []
    private var backgrounds: [Int32] = []

    /// A renderer, loading libchafa if this is the first; throws `Unavailable` when it cannot be loaded.
    public init(allowsSextants: Bool = false) throws(Unavailable) {
        if let message = kk_chafa_load() {
            throw Unavailable(message: ControlCharacters.strip(String(cString: message)))
        }
        self.allowsSextants = allowsSextants
    }

    deinit {
        for canvas in canvases.values { kk_chafa_canvas_free(canvas) }
    }

    /// Draws the cells in `columns` × `rows` of `cells`, each from the pixels under it, stretched, colours fit
    /// to `depth`.
    ///
    /// In direct colour a cell's colours are any 24-bit colours. At every other depth they are colours of the
    /// xterm palette's entries 16…255 as `ColorDepth.paletteColor` gives them, so that the painter's
    /// `ColorDepth.paletteIndex` finds the entry chafa chose: entries 0…15 are never used, because the
    /// user's theme redefines them. On a 16-colour or colourless terminal the painter then reduces those
    /// colours as it reduces any other; chafa's own 16-colour modes would choose among the theme's colours
    /// by xterm's defaults, which the theme may not show.
    ///
    /// The colour a cell does not show is set to the one it does (a space's ink is its background, a full
    /// block's background its ink), so that cells that look alike compare equal.
    public func draw(
        _ picture: CDGPicture, into cells: inout PictureCells, columns: Range<Int>, rows: Range<Int>, depth: ColorDepth
    ) {
        let columns = columns.clamped(to: 0..<cells.columns), rows = rows.clamped(to: 0..<cells.rows)
        guard !columns.isEmpty, !rows.isEmpty else { return }
        let colors = depth == .direct ? KK_CHAFA_TRUE_COLOR : KK_CHAFA_PALETTE_240
        let black = RGB(0, 0, 0)
        guard let canvas = canvas(Shape(columns: columns.count, rows: rows.count, colors: colors.rawValue)) else {
            // chafa refuses only a size it cannot allocate: blank cells rather than a crash.
            for row in rows {
                for column in columns {
                    cells.cells[row * cells.columns + column] = PictureCells.Cell(
                        glyph: " ", foreground: black, background: black)
                }
            }
            return
        }
        let width = columns.count * Self.cellPixels, height = rows.count * Self.cellPixels
        sample(picture, columns: columns, rows: rows, of: (cells.columns, cells.rows))
        pixels.withUnsafeBufferPointer { bytes in
            kk_chafa_canvas_draw_rgb(canvas, bytes.baseAddress, Int32(width), Int32(height), Int32(width * 3))
        }
        let count = columns.count * rows.count
        if glyphs.count < count {
            glyphs = Array(repeating: 0, count: count)
            foregrounds = Array(repeating: 0, count: count)
            backgrounds = Array(repeating: 0, count: count)
        }
        kk_chafa_canvas_read(canvas, &glyphs, &foregrounds, &backgrounds)
        let color: (Int32) -> RGB? =
            colors == KK_CHAFA_TRUE_COLOR
            ? { $0 < 0 ? nil : RGB(hex: UInt32($0)) }
            : { $0 < 0 ? nil : ColorDepth.paletteColor(Int($0)) }
        var index = 0
        for row in rows {
            for column in columns {
                let glyph = Unicode.Scalar(glyphs[index]) ?? " "
                let ink = color(foregrounds[index]), paper = color(backgrounds[index])
                let background = glyph == "\u{2588}" ? ink ?? paper : paper ?? ink
                let foreground = glyph == " " ? background : ink ?? paper
                cells.cells[row * cells.columns + column] = PictureCells.Cell(
                    glyph: glyph, foreground: foreground ?? black, background: background ?? black)
                index += 1
            }
        }
    }

    /// The canvas of `shape`: one kept, else a new one.
    private func canvas(_ shape: Shape) -> OpaquePointer? {
        if let canvas = canvases[shape] { return canvas }
        if canvases.count >= Self.canvasLimit {
            for canvas in canvases.values { kk_chafa_canvas_free(canvas) }
            canvases = [:]
        }
        let made = kk_chafa_canvas_new(
            Int32(shape.columns), Int32(shape.rows), kk_chafa_colors(rawValue: shape.colors), allowsSextants ? 1 : 0)
        if let made { canvases[shape] = made }
        return made
    }

    /// Fills `pixels` for the cells `columns` × `rows` of a `size` picture: for each cell, 8 × 8 samples of
    /// the pixels under it (`PictureCells.pixelSpan`), nearest first.
    private func sample(
        _ picture: CDGPicture, columns: Range<Int>, rows: Range<Int>, of size: (columns: Int, rows: Int)
    ) {
        let step = Self.cellPixels
        let needed = columns.count * step * rows.count * step * 3
        if pixels.count < needed { pixels = Array(repeating: 0, count: needed) }
        // Where each sample column and row falls in the picture.
        func positions(_ cells: Range<Int>, count: Int, pixels: Int) -> [Int] {
            cells.flatMap { cell in
                let span = PictureCells.pixelSpan(of: cell, count: count, pixels: pixels)
                return (0..<step).map { min(pixels - 1, span.lowerBound + $0 * max(1, span.count) / step) }
            }
        }
        let xs = positions(columns, count: size.columns, pixels: CDGPicture.width)
        let ys = positions(rows, count: size.rows, pixels: CDGPicture.height)
        var table = [UInt8](repeating: 0, count: 48)
        for (entry, color) in picture.colors.prefix(16).enumerated() {
            table[3 * entry] = color.red
            table[3 * entry + 1] = color.green
            table[3 * entry + 2] = color.blue
        }
        table.withUnsafeBufferPointer { table in
            picture.indices.withUnsafeBufferPointer { indices in
                pixels.withUnsafeMutableBufferPointer { out in
                    var at = 0
                    for y in ys {
                        let rowStart = y * CDGPicture.width
                        for x in xs {
                            let entry = 3 * Int(indices[rowStart + x] & 0x0F)
                            out[at] = table[entry]
                            out[at + 1] = table[entry + 1]
                            out[at + 2] = table[entry + 2]
                            at += 3
                        }
                    }
                }
            }
        }
    }
}
