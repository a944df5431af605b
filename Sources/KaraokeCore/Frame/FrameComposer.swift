/// Composes the frame for a moment: (song, time, screen size, options) → `Frame` (DESIGN §4).
///
/// Lines are laid out the first time they come into view and kept, so composing a frame copies the
/// rows of the lines on screen (sung or unsung, already built) and computes fills only for the current
/// line and colours only for the title. Make a new composer when the size or the layout options change.
public struct FrameComposer {
    /// The smallest screen the player lays lyrics out on; below it a notice is shown.
    public static let minimumColumns = 12
    /// The smallest height: title, three lyric rows, status.
    public static let minimumRows = 5

    /// What fills the lyric area.
    public let content: LyricsContent
    /// The song whose clock the frames follow: the timed song, or for plain lyrics and messages a song
    /// without lines, each lasting at least the length the composer was given.
    public let song: Song
    /// The title row's text: `ti — ar`, else the file name.
    public let title: String
    /// Screen width.
    public let columns: Int
    /// Screen height.
    public let rows: Int
    /// The options the frames honour; for a change, make a new composer. Reduce motion and the user
    /// offset, which the keys change while a screen runs, are read from here only by `frame(at:…)`:
    /// `frame(_:)` takes them from its input, so there is no copy to keep in step.
    public let options: FrameOptions

    let areaStart: Int
    let areaWidth: Int
    private var layouts: [LineLayout?]
    /// Whether `layouts` hold romanization rows: `options.showsRomanization` unless `t` hid them (DESIGN §29.3).
    private var layoutsShowRomanization = true
    /// The size the lyrics are drawn at (the options' size resolved for this screen and song): 1 for text.
    public let bigSize: Int
    /// Whether the options ask for big glyphs here but the font is missing, so the lyrics are text.
    public let bigFontMissing: Bool
    /// The font of the big glyphs, while `bigSize` is 2 or more.
    let bigFont: BitmapFont?
    /// Each line laid out in big glyphs at `bigSize`, as it comes into view.
    var bigLayouts: [BigLineLayout?]
    /// Each line laid out as text in the narrow area of `bigSize` (DESIGN §23.2).
    var narrowLayouts: [LineLayout?]
    /// The last status row, kept while what its text shows stays the same: the text changes about once a
    /// second, the frame thirty times, and building it was a sixth of `play`'s work.
    private var lastStatus: (key: StatusKey, barWidth: Int, filled: Int, row: FrameRow)?
    private let titleCells: [FrameCell]
    private let titleWidth: Int
    /// Whether the title reads right to left (it never changes, so it is found once).
    private let titleIsRightToLeft: Bool
    /// The title row last made and the drift it was made at: the drift moves ten steps a second, the
    /// frames come thirty, so two frames in three reuse it.
    private var lastTitle: (shift: Double, row: FrameRow)?
    /// The last frame of timed text, what placed its lyric rows, and the row its count-in took: the next
    /// frame with the same key differs only in the current line's rows, the title, lanes, status and count-in.
    /// (Internal, not private, so a test can drop it and compare with a frame placed from scratch.)
    var lastLyricRows: (key: LyricRowsKey, rows: [FrameRow], countInRow: Int?)?
    /// Whether two parts or more sing (each is then drawn in its own ink).
    private let isDuet: Bool
    /// The lines' base direction when the file says its language, else nil: each line's first strong
    /// character (DESIGN §3.5).
    let baseDirection: TextDirection?
    /// The note lanes while scoring (DESIGN §15.3); nil otherwise.
    public let lanes: NoteLanes?
    /// The rows the note lanes take under the title: 0 without lanes or on a screen too short for them.
    let laneRows: Int
    /// Plain lyrics laid out in pages, or a message laid out, at this size; empty for timed lyrics.
    let untimed: UntimedLayout

    /// Blank rows between two lines, so a wrapped line reads as one.
    static let lineGap = 1

    /// Milliseconds the view takes to glide to a line that has just started.
    static let scrollDuration = 250.0

    /// Prepares to compose frames of `song` on a `columns` × `rows` screen.
    ///
    /// - Parameter lanes: the notes and the singers' parts while scoring: the note lanes are drawn above the
    ///   lyrics when the screen has room (DESIGN §15.3).
    public init(
        song: Song, fallbackTitle: String, columns: Int, rows: Int, options: FrameOptions, lanes: NoteLanes? = nil
    ) {
        self.init(
            content: .timed(song), fallbackTitle: fallbackTitle, columns: columns, rows: rows, options: options,
            lanes: lanes)
    }

