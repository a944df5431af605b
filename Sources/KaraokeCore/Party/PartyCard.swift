/// The party's up-next card as a frame (DESIGN §22.2): who sings next and what, and how guests join in.
///
/// Between songs and before the first, the host's screen shows the next singers and their songs, the guests'
/// address as a QR code and as text, and the room code. Pure: the edge gives the QR modules (libqrencode's), the
/// address and the rotation's order; this lays them out for any screen size, the QR code left out when it does not
/// fit beside or above the list, never the address in text.
public struct PartyCard: Sendable, Equatable {
    /// One request in the list.
    public struct Entry: Sendable, Equatable {
        /// The singer's name as they typed it (already cleaned of control and bidi characters).
        public var singer: String
        /// The song's title (and artist) as shown.
        public var song: String

        /// Creates an entry.
        public init(singer: String, song: String) {
            self.singer = singer
            self.song = song
        }
    }

    /// How many singers the card lists.
    public static let listed = 5

    /// The requests in singing order, the next first; the card lists the first five.
    public var upNext: [Entry]
    /// The guests' address, as the QR code says it.
    public var address: String
    /// The room code guests type.
    public var code: String
    /// The QR code of `address`; nil when it could not be made (the address stays in text).
    public var qr: QRModules?
    /// Whether new requests are refused for now.
    public var paused: Bool
    /// The entry the host's keys act on, an index into `upNext`; nil for none.
    public var selected: Int?
    /// The status row: the host's keys, or a notice.
    public var status: String
    /// The evening's best singers, best first; the card lists the first three (empty: no scoreboard).
    public var best: [PartyScoreboard.Entry]

    /// Creates a card.
    public init(
        upNext: [Entry], address: String, code: String, qr: QRModules?, paused: Bool = false, selected: Int? = nil,
        status: String, best: [PartyScoreboard.Entry] = []
    ) {
        self.best = best
        self.upNext = upNext
        self.address = address
        self.code = code
        self.qr = qr
        self.paused = paused
        self.selected = selected
        self.status = status
    }

    private static let ink = RGB(hex: 0xE0E0E0)
    private static let accent = RGB(hex: 0xFFD75F)
    private static let quiet = RGB(hex: 0x9E9E9E)

    /// The text lines beside (or under) the QR code, top to bottom.
    func textLines() -> [(text: String, role: RowKind, color: RGB)] {
        var lines: [(String, RowKind, RGB)] = [
            ("Sing with us: open", .notice, Self.quiet),
            (address, .title, Self.accent),
            ("room code \(code)", .title, Self.accent),
            ("", .blank, Self.ink),
        ]
        if paused { lines.append(("requests are paused", .notice, Self.quiet)) }
        if upNext.isEmpty {
            lines.append(("Nothing queued yet: request a song", .notice, Self.ink))
        } else {
            lines.append(("Up next", .notice, Self.quiet))
            for (index, entry) in upNext.prefix(Self.listed).enumerated() {
                let mark = index == selected ? "▸ " : "  "
                lines.append(
                    (
                        "\(mark)\(index + 1). \(ControlCharacters.strip(entry.singer)) — \(ControlCharacters.strip(entry.song))",
                        .lyric, index == 0 ? Self.accent : Self.ink
                    ))
            }
            if upNext.count > Self.listed {
                lines.append(("   and \(upNext.count - Self.listed) more", .notice, Self.quiet))
            }
        }
        if !best.isEmpty {
            lines.append(("", .blank, Self.ink))
            lines.append(("Best tonight", .notice, Self.quiet))
            for (index, entry) in best.prefix(3).enumerated() {
                let score = entry.best.map { Self.grouped($0) } ?? "–"
                let songs = entry.songsSung == 1 ? "1 song" : "\(entry.songsSung) songs"
                lines.append(("  \(index + 1). \(entry.singer.shown)  \(score) · \(songs)", .lyric, Self.ink))
            }
        }
        return lines.map { ($0.0, $0.1, $0.2) }
    }

    /// `8450` as `8,450`: scores read as the score card writes them.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return (value < 0 ? "-" : "") + result
    }

    /// The card on a `columns` × `rows` screen: the QR code on the left with the text beside it when both fit,
    /// else the code above the text, else the text alone; the status row at the bottom.
    public func frame(columns: Int, rows: Int) -> Frame {
        let columns = max(1, columns), rows = max(1, rows)
        var screen = [FrameRow](repeating: .blank, count: rows)
        let room = max(0, rows - 1)
        let gap = 3
        // The text needs this much room to be read: the address whole.
        let textWidth = max(24, DisplayWidth.of(address) + 2)
        var lines = textLines()
        var code: QRCodeCells?
        var textLeft = 2, textTop = 0
        if let qr, let beside = QRCodeCells.fitting(qr, columns: columns - textWidth - gap - 2, rows: room) {
            code = beside
            let block = beside.columns + gap + textWidth
            let left = max(0, (columns - block) / 2)
            let top = max(0, (room - beside.rowCount) / 2)
            for (offset, row) in beside.rows(from: left).enumerated() where top + offset < room {
                screen[top + offset] = row
            }
            textLeft = left + beside.columns + gap
            textTop = max(0, (room - lines.count) / 2)
        } else if let qr, let above = QRCodeCells.fitting(qr, columns: columns, rows: room - lines.count - 1) {
            code = above
            let left = max(0, (columns - above.columns) / 2)
            let top = max(0, (room - above.rowCount - 1 - lines.count) / 2)
            for (offset, row) in above.rows(from: left).enumerated() { screen[top + offset] = row }
            textTop = top + above.rowCount + 1
            textLeft = max(0, (columns - textWidth) / 2)
        } else {
            textTop = max(0, (room - lines.count) / 2)
            textLeft = max(0, min(2, columns - 1))
        }
        if code == nil && qr != nil {
            lines.insert(("(the QR code needs a larger terminal)", .notice, Self.quiet), at: 3)
        }
        for (offset, line) in lines.enumerated() where textTop + offset < room && line.role != .blank {
            var row = screen[textTop + offset]
            let cells = FrameComposer.cells(
                of: ControlCharacters.strip(line.text), from: textLeft, limit: columns, role: line.role,
                color: line.color)
            // Beside the code the text keeps to its own columns; the code's cells stay.
            row.cells = row.cells.filter { $0.column < textLeft } + cells
            if row.kind == .blank { row.kind = line.role }
            screen[textTop + offset] = row
        }
        screen[rows - 1] = FrameRow(
            kind: .status,
            cells: FrameComposer.cells(
                of: ControlCharacters.strip(status), from: 0, limit: columns, role: .status, color: Self.quiet))
        return Frame(time: 0, columns: columns, rows: screen)
    }
}
