/// Turns frames into the bytes a terminal needs to show them, sending only what a person can see change
/// (DESIGN §9).
///
/// It keeps what the terminal shows (one `ScreenRow` per row: each cell's glyph and its colour as the
/// terminal renders it at its depth), where the cursor is and the pen (weight and colour) the terminal
/// draws with. For each new frame it writes, top to bottom and left to right, only the cells whose glyph
/// or shown colour changed; a cell right after the previous one written needs no cursor move (and a short
/// gap of unchanged cells in the pen already set is written again when that is shorter than a move), and a
/// cell drawn with the pen already set needs no attribute change. Every move and change is the shortest
/// the terminal's terminfo entry offers (`TerminalCodes`), and nothing is reset at the end of a frame: the
/// pen carries over to the next one.
///
/// The bytes it writes for a run of frames are the floor that `make bench` compares the player with: a
/// painter cannot show the same frames on the same terminal in fewer bytes without rewriting cells that
/// did not change.
public struct ScreenWriter {
    /// The terminal's codes.
    public let codes: TerminalCodes
    /// How many colours the terminal shows.
    public let depth: ColorDepth
    /// The terminal's width.
    public private(set) var columns: Int
    /// The terminal's height.
    public private(set) var rows: Int
    private var shown: [ScreenRow]
    /// The frame rows `shown` was made from: most rows of a frame are the composer's cached rows, which
    /// compare equal at once, so the styling pass runs only for rows that changed.
    private var sources: [FrameRow?]
    /// A row with nothing on it, at the terminal's width.
    private var blank: ScreenRow
    private var cursor: (row: Int, column: Int)?
    private var pen: TerminalCodes.Pen?

    /// A writer for a `columns` × `rows` terminal whose screen has just been cleared.
    public init(codes: TerminalCodes, depth: ColorDepth, columns: Int, rows: Int) {
        self.codes = codes
        self.depth = depth
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        shown = []
        sources = []
        blank = ScreenRow(.blank, width: max(0, columns), depth: depth)
        forgetScreen(columns: columns, rows: rows)
    }