    /// Prepares to compose frames of `content` on a `columns` × `rows` screen (DESIGN §4).
    ///
    /// - Parameter length: the audio's length in milliseconds, when known: the song lasts at least that
    ///   long, so the status bar's total and the plain lyrics' pages follow the audio (DESIGN §2).
    /// - Parameter lanes: the notes and the singers' parts while scoring; drawn for timed lyrics on a screen
    ///   with room for them (DESIGN §15.3).
    public init(
        content: LyricsContent, fallbackTitle: String, columns: Int, rows: Int, options: FrameOptions,
        length: Int? = nil, lanes: NoteLanes? = nil
    ) {
        self.content = content
        // `--romanize` makes readings here, where every screen's song passes (DESIGN §29.4).
        let timedSong = content.song(lastingAtLeast: length)
        let song =
            options.romanizes && options.showsRomanization
            ? timedSong.romanized(by: options.romanizers.list) : timedSong
        self.song = song
        self.title = ControlCharacters.strip(song.metadata.displayTitle ?? fallbackTitle)
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        self.options = options
        let margin = columns >= 24 ? 2 : 0
        areaStart = margin
        areaWidth = max(1, columns - 2 * margin)
        layouts = Array(repeating: nil, count: song.lines.count)
        layoutsShowRomanization = options.showsRomanization
        isDuet = song.partCount >= 2
        baseDirection = song.metadata.language.flatMap(TextDirection.declared(byLanguage:))
        self.lanes = lanes
        if case .timed = content, let lanes, self.columns >= FrameComposer.minimumColumns {
            laneRows = lanes.totalRows(screenRows: self.rows)
        } else {
            laneRows = 0
        }
        (titleCells, titleWidth) = FrameComposer.layOutTitle(
            title, columns: self.columns, graphemes: options.graphemes, bidi: options.bidi)
        titleIsRightToLeft = TextDirection.of(title) == .rightToLeft
        untimed = UntimedLayout(
            content: content, areaStart: areaStart, areaWidth: areaWidth, rows: self.rows, options: options)
        var size = 1
        if case .timed = content, self.columns >= FrameComposer.minimumColumns, self.rows >= FrameComposer.minimumRows {
            size = FrameComposer.resolvedSize(
                options.size, song: song, cells: options.bigCells, areaWidth: areaWidth,
                height: self.rows - 2 - laneRows)
        }
        // The font is asked for only here, and only for a size of 2 or more: read on first use.
        let font = size >= 2 ? options.bigFont?.font : nil
        bigFontMissing = size >= 2 && font == nil
        if font == nil { size = 1 }
        bigSize = size
        bigFont = font
        bigLayouts = Array(repeating: nil, count: size >= 2 ? song.lines.count : 0)
        narrowLayouts = Array(repeating: nil, count: size >= 2 ? song.lines.count : 0)
    }

    /// Whether the screen is too small to lay the lyrics out.
    public var isTooSmall: Bool { columns < FrameComposer.minimumColumns || rows < FrameComposer.minimumRows }

    /// The frame at `time` seconds of playback, with the options' user offset and reduce motion (`render`'s
    /// frame).
    ///
    /// - Parameters:
    ///   - titleTime: the clock the title gradient drifts on (the player's wall clock); `time` if nil.
    ///   - paused: shown in the status bar; the view does not glide to a new line while paused.
    ///   - showsHelp: draws `play`'s key list over the lyrics (its first page).
    ///   - notice: a short message for the status bar, in place of the key hints.
    ///   - singers: each singer's progress while scoring: the lanes' hits and trail, the score in the status
    ///     bar (DESIGN §15.3, §15.4).
    public mutating func frame(
        at time: Double, titleTime: Double? = nil, paused: Bool = false,
        showsHelp: Bool = false, notice: String? = nil, singers: [SingerProgress] = []
    ) -> Frame {
        frame(
            FrameInput(
                time: time, titleTime: titleTime, paused: paused, help: showsHelp ? PlayerAction.help : nil,
                notice: notice, userOffset: options.userOffset, reduceMotion: options.reduceMotion, singers: singers))
    }

