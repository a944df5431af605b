/// Plain lyrics laid out as pages, or a message laid out, for one lyric area (DESIGN §4).
///
/// Built once per composer (so once per size): a frame only picks the page its time falls on.
struct UntimedLayout {
    /// The pages of plain lyrics, each the rows it shows from `top`; empty for a message or timed lyrics.
    private(set) var pages: [[FrameRow]] = []
    /// The row under each page saying the lyrics are not timed, and which page it is.
    private(set) var markers: [FrameRow] = []
    /// The message's rows, centred from `top`; empty for lyrics.
    private(set) var messageRows: [FrameRow] = []
    /// The screen row the pages or the message start at.
    private(set) var top = 1

    /// Lays `content` out for a lyric area `areaWidth` columns wide from `areaStart`, on a screen of
    /// `rows` rows (the title above the area, the status bar below it).
    init(content: LyricsContent, areaStart: Int, areaWidth: Int, rows: Int, options: FrameOptions) {
        let columns = areaStart * 2 + areaWidth
        switch content {
        case .timed, .graphics: return
        case .message(let text):
            let room = max(0, rows - 2)
            let placed = LineLayout.place(
                ControlCharacters.strip(text), areaStart: areaStart, areaWidth: areaWidth, alignment: .center,
                graphemes: options.graphemes, bidi: options.bidi)
            messageRows = placed.rows.prefix(room).map { row in
                FrameRow(
                    kind: .notice,
                    cells: row.map {
                        FrameCell(
                            column: $0.column, grapheme: $0.character, glyph: $0.glyph.text, width: $0.glyph.width,
                            role: .notice, fill: 1, color: options.theme.foreground)
                    }, isRightToLeft: placed.direction == .rightToLeft)
            }
            top = 1 + (room - messageRows.count) / 2
        case .plain(let plain):
            // One row of the area is the "not timed" line.
            let height = max(1, rows - 3)
            pages = UntimedLayout.pages(
                of: plain.lines, height: height, areaStart: areaStart, areaWidth: areaWidth, options: options)
            let tallest = pages.map(\.count).max() ?? 0
            top = 1 + (height - tallest) / 2
            markers = pages.indices.map { index in
                let text =
                    pages.count > 1 ? "lyrics not timed · page \(index + 1)/\(pages.count)" : "lyrics not timed"
                let width = DisplayWidth.of(text)
                return FrameRow(
                    kind: .status,
                    cells: FrameComposer.cells(
                        of: text, from: max(0, (columns - width) / 2), limit: columns, role: .status,
                        color: options.theme.status))
            }
        }
    }

    /// The page shown at `time` seconds of a song lasting `duration` seconds: page k of n from
    /// k/n × duration on, the first while the length is unknown (0).
    static func page(at time: Double, duration: Double, count: Int) -> Int {
        guard count > 1, duration > 0, time > 0 else { return 0 }
        let k = (time / duration * Double(count)).rounded(.down)
        return k.isFinite ? min(count - 1, max(0, Int(k))) : 0
    }

    /// Draws what is laid out at `time` of a song lasting `duration` seconds into the lyric rows of `screen`.
    func draw(at time: Double, duration: Double, into screen: inout [FrameRow]) {
        let bottom = screen.count - 1 // the status row
        if !messageRows.isEmpty {
            for (offset, row) in messageRows.enumerated() where top + offset < bottom { screen[top + offset] = row }
            return
        }
        guard !pages.isEmpty, bottom >= 2 else { return }
        let index = UntimedLayout.page(at: time, duration: duration, count: pages.count)
        for (offset, row) in pages[index].enumerated() where top + offset < bottom - 1 { screen[top + offset] = row }
        screen[bottom - 1] = markers[index]
    }

    /// `lines` laid out like lyric lines (wrapped, aligned, fully lit) and cut into pages of `height` rows.
    ///
    /// A line starts a new page rather than being split, unless it is taller than a page; an empty line
    /// (a break between verses) is a blank row, left out at the top or bottom of a page. There is always
    /// at least one page.
    static func pages(
        of lines: [String], height: Int, areaStart: Int, areaWidth: Int, options: FrameOptions
    ) -> [[FrameRow]] {
        var pages: [[FrameRow]] = []
        var page: [FrameRow] = []
        func turn() {
            while page.last == .blank { page.removeLast() }
            if !page.isEmpty { pages.append(page) }
            page = []
        }
        for (index, text) in lines.enumerated() {
            if text.isEmpty {
                if !page.isEmpty && page.count < height { page.append(.blank) }
                continue
            }
            let laid = LineLayout(
                line: LyricLine(start: 0, end: 0, text: text), areaStart: areaStart, areaWidth: areaWidth,
                options: options)
            let lineRows = laid.sungRows.map {
                FrameRow(kind: .lyric, line: index, cells: $0, isRightToLeft: laid.direction == .rightToLeft)
            }
            if page.count + lineRows.count > height && lineRows.count <= height { turn() }
            for row in lineRows {
                if page.count >= height { turn() }
                page.append(row)
            }
        }
        turn()
        return pages.isEmpty ? [[]] : pages
    }
}
