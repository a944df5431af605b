/// Draws a CD+G picture in upper half blocks, each cell two pixels tall: the top half's colour as ink, the
/// bottom half's as background, each the average of the picture's pixels under it (DESIGN §19.7).
///
/// The renderer of the core: what `render` and the tests use on a machine without libchafa, and the
/// reference the chafa renderer is compared with. It is exact and plain; chafa picks among more shapes.
public final class HalfBlockRenderer: PictureRenderer {
    /// The upper half block.
    static let upperHalf: Unicode.Scalar = "\u{2580}"

    /// A renderer.
    public init() {}

    public func cells(for picture: CDGPicture, columns: Int, rows: Int, depth: ColorDepth) -> PictureCells {
        let width = CDGPicture.width, height = CDGPicture.height
        // Column and half-row boundaries in pixels: every pixel falls in exactly one cell half.
        let xs = (0...columns).map { $0 * width / columns }
        let ys = (0...(2 * rows)).map { $0 * height / (2 * rows) }
        func average(_ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) -> RGB {
            var red = 0, green = 0, blue = 0, count = 0
            for y in y0..<max(y1, y0 + 1) where y < height {
                let rowStart = y * width
                for x in x0..<max(x1, x0 + 1) where x < width {
                    let color = picture.colors[Int(picture.indices[rowStart + x])]
                    red += Int(color.red)
                    green += Int(color.green)
                    blue += Int(color.blue)
                    count += 1
                }
            }
            guard count > 0 else { return RGB(0, 0, 0) }
            let fitted = RGB(
                UInt8((red + count / 2) / count), UInt8((green + count / 2) / count), UInt8((blue + count / 2) / count))
            return depth == .indexed256 ? ColorDepth.paletteColor(ColorDepth.paletteIndex(fitted)) : fitted
        }
        var cells: [PictureCells.Cell] = []
        cells.reserveCapacity(columns * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                let top = average(xs[column], xs[column + 1], ys[2 * row], ys[2 * row + 1])
                let bottom = average(xs[column], xs[column + 1], ys[2 * row + 1], ys[2 * row + 2])
                // A cell of one colour is a space on that background: the same picture, and no ink to fringe.
                cells.append(
                    top == bottom
                        ? PictureCells.Cell(glyph: " ", foreground: top, background: top)
                        : PictureCells.Cell(glyph: Self.upperHalf, foreground: top, background: bottom))
            }
        }
        return PictureCells(columns: columns, rows: rows, cells: cells)
    }
}