    /// The frame that shows `input`: every screen's frame comes through here.
    public mutating func frame(_ input: FrameInput) -> Frame {
        guard !isTooSmall else { return noticeFrame(time: input.time) }
        let showsRomanization = options.showsRomanization && !input.hidesRomanization
        if showsRomanization != layoutsShowRomanization {
            // The rows under each line change: every layout is made again.
            layoutsShowRomanization = showsRomanization
            layouts = Array(repeating: nil, count: layouts.count)
            bigLayouts = Array(repeating: nil, count: bigLayouts.count)
            lastLyricRows = nil
        }
        var frame = lyricFrame(
            at: input.time, titleTime: input.titleTime, paused: input.paused, notice: input.notice,
            userOffset: input.userOffset, reduceMotion: input.reduceMotion, singing: input.singing,
            singers: input.singers, picture: input.picture)
        if let selected = input.selectedLine { markSelected(selected, in: &frame) }
        if let help = input.help {
            draw(HelpBox(entries: help, columns: columns, rows: rows), page: input.helpPage, over: &frame)
        }
        return frame
    }

    /// How many pages the help box of `entries` has on this screen: the key that turns the last one closes it.
    public func helpPageCount(for entries: [HelpEntry]) -> Int {
        HelpBox(entries: entries, columns: columns, rows: rows).pageCount
    }

    private mutating func lyricFrame(
        at time: Double, titleTime: Double?, paused: Bool, notice: String?,
        userOffset: Int, reduceMotion: Bool, singing: String?, singers: [SingerProgress], picture: PictureCells?
    ) -> Frame {
        let title = titleRow(at: titleTime ?? time, still: reduceMotion)
        let status = statusRow(
            at: time, paused: paused, notice: notice, userOffset: userOffset, singing: singing,
            score: scoreSegments(of: singers, at: time, userOffset: userOffset))
        let fresh = { [rows] in FrameComposer.blankScreen(rows: rows, title: title, status: status) }
        switch content {
        case .timed: break
        case .plain, .message:
            var screen = fresh()
            untimed.draw(at: time, duration: Double(song.duration) / 1000, into: &screen)
            return Frame(time: time, columns: columns, rows: screen)
        case .graphics:
            var screen = fresh()
            if let picture { draw(picture, into: &screen) }
            return Frame(time: time, columns: columns, rows: screen)
        }
        guard !song.lines.isEmpty else { return Frame(time: time, columns: columns, rows: fresh()) }

        let fileTime = LyricClock.fileTime(playback: time, song: song, userOffset: userOffset)
        if bigSize >= 2 {
            var screen = fresh()
            drawLanes(at: fileTime, singers: singers, reduceMotion: reduceMotion, into: &screen)
            drawBig(at: fileTime, reduceMotion: reduceMotion, into: &screen, top: 1 + laneRows, bottom: rows - 1)
            var frame = Frame(time: time, columns: columns, rows: screen)
            frame.size = bigSize
            return frame
        }
        let current = LyricClock.currentLine(in: song, at: fileTime)
        let anchor = current ?? 0
        // Lyric rows are top..<bottom, under the note lanes when they are shown.
        let top = 1 + laneRows, bottom = rows - 1
        let height = bottom - top
        if layouts[anchor] == nil { _ = layout(anchor) }
        let anchorHeight = layouts[anchor]!.height
        // The current line near 40 % of the viewport, moved up if it would not fit below.
        let anchorTarget = top + Int(Double(height) * 0.4)
        var anchorRow = max(top, min(anchorTarget, bottom - anchorHeight))
        let currentRows = current.map { sweptRows(of: $0, at: fileTime, reduceMotion: reduceMotion) }
        // A line taller than the room for it scrolls within itself: once the row being sung passes the
        // 40 % mark it stays there, and the rows above go off the top.
        if let currentRows, anchorRow + anchorHeight > bottom {
            let sweeping = currentRows.firstIndex { $0.contains { $0.fill < 1 } } ?? currentRows.count - 1
            anchorRow = min(anchorRow, anchorTarget - sweeping)
        }
        // Just after a line starts, the view glides up from where the previous line sat (none under
        // reduce motion). A function of the song's time, so `render` shows the same frame `play` does;
        // not while paused, or a pause just after a line starts (a seek to it, say) would freeze mid-glide.
        if let current, current > 0, !reduceMotion, !paused {
            let since = fileTime - Double(song.lines[current].start)
            if since >= 0 && since < FrameComposer.scrollDuration {
                let progress = since / FrameComposer.scrollDuration
                let remaining = (1 - progress) * (1 - progress) // ease out
                let distance = layout(current - 1).height + FrameComposer.lineGap
                anchorRow = min(bottom - 1, anchorRow + Int((remaining * Double(distance)).rounded()))
            }
        }

        let currentReading = current.flatMap { sweptRomanization(of: $0, at: fileTime, reduceMotion: reduceMotion) }
        let key = LyricRowsKey(current: current, anchorRow: anchorRow)
        var screen: [FrameRow]
        // While the sweep moves within a line that stays put, only that line's rows change: the last frame's
        // rows are taken back (their storage is the composer's alone once that frame is painted and gone)
        // and only the current line's rows, the title, lanes, status and count-in are put in (DESIGN §17.2).
        if let current, let currentRows, currentReading == nil, lastLyricRows?.key == key,
            let last = lastLyricRows.take()
        {
            screen = last.rows
            if let row = last.countInRow { screen[row] = .blank }
            screen[0] = title
            screen[rows - 1] = status
            let rightToLeft = layouts[current]!.direction == .rightToLeft
            for (offset, cells) in currentRows.enumerated() where (top..<bottom).contains(anchorRow + offset) {
                screen[anchorRow + offset] = FrameRow(
                    kind: .lyric, line: current, cells: cells, isRightToLeft: rightToLeft)
            }
        } else {
            screen = fresh()
            place(
                anchor, at: anchorRow, current: current, currentRows: currentRows, currentReading: currentReading,
                into: &screen, top: top, bottom: bottom)
            var row = anchorRow
            var index = anchor - 1
            while index >= 0, row > top {
                row -= layout(index).height + FrameComposer.lineGap
                place(index, at: row, current: current, currentRows: nil, into: &screen, top: top, bottom: bottom)
                index -= 1
            }
            row = anchorRow + anchorHeight + FrameComposer.lineGap
            index = anchor + 1
            while index < song.lines.count, row < bottom {
                place(index, at: row, current: current, currentRows: nil, into: &screen, top: top, bottom: bottom)
                row += layout(index).height + FrameComposer.lineGap
                index += 1
            }
        }
        drawLanes(at: fileTime, singers: singers, reduceMotion: reduceMotion, into: &screen)
        var countInRow: Int?
        if options.countIn, let countIn = CountIn.at(fileTime, in: song, current: current, reduceMotion: reduceMotion) {
            countInRow = drawCountIn(countIn, into: &screen, top: top)
        }
        // A current line whose reading is swept as well changes rows besides its own: not kept.
        lastLyricRows = currentReading == nil ? (key, screen, countInRow) : nil
        return Frame(time: time, columns: columns, rows: screen)
    }

