/// One screen of the player as a value: what `render` prints and what `play` paints (DESIGN §4, §5).
public struct Frame: Sendable, Equatable {
    /// Playback time in seconds.
    public var time: Double
    /// Width in cells.
    public var columns: Int
    /// Exactly `rowCount` rows, top to bottom.
    public var rows: [FrameRow]

    /// The size the lyrics are drawn at: 1 for text, 2…4 for big glyphs (DESIGN §23).
    public var size = 1

    /// Height in rows.
    public var rowCount: Int { rows.count }

    /// Creates a frame.
    public init(time: Double, columns: Int, rows: [FrameRow]) {
        self.time = time
        self.columns = columns
        self.rows = rows
    }

    /// Whether any row is right-to-left: the painter then asks the terminal not to reorder (DESIGN §3.5).
    public var hasRightToLeftRows: Bool { rows.contains { $0.isRightToLeft } }
}

/// What a row (or a cell) of the frame is for.
public enum RowKind: String, Sendable, Equatable {
    case title, lyric, translation, status, notice, blank
    /// The count-in's dots above a line sung after a silence (DESIGN §14.3); its cells are lyric cells.
    case countIn
    /// A row of the note lanes drawn while scoring (DESIGN §15.3).
    case lanes
    /// A row of a CD+G picture drawn in cells (DESIGN §19.7): each cell has a background colour.
    case picture
    /// A row of a QR code drawn in cells (DESIGN §22.1): dark ink on white paper set on every cell, shown as
    /// the complementary half blocks on a terminal without colour.
    case code
}

/// One row of a frame: its cells in column order, with gaps where nothing is drawn.
public struct FrameRow: Sendable, Equatable {
    /// What the row shows.
    public var kind: RowKind
    /// The lyric line's index in time order, for lyric and translation rows.
    public var line: Int?
    /// The graphemes drawn, in increasing column; each cell owns `width` columns.
    public var cells: [FrameCell]
    /// Whether the row holds right-to-left text already in visual order.
    public var isRightToLeft: Bool
    /// For a row of big glyphs, the graphemes its band draws, each with the big cells it spans and its fill
    /// (`render --format json` lists them as a text row's cells, DESIGN §23.5); nil for text rows.
    public var bigGraphemes: [FrameCell]?

    /// Creates a row.
    public init(
        kind: RowKind, line: Int? = nil, cells: [FrameCell] = [], isRightToLeft: Bool = false,
        bigGraphemes: [FrameCell]? = nil
    ) {
        self.kind = kind
        self.line = line
        self.cells = cells
        self.isRightToLeft = isRightToLeft
        self.bigGraphemes = bigGraphemes
    }

    /// A row with nothing on it.
    public static let blank = FrameRow(kind: .blank)

    /// The row as displayed (painted forms, gaps as spaces), trailing spaces trimmed.
    public var text: String {
        var result = ""
        var column = 0
        for cell in cells {
            if cell.column > column { result.append(String(repeating: " ", count: cell.column - column)) }
            result.append(cell.glyph)
            column = cell.column + cell.width
        }
        while result.last == " " { result.removeLast() }
        return result
    }
}

/// One grapheme on the screen.
public struct FrameCell: Sendable, Equatable {
    /// The 0-based column of its first cell.
    public var column: Int
    /// The grapheme as in the file (control characters removed).
    public var grapheme: Character
    /// What is painted: the grapheme, or a reduced form of the same width (see `DisplayWidth`).
    public var glyph: String
    /// Cells it takes, 1 or 2.
    public var width: Int
    /// What it belongs to.
    public var role: RowKind
    /// How much of it is sung, 0…1 (already reflecting reduce motion).
    public var fill: Double
    /// Its exact colour, for a direct-colour terminal; other depths quantise it.
    public var color: RGB
    /// The hue an 8-colour terminal keeps for it (a golden note, a duet ink), since the blend in `color`
    /// would round to gray there; nil for the terminal's own colour. Only note lanes set it (DESIGN §15.3).
    public var accent: RGB? = nil
    /// The colour of the cell behind the glyph; nil for the terminal's own. Only picture and QR code cells
    /// set it (DESIGN §19.7, §22.1).
    public var background: RGB? = nil
}