    /// Starts again from a cleared screen of `columns` × `rows`, the cursor and the pen unknown (after a
    /// resize, a resume, or anything else that cleared the terminal).
    public mutating func forgetScreen(columns: Int, rows: Int) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        blank = ScreenRow(.blank, width: self.columns, depth: depth)
        shown = Array(repeating: blank, count: self.rows)
        sources = Array(repeating: nil, count: self.rows)
        cursor = nil
        pen = nil
    }

    /// Appends to `out` the bytes that turn what the terminal shows into `frame` (cut to the terminal's size).
    public mutating func write(_ frame: Frame, into out: inout [UInt8]) {
        var next = shown
        var changedRows = 0
        for y in 0..<min(rows, frame.rows.count) {
            let source = frame.rows[y]
            if let old = sources[y], old == source { continue }
            sources[y] = source
            let row = ScreenRow(source, width: columns, depth: depth)
            if row != shown[y] {
                next[y] = row
                changedRows += 1
            }
        }
        guard changedRows > 0 else { return }
        // When the lyrics glide, most rows show what a neighbour showed: scrolling them costs a few bytes
        // where rewriting them costs their every cell. Both ways are tried and the shorter is sent.
        if changedRows >= 2, let shift = bestShift(to: next) {
            var scrolled = self, scrolledOut: [UInt8] = []
            if scrolled.scroll(shift, into: &scrolledOut) {
                scrolled.paint(next, into: &scrolledOut)
                var plain = self, plainOut: [UInt8] = []
                plain.paint(next, into: &plainOut)
                if scrolledOut.count < plainOut.count {
                    self = scrolled
                    out += scrolledOut
                } else {
                    self = plain
                    out += plainOut
                }
                return
            }
        }
        paint(next, into: &out)
    }

    /// Writes the cells of `next` that differ from what is shown.
    private mutating func paint(_ next: [ScreenRow], into out: inout [UInt8]) {
        for y in 0..<rows where next[y] != shown[y] {
            for x in next[y].changedColumns(from: shown[y]) {
                put(next[y].columns[x], y: y, x: x, row: next[y], into: &out)
            }
            shown[y] = next[y]
        }
    }

    /// A block of rows moved as a whole: rows `top…bottom` move up by `distance` (down when negative).
    struct Shift: Equatable {
        var top: Int
        var bottom: Int
        var distance: Int
    }

    /// The vertical move that brings the most changed, non-blank rows of `next` into place, if any does.
    func bestShift(to next: [ScreenRow]) -> Shift? {
        let changed = (0..<rows).filter { next[$0] != shown[$0] && next[$0] != blank }
        guard changed.count >= 2 else { return nil }
        var best: (shift: Shift, matches: Int)?
        for distance in -(rows / 2)...(rows / 2) where distance != 0 {
            var matches = 0, low = Int.max, high = Int.min
            for y in changed where y + distance >= 0 && y + distance < rows && next[y] == shown[y + distance] {
                matches += 1
                low = min(low, y)
                high = max(high, y)
            }
            guard matches >= 2, matches > best?.matches ?? 0 else { continue }
            let shift =
                distance > 0
                ? Shift(top: low, bottom: high + distance, distance: distance)
                : Shift(top: low + distance, bottom: high, distance: distance)
            best = (shift, matches)
        }
        return best?.shift
    }

    /// Scrolls the rows of `shift` on the terminal and in what is shown; false when the terminal cannot.
    private mutating func scroll(_ shift: Shift, into out: inout [UInt8]) -> Bool {
        guard let bytes = codes.scroll(top: shift.top, bottom: shift.bottom, by: shift.distance, rows: rows) else {
            return false
        }
        // Rows scrolled in take the background that is on (on most terminals): it must be the default one.
        if let pen, pen.background != nil {
            codes.change(from: pen, to: pen.withoutBackground, into: &out)
            self.pen = pen.withoutBackground
        }
        out += bytes
        let before = shown
        for y in shift.top...shift.bottom {
            let from = y + shift.distance
            shown[y] = from >= shift.top && from <= shift.bottom ? before[from] : blank
        }
        cursor = nil // setting the region homes the cursor on most terminals, but not all
        return true
    }

    /// The bytes that turn what the terminal shows into `frame`.
    public mutating func write(_ frame: Frame) -> [UInt8] {
        var out: [UInt8] = []
        write(frame, into: &out)
        return out
    }

    /// Forgets where the cursor is, after someone else wrote to the terminal (the pixel painter, §19.9).
    public mutating func forgetCursor() {
        cursor = nil
    }

    /// Appends the bytes that leave the terminal with the plain pen and the cursor at (`row`, `column`):
    /// the state another writer of the terminal (curses) believes it in.
    public mutating func handOver(row: Int, column: Int, into out: inout [UInt8]) {
        codes.change(from: pen, to: .plain, into: &out)
        pen = .plain
        if cursor == nil || cursor! != (row, column) {
            codes.move(from: cursor, to: (row, column), into: &out)
            cursor = (row, column)
        }
    }

    /// Writes `column` at (`y`, `x`) of `row`.
    private mutating func put(_ column: ScreenRow.Column, y: Int, x: Int, row: ScreenRow, into out: inout [UInt8]) {
        let width: Int
        switch column {
        case .continuation: return
        case .empty: width = 1
        case .glyph(_, let glyphWidth, _): width = glyphWidth
        }
        // Where the last column of the last row scrolls the screen, that cell is left alone.
        if codes.scrollsAtBottomRight && y == rows - 1 && x + width >= columns { return }
        if cursor == nil || cursor! != (y, x) {
            let start = out.count
            codes.move(from: cursor, to: (y, x), into: &out)
            // A short gap of unchanged cells drawn with the pen that is on costs only their glyphs when
            // written again, which can be less than the move over them.
            let moved = out.count
            if let from = cursor, from.row == y, from.column < x, rewrite(row, from.column..<x, into: &out) {
                if out.count - moved < moved - start {
                    out.removeSubrange(start..<moved)
                } else {
                    out.removeSubrange(moved...)
                }
            }
        }
        switch column {
        case .continuation: return
        case .empty:
            // A space looks the same in any colour or weight (no underline or reverse is ever set), so it
            // keeps whatever pen is on, unless that pen has a background (a picture's).
            if pen == nil || pen!.background != nil {
                let next = pen?.withoutBackground ?? .plain
                codes.change(from: pen, to: next, into: &out)
                pen = next
            }
            out.append(0x20)
            cursor = x + 1 < columns ? (y, x + 1) : nil
        case .glyph(let glyph, _, let style):
            let next = style.pen(depth: depth)
            if pen != next {
                codes.change(from: pen, to: next, into: &out)
                pen = next
            }
            out += glyph.utf8
            // After the last column the cursor waits to wrap, which terminals handle differently; and a
            // glyph of several scalars (a flag) may advance differently on some terminals: move explicitly next.
            let single = glyph.unicodeScalars.count == 1
            cursor = x + width < columns && single ? (y, x + width) : nil
        }
    }

    /// Appends the bytes that draw `row`'s columns `gap` again with the pen that is on, when they are at most
    /// four narrow cells of one scalar each that this pen draws as they are (spaces in any pen without a background); otherwise
    /// appends nothing and gives false.
    private func rewrite(_ row: ScreenRow, _ gap: Range<Int>, into out: inout [UInt8]) -> Bool {
        guard gap.count <= 4, let pen else { return false }
        let start = out.count
        for index in gap {
            switch row.columns[index] {
            case .empty where pen.background == nil: out.append(0x20)
            case .glyph(let glyph, 1, let style)
            where glyph.unicodeScalars.count == 1 && style.pen(depth: depth) == pen:
                out += glyph.utf8
            default:
                out.removeSubrange(start...)
                return false
            }
        }
        return true
    }
}