    /// `rows` blank rows under `title`, above `status`.
    private static func blankScreen(rows: Int, title: FrameRow, status: FrameRow) -> [FrameRow] {
        var screen = [FrameRow](repeating: .blank, count: rows)
        screen[0] = title
        screen[rows - 1] = status
        return screen
    }

    /// Draws the note lanes under the title while scoring (DESIGN §15.3).
    private func drawLanes(
        at fileTime: Double, singers: [SingerProgress], reduceMotion: Bool, into screen: inout [FrameRow]
    ) {
        guard let lanes, laneRows > 0 else { return }
        // Kept rows hold the last frame's lanes, and a beat the lanes cannot draw draws nothing.
        for row in 1..<min(1 + laneRows, rows) { screen[row] = .blank }
        lanes.draw(
            at: fileTime, singers: singers, into: &screen, top: 1, areaStart: areaStart, areaWidth: areaWidth,
            theme: options.theme, restOpacity: options.restOpacity, reduceMotion: reduceMotion)
    }

    /// What the lyric rows of a frame of timed text depend on besides the current line's fills: which line
    /// is current (lines before it are drawn sung) and the row it starts on.
    struct LyricRowsKey: Equatable {
        var current: Int?
        var anchorRow: Int
    }

    /// Marks each row of line `index` on screen with `▸` two cells before it and `◂` two cells after it,
    /// in gold, where the row leaves room: `sync`'s selected line, whatever its fill (DESIGN §13.1).
    private func markSelected(_ index: Int, in frame: inout Frame) {
        for row in frame.rows.indices where frame.rows[row].kind == .lyric && frame.rows[row].line == index {
            var cells = frame.rows[row].cells
            guard let first = cells.first, let last = cells.last else { continue }
            func marker(_ glyph: Character, at column: Int) -> FrameCell {
                FrameCell(
                    column: column, grapheme: glyph, glyph: String(glyph), width: 1, role: .notice, fill: 1,
                    color: options.theme.gold, accent: options.theme.gold)
            }
            if first.column >= 2 { cells.insert(marker("▸", at: first.column - 2), at: 0) }
            let after = last.column + last.width + 1
            if after < columns { cells.append(marker("◂", at: after)) }
            frame.rows[row].cells = cells
        }
    }

