/// A CD+G picture in the lyric area (DESIGN §19.7).
extension FrameComposer {
    /// The cells a picture may take: every row between the title and the status bar, the whole width.
    public var pictureRoom: (columns: Int, rows: Int) { (columns, max(0, rows - 2)) }

    /// The size in cells the CD+G picture is drawn at on this screen: the largest at its aspect in
    /// `pictureRoom`.
    public var pictureSize: (columns: Int, rows: Int) {
        PictureCells.fit(
            width: CDGPicture.width, height: CDGPicture.height, columns: pictureRoom.columns, rows: pictureRoom.rows)
    }

    /// The screen cell (column, row) where a picture of `columns` × `rows` cells starts: centred in
    /// `pictureRoom`, below the title.
    public func pictureOrigin(columns: Int, rows: Int) -> (column: Int, row: Int) {
        Self.pictureOrigin(columns: columns, rows: rows, screenColumns: self.columns, screenRows: self.rows)
    }

    /// Where a picture of `columns` × `rows` cells starts on a `screenColumns` × `screenRows` screen.
    public static func pictureOrigin(columns: Int, rows: Int, screenColumns: Int, screenRows: Int) -> (
        column: Int, row: Int
    ) {
        ((screenColumns - columns) / 2, 1 + (max(0, screenRows - 2) - rows) / 2)
    }

    /// Draws `picture` centred in the rows between the title and the status bar; a picture of another size
    /// (made for the screen before a resize) is cut to the room.
    func draw(_ picture: PictureCells, into screen: inout [FrameRow]) {
        let room = pictureRoom
        let shown = (columns: min(picture.columns, room.columns), rows: min(picture.rows, room.rows))
        let (left, top) = pictureOrigin(columns: shown.columns, rows: shown.rows)
        for y in 0..<shown.rows {
            var cells: [FrameCell] = []
            cells.reserveCapacity(shown.columns)
            for x in 0..<shown.columns {
                let cell = picture[x, y]
                cells.append(
                    FrameCell(
                        column: left + x, grapheme: Character(cell.glyph), glyph: String(cell.glyph), width: 1,
                        role: .picture, fill: 1, color: cell.foreground, background: cell.background))
            }
            screen[top + y] = FrameRow(kind: .picture, cells: cells)
        }
    }
}
