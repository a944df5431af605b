import KaraokeCore

/// The terminal as the driver uses it (DESIGN §17.3): ncurses for real, a recording screen in tests.
public protocol Screen: AnyObject {
    /// The terminal's size now.
    var size: (columns: Int, rows: Int) { get }
    /// Paints `frame`, sending only what changed since the last paint.
    func paint(_ frame: Frame)
    /// Forgets what was painted, so the next paint sends every cell (after a resize).
    func invalidate()
    /// A key or a resize that is already there, without waiting; `.none` when there is none.
    func readInput() -> ScreenInput
    /// Gives the terminal back for a suspension.
    func suspend()
    /// Takes the terminal back after `suspend`, to be painted whole.
    func resume()
}

/// What reading the terminal gave.
public enum ScreenInput: Sendable, Equatable {
    /// A key was read.
    case key(Key)
    /// The terminal changed size.
    case resize
    /// Nothing is there.
    case none
}