    /// Draws the count-in's dots on the blank row above the line they count in, lined up as that line's
    /// first row is: from its left edge, to its right edge, or centred (DESIGN §14.3). Nothing when that
    /// row is off screen or taken. Returns the row drawn on.
    @discardableResult
    private mutating func drawCountIn(_ countIn: CountIn, into screen: inout [FrameRow], top: Int) -> Int? {
        guard let lineRow = screen.firstIndex(where: { $0.kind == .lyric && $0.line == countIn.line }),
            lineRow - 1 >= top, screen[lineRow - 1].kind == .blank,
            let first = layout(countIn.line).unsungRows.first, let left = first.first?.column,
            let last = first.last
        else { return nil }
        let right = last.column + last.width
        let width = DisplayWidth.of(CountIn.text)
        let lineOptions = options(for: song.lines[countIn.line])
        let start: Int
        switch lineOptions.alignment {
        case .left: start = left
        case .right: start = right - width
        case .center: start = (left + right - width) / 2
        }
        var cells = FrameComposer.cells(
            of: CountIn.text, from: max(0, start), limit: columns, role: .lyric, color: lineOptions.theme.foreground)
        var dot = 0
        for k in cells.indices where cells[k].grapheme != " " {
            let fill = dot < countIn.fills.count ? countIn.fills[dot] : 0
            cells[k].fill = fill
            cells[k].color = lineOptions.theme.lyric(brightness: options.restOpacity + (1 - options.restOpacity) * fill)
            dot += 1
        }
        for k in cells.indices where cells[k].grapheme == " " {
            cells[k].fill = 0
            cells[k].color = lineOptions.theme.lyric(brightness: options.restOpacity)
        }
        screen[lineRow - 1] = FrameRow(kind: .countIn, line: countIn.line, cells: cells)
        return lineRow - 1
    }

    mutating func layout(_ index: Int) -> LineLayout {
        if let cached = layouts[index] { return cached }
        var lineOptions = options(for: song.lines[index])
        lineOptions.showsRomanization = layoutsShowRomanization
        let made = LineLayout(
            line: song.lines[index], areaStart: areaStart, areaWidth: areaWidth, options: lineOptions,
            base: baseDirection)
        layouts[index] = made
        return made
    }

    /// The options a line is drawn with: in a duet (two parts or more), each part has its own ink and,
    /// centred lyrics on a screen of 60 columns or more, its own side: the first part left, the second
    /// right, everyone together in the middle.
    func options(for line: LyricLine) -> FrameOptions {
        guard isDuet, let voice = line.voice else { return options }
        var lineOptions = options
        lineOptions.theme = lyricTheme(for: line)
        if options.alignment == .center && columns >= 60 {
            switch voice {
            case .part(let n): lineOptions.alignment = n % 2 == 0 ? .left : .right
            case .together: break
            }
        }
        return lineOptions
    }

    /// The current line's rows with each grapheme's fill and colour at `fileTime`.
    private mutating func sweptRows(of index: Int, at fileTime: Double, reduceMotion: Bool) -> [[FrameCell]] {
        // Read in place, not through `layout(_:)` and `options(for:)`: copying a whole layout and the
        // options for every frame showed in the profile of `play`.
        if layouts[index] == nil { _ = layout(index) }
        var lineRows = layouts[index]!.unsungRows
        let theme = lyricTheme(for: song.lines[index])
        let fills = LineFill.fills(
            of: song.lines[index], slots: layouts[index]!.slots, totalCells: layouts[index]!.totalCells,
            segmentCells: layouts[index]!.segmentCells, at: fileTime, cap: song.sweepCap,
            reduceMotion: reduceMotion)
        let rest = options.restOpacity
        var slot = 0
        for r in lineRows.indices {
            for c in lineRows[r].indices {
                let fill = fills[slot]
                if fill > 0 {
                    lineRows[r][c].fill = fill
                    lineRows[r][c].color = theme.lyric(brightness: rest + (1 - rest) * fill)
                }
                slot += 1
            }
        }
        return lineRows
    }

