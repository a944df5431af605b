import KaraokeCore
import KaraokeDriver

/// Which renderer draws a CD+G picture in cells (DESIGN §19.7, §19.8).
enum PictureRenderers {
    /// libchafa's renderer, else the core's half blocks and a notice saying why.
    static func forTerminal() -> (renderer: any PictureRenderer, notice: String?) {
        do {
            return (try ChafaRenderer(), nil)
        } catch {
            return (HalfBlockRenderer(), "\(error.message); drawing in half blocks")
        }
    }
}
