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

    /// The canvas in use and what it was made for; nil before the first picture.
    private var canvas: OpaquePointer?
    private var canvasShape: (columns: Int, rows: Int, colors: kk_chafa_colors)?
    /// The picture as red, green and blue bytes, refilled for each picture.
    private var pixels = [UInt8](repeating: 0, count: CDGPicture.width * CDGPicture.height * 3)
    /// What chafa answers for each cell, `columns × rows` of each.
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
        kk_chafa_canvas_free(canvas)
    }

    /// The cells that show `picture` in exactly `columns` × `rows` cells, stretched to them, colours fit to
    /// `depth`.
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
    public func cells(for picture: CDGPicture, columns: Int, rows: Int, depth: ColorDepth) -> PictureCells {
        let columns = max(0, columns), rows = max(0, rows)
        let colors = depth == .direct ? KK_CHAFA_TRUE_COLOR : KK_CHAFA_PALETTE_240
        guard columns > 0, rows > 0, let canvas = canvas(columns: columns, rows: rows, colors: colors) else {
            // chafa refuses only a size it cannot allocate: blank cells rather than a crash.
            let blank = PictureCells.Cell(glyph: " ", foreground: RGB(0, 0, 0), background: RGB(0, 0, 0))
            return PictureCells(columns: columns, rows: rows, cells: Array(repeating: blank, count: columns * rows))
        }
        fillPixels(picture)
        pixels.withUnsafeBufferPointer { bytes in
            kk_chafa_canvas_draw_rgb(
                canvas, bytes.baseAddress, Int32(CDGPicture.width), Int32(CDGPicture.height),
                Int32(CDGPicture.width * 3))
        }
        kk_chafa_canvas_read(canvas, &glyphs, &foregrounds, &backgrounds)
        let color: (Int32) -> RGB? =
            colors == KK_CHAFA_TRUE_COLOR
            ? { $0 < 0 ? nil : RGB(hex: UInt32($0)) }
            : { $0 < 0 ? nil : ColorDepth.paletteColor(Int($0)) }
        var cells: [PictureCells.Cell] = []
        cells.reserveCapacity(glyphs.count)
        for index in glyphs.indices {
            let glyph = Unicode.Scalar(glyphs[index]) ?? " "
            let ink = color(foregrounds[index]), paper = color(backgrounds[index])
            let background = glyph == "\u{2588}" ? ink ?? paper : paper ?? ink
            let foreground = glyph == " " ? background : ink ?? paper
            let black = RGB(0, 0, 0)
            cells.append(
                PictureCells.Cell(glyph: glyph, foreground: foreground ?? black, background: background ?? black))
        }
        return PictureCells(columns: columns, rows: rows, cells: cells)
    }

    /// The canvas for this size and colour mode: the one kept when it matches, else a new one.
    private func canvas(columns: Int, rows: Int, colors: kk_chafa_colors) -> OpaquePointer? {
        if let canvas, let shape = canvasShape, shape.columns == columns, shape.rows == rows, shape.colors == colors {
            return canvas
        }
        kk_chafa_canvas_free(canvas)
        canvasShape = nil
        canvas = kk_chafa_canvas_new(Int32(columns), Int32(rows), colors, allowsSextants ? 1 : 0)
        guard canvas != nil else { return nil }
        canvasShape = (columns, rows, colors)
        let count = columns * rows
        glyphs = Array(repeating: 0, count: count)
        foregrounds = Array(repeating: 0, count: count)
        backgrounds = Array(repeating: 0, count: count)
        return canvas
    }

    /// Writes `picture`'s colours into `pixels`, three bytes a pixel.
    private func fillPixels(_ picture: CDGPicture) {
        // The 16 colours as bytes once, rather than an `RGB` looked up and taken apart per pixel.
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
                    for index in indices {
                        let entry = 3 * Int(index & 0x0F)
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