    /// The theme a line is drawn in (its part's ink in a duet), without copying the options: the sweep reads
    /// it every frame, and `options(for:)` takes it from here.
    private func lyricTheme(for line: LyricLine) -> Theme {
        guard isDuet, let voice = line.voice else { return options.theme }
        var theme = options.theme
        theme.foreground = options.theme.ink(for: voice)
        return theme
    }

    /// Line `index`'s word-timed romanization rows at `fileTime`, swept with their words from the
    /// translations' dimness to full; nil when its romanization is not word-timed (DESIGN §29.3).
    private mutating func sweptRomanization(of index: Int, at fileTime: Double, reduceMotion: Bool) -> [[FrameCell]]? {
        guard let timed = layout(index).timedRomanization.first else { return nil }
        var rows = timed.layout.unsungRows
        let theme = options(for: song.lines[index]).theme
        let fills = LineFill.fills(
            of: timed.line, slots: timed.layout.slots, totalCells: timed.layout.totalCells,
            segmentCells: timed.layout.segmentCells, at: fileTime, cap: song.sweepCap, reduceMotion: reduceMotion)
        let dim = LineLayout.translationBrightness(options)
        var slot = 0
        for r in rows.indices {
            for c in rows[r].indices {
                let fill = fills[slot]
                rows[r][c].fill = fill
                if fill > 0 { rows[r][c].color = theme.lyric(brightness: dim + (1 - dim) * fill) }
                slot += 1
            }
        }
        return rows
    }

    /// Writes line `index`'s rows from screen row `firstRow`, clipped to the viewport: sung before the
    /// current line, `currentRows` for it, unsung after it; a word-timed romanization likewise, with
    /// `currentReading` for the current line.
    private mutating func place(
        _ index: Int, at firstRow: Int, current: Int?, currentRows: [[FrameCell]]?,
        currentReading: [[FrameCell]]? = nil, into screen: inout [FrameRow], top: Int, bottom: Int
    ) {
        let laid = layout(index)
        let lineRows: [[FrameCell]]
        if let current, index < current {
            lineRows = laid.sungRows
        } else if index == current, let currentRows {
            lineRows = currentRows
        } else {
            lineRows = laid.unsungRows
        }
        for (offset, cells) in lineRows.enumerated() {
            let row = firstRow + offset
            guard row >= top && row < bottom else { continue }
            screen[row] = FrameRow(
                kind: .lyric, line: index, cells: cells, isRightToLeft: laid.direction == .rightToLeft)
        }
        var readingRows: [[FrameCell]]? = nil
        if index == current, let currentReading {
            readingRows = currentReading
        } else if let current, index < current, let timed = laid.timedRomanization.first {
            let sung = options(for: song.lines[index]).theme.lyric(brightness: 1)
            readingRows = timed.layout.sungRows.map { row in
                row.map { cell in
                    var cell = cell
                    cell.color = sung
                    return cell
                }
            }
        }
        for (offset, cells) in laid.translationRows.enumerated() {
            let row = firstRow + lineRows.count + offset
            guard row >= top && row < bottom else { continue }
            let swept = offset < laid.romanizationRowCount ? readingRows?[offset] : nil
            screen[row] = FrameRow(
                kind: .translation, line: index, cells: swept ?? cells,
                isRightToLeft: laid.translationDirections[offset] == .rightToLeft)
        }
    }

    private mutating func titleRow(at time: Double, still: Bool) -> FrameRow {
        let shift = options.gradient.shift(at: time, still: still)
        if let lastTitle, lastTitle.shift == shift { return lastTitle.row }
        var cells = titleCells
        let width = Double(max(1, titleWidth))
        let start = cells.first?.column ?? 0
        for k in cells.indices {
            let u = (Double(cells[k].column - start) + Double(cells[k].width) / 2) / width
            cells[k].color = options.gradient.color(at: u, shift: shift)
        }
        let row = FrameRow(kind: .title, cells: cells, isRightToLeft: titleIsRightToLeft)
        lastTitle = (shift, row)
        return row
    }

