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

    public func draw(
        _ picture: CDGPicture, into cells: inout PictureCells, columns: Range<Int>, rows: Range<Int>, depth: ColorDepth
    ) {
        let width = CDGPicture.width, height = CDGPicture.height
        let count = (columns: cells.columns, rows: cells.rows)
        func average(_ xs: Range<Int>, _ ys: Range<Int>) -> RGB {
            var red = 0, green = 0, blue = 0, total = 0
            // A cell narrower than a pixel takes the pixel it starts on.
            for y in ys.lowerBound..<max(ys.upperBound, ys.lowerBound + 1) where y < height {
                let rowStart = y * width
                for x in xs.lowerBound..<max(xs.upperBound, xs.lowerBound + 1) where x < width {
                    let color = picture.colors[Int(picture.indices[rowStart + x])]
                    red += Int(color.red)
                    green += Int(color.green)
                    blue += Int(color.blue)
                    total += 1
                }
            }
            guard total > 0 else { return RGB(0, 0, 0) }
            let fitted = RGB(
                UInt8((red + total / 2) / total), UInt8((green + total / 2) / total), UInt8((blue + total / 2) / total))
            return depth == .indexed256 ? ColorDepth.paletteColor(ColorDepth.paletteIndex(fitted)) : fitted
        }
        for row in rows.clamped(to: 0..<count.rows) {
            // The cell's pixel rows, split in two halves.
            let ys = PictureCells.pixelSpan(of: row, count: count.rows, pixels: height)
            let middle = ys.lowerBound + (ys.count + 1) / 2
            for column in columns.clamped(to: 0..<count.columns) {
                let xs = PictureCells.pixelSpan(of: column, count: count.columns, pixels: width)
                let top = average(xs, ys.lowerBound..<middle)
                let bottom = average(xs, middle..<ys.upperBound)
                // A cell of one colour is a space on that colour: the same picture, and no ink to fringe.
                cells.cells[row * count.columns + column] =
                    top == bottom
                    ? PictureCells.Cell(glyph: " ", foreground: top, background: top)
                    : PictureCells.Cell(glyph: Self.upperHalf, foreground: top, background: bottom)
            }
        }
    }
}
