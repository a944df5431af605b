/// A renderer for a picture drawn in pixels (DESIGN §19.9): it draws the cells as `inner` does, so the
/// frame stays whole, and remembers the picture and the cells drawn since the pixel painter last took them.
public final class PixelPictureRenderer: PictureRenderer {
    private let inner: any PictureRenderer
    /// The picture last drawn.
    public private(set) var picture: CDGPicture?
    /// The size in cells of the picture last drawn.
    public private(set) var size: (columns: Int, rows: Int) = (0, 0)
    private var changed: (columns: Range<Int>, rows: Range<Int>)?

    /// A renderer that draws the cells with `inner`.
    public init(inner: any PictureRenderer) {
        self.inner = inner
    }

    public func draw(
        _ picture: CDGPicture, into cells: inout PictureCells, columns: Range<Int>, rows: Range<Int>, depth: ColorDepth
    ) {
        inner.draw(picture, into: &cells, columns: columns, rows: rows, depth: depth)
        self.picture = picture
        if size != (cells.columns, cells.rows) {
            size = (cells.columns, cells.rows)
            changed = nil
        }
        guard !columns.isEmpty, !rows.isEmpty else { return }
        if let old = changed {
            changed = (
                min(old.columns.lowerBound, columns.lowerBound)..<max(old.columns.upperBound, columns.upperBound),
                min(old.rows.lowerBound, rows.lowerBound)..<max(old.rows.upperBound, rows.upperBound)
            )
        } else {
            changed = (columns, rows)
        }
    }

    /// The cells of the picture drawn since the last call, in the picture's own cells; nil when none.
    public func takeChangedCells() -> (columns: Range<Int>, rows: Range<Int>)? {
        defer { changed = nil }
        return changed
    }
}