    /// What the status text depends on besides the progress bar's played cells (the width and the total
    /// are the composer's own).
    private struct StatusKey: Equatable {
        /// The whole seconds of the elapsed time shown.
        var seconds: Int
        /// Whether playback is paused.
        var paused: Bool
        /// The user offset in milliseconds.
        var userOffset: Int
        /// The notice in the hints' place.
        var notice: String?
        /// The singer's key, tempo and vocals, when changed.
        var singing: String?
        /// The running score and the last line's grade while scoring.
        var score: [StatusBar.ScoreSegment]
    }

    /// The status row at `time`, built again only when its text would change: a different second, pause,
    /// offset or notice, or another played cell of the bar (DESIGN §4).
    private mutating func statusRow(
        at time: Double, paused: Bool, notice: String?, userOffset: Int, singing: String?,
        score: [StatusBar.ScoreSegment] = []
    ) -> FrameRow {
        let total = max(0, Double(song.duration) / 1000)
        let shown = StatusBar.shownElapsed(time, total: total)
        let key = StatusKey(
            seconds: StatusBar.wholeSeconds(shown), paused: paused, userOffset: userOffset,
            notice: notice, singing: singing, score: score)
        if let lastStatus, lastStatus.key == key,
            StatusBar.filledCells(elapsed: shown, total: total, width: lastStatus.barWidth) == lastStatus.filled
        {
            return lastStatus.row
        }
        let scoreText = score.isEmpty ? nil : score.map(\.text).joined(separator: "  ")
        let (text, barWidth, scoreStart) = StatusBar.layOut(
            elapsed: time, total: total, paused: paused, userOffset: userOffset,
            width: columns, notice: notice, singing: singing, queuePosition: options.queuePosition,
            score: scoreText)
        var cells = FrameComposer.cells(
            of: text, from: 0, limit: columns, role: .status, color: options.theme.status)
        if let scoreStart { colorScore(score, from: scoreStart, cells: &cells) }
        let row = FrameRow(kind: .status, cells: cells)
        lastStatus = (key, barWidth, StatusBar.filledCells(elapsed: shown, total: total, width: barWidth), row)
        return row
    }

    /// Page `page` of `box` (the last when past it) centred over the lyric rows, with the box's name and
    /// page in its top border and what the next key does in its bottom one.
    private func draw(_ box: HelpBox, page: Int, over frame: inout Frame) {
        let page = max(0, min(page, box.pageCount - 1))
        let color = options.theme.foreground
        func row(_ cells: [FrameCell]) -> FrameRow {
            FrameRow(kind: .notice, cells: fillGaps(cells, role: .notice, color: color))
        }
        guard box.isBordered else {
            // A short screen: the heading, then the keys, on the whole width of the lyric rows.
            let footer = box.footer(page: page, width: columns - DisplayWidth.of(box.heading(page: page)) - 2)
            var heading = box.heading(page: page) + (footer.isEmpty ? "" : "  " + footer)
            heading += String(repeating: " ", count: max(0, columns - DisplayWidth.of(heading)))
            frame.rows[1] = row(FrameComposer.cells(of: heading, from: 0, limit: columns, role: .notice, color: color))
            let text = box.pages[page]
            for index in 0..<min(box.innerHeight, rows - 3) {
                let line = index < text.count ? text[index] : ""
                let padded = line + String(repeating: " ", count: max(0, columns - DisplayWidth.of(line)))
                frame.rows[2 + index] = row(
                    FrameComposer.cells(of: padded, from: 0, limit: columns, role: .notice, color: color))
            }
            return
        }
        let inner = box.innerWidth + 2 * box.padding
        let left = max(0, (columns - inner - 2) / 2)
        let height = box.innerHeight + 2
        let top = 1 + max(0, (rows - 2 - height) / 2)
        func border(_ ends: (String, String), words: String) -> FrameRow {
            // `┌─ Keys 1/3 ───┐`: the words after one line cell, when they fit with a space either side.
            var line: String
            if !words.isEmpty, DisplayWidth.of(words) + 3 <= inner {
                line = "─ " + words + " "
            } else if !words.isEmpty, DisplayWidth.of(words) <= inner {
                line = words
            } else {
                line = ""
            }
            line += String(repeating: "─", count: max(0, inner - DisplayWidth.of(line)))
            return row(
                FrameComposer.cells(
                    of: ends.0 + line + ends.1, from: left, limit: columns, role: .notice, color: color))
        }
        guard top + height <= rows - 1 else { return }
        frame.rows[top] = border(("┌", "┐"), words: box.heading(page: page))
        let text = box.pages[page]
        for index in 0..<box.innerHeight {
            let pad = String(repeating: " ", count: box.padding)
            var cells = FrameComposer.cells(of: "│" + pad, from: left, limit: columns, role: .notice, color: color)
            if index < text.count {
                cells += FrameComposer.cells(
                    of: text[index], from: left + 1 + box.padding, limit: left + 1 + inner - box.padding,
                    role: .notice, color: color)
            }
            cells += FrameComposer.cells(
                of: pad + "│", from: left + 1 + inner - box.padding, limit: columns, role: .notice, color: color)
            frame.rows[top + 1 + index] = row(cells)
        }
        frame.rows[top + height - 1] = border(("└", "┘"), words: box.footer(page: page, width: inner - 3))
    }

