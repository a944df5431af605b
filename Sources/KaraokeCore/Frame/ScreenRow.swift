/// A frame row as the terminal holds it: one entry per column, styled for a colour depth.
///
/// The painter compares the row it painted last with the new one and sends only the columns whose
/// glyph or style as the terminal shows it changed: a title cell whose colour drifts within one
/// palette entry is not sent again.
public struct ScreenRow: Sendable, Equatable {
    /// What one column holds.
    public enum Column: Sendable, Equatable {
        /// Nothing drawn: a space in the default style.
        case empty
        /// A glyph starting here, `width` columns wide.
        case glyph(String, width: Int, style: TerminalStyle)
        /// The second column of a wide glyph.
        case continuation
    }

    /// Exactly `columns` entries.
    public var columns: [Column]

    /// The row `row` of a frame `width` columns wide, styled for `depth`.
    public init(_ row: FrameRow, width: Int, depth: ColorDepth) {
        var columns = [Column](repeating: .empty, count: width)
        for cell in row.cells where cell.column >= 0 && cell.column + cell.width <= width {
            columns[cell.column] = .glyph(
                TerminalStyle.glyph(of: cell, depth: depth), width: cell.width,
                style: TerminalStyle.of(cell, depth: depth))
            for k in 1..<max(1, cell.width) { columns[cell.column + k] = .continuation }
        }
        self.columns = columns
    }

    /// The columns to paint to turn `old` into `self`: where a glyph starts or a column empties.
    ///
    /// A column that became the second half of a wide glyph is painted through the glyph's first column;
    /// a column that stopped being one is painted itself (ncurses then clears the old glyph's halves).
    public func changedColumns(from old: ScreenRow?) -> [Int] {
        var changed: [Int] = []
        for index in columns.indices {
            let new = columns[index]
            if let old, index < old.columns.count, old.columns[index] == new { continue }
            switch new {
            case .glyph, .empty: changed.append(index)
            case .continuation:
                // The glyph before it differs too and is listed; nothing to paint here.
                continue
            }
        }
        return changed
    }
}
