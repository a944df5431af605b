import KaraokeCore

/// Which renderer draws a CD+G picture in cells (DESIGN §19.7).
enum PictureRenderers {
    /// The renderer for `play` and `render`, and a notice when it is not the best one.
    static func forTerminal() -> (renderer: any PictureRenderer, notice: String?) {
        (HalfBlockRenderer(), nil)
    }
}
