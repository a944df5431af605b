/// The layout the queue's cards share (DESIGN §14.2): their lines centred in the middle of the screen, and a
/// status row at the bottom with the place, the countdown and the keys.
///
/// Lines that do not fit above the status row are left out from the bottom; a line wider than the screen is
/// cut with "…" as the title row is. Text that must stay readable (a skipped file's reason) is wrapped first,
/// with `wrapped(_:columns:role:color:)`.
struct CardLayout: Sendable, Equatable {
    /// One line of a card.
    struct Line: Sendable, Equatable {
        /// What it says.
        var text: String
        /// What it is for; `.blank` leaves the row empty.
        var role: RowKind
        /// Its ink.
        var color: RGB

        /// An empty row between groups of lines.
        static let blank = Line(text: "", role: .blank, color: RGB(hex: 0))
    }

    /// The lines, top to bottom.
    var lines: [Line]
    /// The status row's text.
    var status: String
    /// The status row's ink.
    var statusColor: RGB

    /// `text` (control characters removed) wrapped into lines of `role` that fit a card `columns` wide with
    /// two columns free on each side: a reason is worth reading whole, so it is wrapped rather than cut.
    static func wrapped(_ text: String, columns: Int, role: RowKind, color: RGB) -> [Line] {
        let graphemes = Array(ControlCharacters.strip(text))
        let widths = graphemes.map { DisplayWidth.glyph($0).width }
        return LineWrapping.wrap(graphemes, widths: widths, maxWidth: max(1, columns - 4)).map { row in
            Line(text: String(graphemes[row.range]), role: role, color: color)
        }
    }

    /// The card as a frame of `columns` × `rows` (each at least 1).
    func frame(columns: Int, rows: Int) -> Frame {
        let columns = max(1, columns), rows = max(1, rows)
        var screen = [FrameRow](repeating: .blank, count: rows)
        let room = max(0, rows - 1)
        let top = max(0, (room - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < room && line.role != .blank {
            screen[top + offset] = CardLayout.centred(line, columns: columns)
        }
        screen[rows - 1] = FrameRow(
            kind: .status,
            cells: FrameComposer.cells(of: status, from: 0, limit: columns, role: .status, color: statusColor))
        return Frame(time: 0, columns: columns, rows: screen)
    }

    /// `line` centred on a row of `columns` in visual order (a Hebrew title reads right to left), cut with "…"
    /// when it is wider, as the title row is laid out.
    private static func centred(_ line: Line, columns: Int) -> FrameRow {
        let text = ControlCharacters.strip(line.text)
        let cells = FrameComposer.layOutTitle(text, columns: columns).cells.map { cell in
            var cell = cell
            cell.role = line.role
            cell.color = line.color
            return cell
        }
        return FrameRow(kind: line.role, cells: cells, isRightToLeft: TextDirection.of(text) == .rightToLeft)
    }
}