    /// `cells` with spaces in the gaps between them, so an overlay hides what is under it.
    private func fillGaps(_ cells: [FrameCell], role: RowKind, color: RGB) -> [FrameCell] {
        var result: [FrameCell] = []
        var column = cells.first?.column ?? 0
        for cell in cells {
            while column < cell.column {
                result.append(
                    FrameCell(
                        column: column, grapheme: " ", glyph: " ", width: 1, role: role, fill: 1,
                        color: color))
                column += 1
            }
            result.append(cell)
            column = cell.column + cell.width
        }
        return result
    }

    private func noticeFrame(time: Double) -> Frame {
        var screen = [FrameRow](repeating: .blank, count: rows)
        let notice = columns >= 20 ? "terminal too small" : "too small"
        let cells = FrameComposer.cells(
            of: notice, from: max(0, (columns - notice.count) / 2), limit: columns,
            role: .notice, color: options.theme.foreground)
        screen[rows / 2] = FrameRow(kind: .notice, cells: cells)
        return Frame(time: time, columns: columns, rows: screen)
    }

    /// The title centred, in visual order, cut with "…" when it is wider than the screen; emoji sequences
    /// painted in `graphemes`' form (DESIGN §3.6).
    static func layOutTitle(
        _ title: String, columns: Int, graphemes: GraphemeForm = .reduced, bidi: BidiChoice = .simple
    ) -> (cells: [FrameCell], width: Int) {
        let available = max(1, columns - 2)
        let placed = LineLayout.place(
            title, areaStart: 0, areaWidth: Int.max / 2, alignment: .left, graphemes: graphemes, bidi: bidi)
        var row = placed.rows.first ?? []
        var width = row.last.map { $0.rowOffset + $0.glyph.width } ?? 0
        if width > available {
            row = Array(row.prefix { $0.rowOffset + $0.glyph.width <= available - 1 })
            width = (row.last.map { $0.rowOffset + $0.glyph.width } ?? 0) + 1
            row.append(
                LineLayout.PlacedGrapheme(
                    index: 0, character: "…", glyph: TerminalGlyph(text: "…", width: 1),
                    column: width - 1, rowOffset: width - 1, rowWidth: width))
        }
        let start = max(0, (columns - width) / 2)
        let cells = row.map {
            FrameCell(
                column: start + $0.rowOffset, grapheme: $0.character, glyph: $0.glyph.text, width: $0.glyph.width,
                role: .title, fill: 1, color: RGB(hex: 0xFFFFFF))
        }
        return (cells, width)
    }

    /// Cells for plain text from `column`, stopping at `limit`.
    static func cells(of text: String, from column: Int, limit: Int, role: RowKind, color: RGB) -> [FrameCell] {
        var cells: [FrameCell] = []
        var x = column
        for character in text {
            let glyph = DisplayWidth.glyph(character)
            guard glyph.width > 0 else { continue }
            if x + glyph.width > limit { break }
            cells.append(
                FrameCell(
                    column: x, grapheme: character, glyph: glyph.text, width: glyph.width, role: role,
                    fill: 1, color: color))
            x += glyph.width
        }
        return cells
    }
}
