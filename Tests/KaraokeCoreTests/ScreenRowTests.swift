import Testing
@testable import KaraokeCore

/// A lyric row from (column, grapheme, width, fill) cells, in gray on black.
private func row(_ cells: [(column: Int, text: Character, width: Int, fill: Double)], kind: RowKind = .lyric)
    -> FrameRow
{
    FrameRow(
        kind: kind,
        cells: cells.map {
            FrameCell(
                column: $0.column, grapheme: $0.text, glyph: String($0.text), width: $0.width, role: kind,
                fill: $0.fill, color: Theme.dark.lyric(brightness: 0.35 + 0.65 * $0.fill))
        })
}

/// A title row with one cell at column 0 in `color`.
private func titleRow(_ color: RGB) -> FrameRow {
    FrameRow(
        kind: .title,
        cells: [
            FrameCell(
                column: 0, grapheme: "T", glyph: "T", width: 1, role: .title, fill: 1,
                color: color)
        ])
}

@Suite("Screen rows")
struct ScreenRowTests {
    @Test("a row has one entry per column: glyphs, continuations of wide glyphs, and empties")
    func columns() throws {
        let screen = ScreenRow(row([(1, "a", 1, 0), (2, "日", 2, 0), (5, "b", 1, 1)]), width: 8, depth: .direct)
        try #require(screen.columns.count == 8)
        #expect(screen.columns[0] == .empty)
        guard case .glyph("a", width: 1, _) = screen.columns[1] else {
            Issue.record("column 1 is \(screen.columns[1])")
            return
        }
        guard case .glyph("日", width: 2, _) = screen.columns[2] else {
            Issue.record("column 2 is \(screen.columns[2])")
            return
        }
        #expect(screen.columns[3] == .continuation)
        #expect(screen.columns[4] == .empty)
        guard case .glyph("b", width: 1, _) = screen.columns[5] else {
            Issue.record("column 5 is \(screen.columns[5])")
            return
        }
        #expect(screen.columns[6...].allSatisfy { $0 == .empty })
    }

    @Test("cells that would not fit the width are left out, a wide glyph whole")
    func clipping() {
        let screen = ScreenRow(row([(0, "a", 1, 0), (3, "日", 2, 0)]), width: 4, depth: .direct)
        #expect(screen.columns.count == 4)
        #expect(screen.columns[3] == .empty)
        #expect(!screen.columns.contains(.continuation))
    }

    @Test("the first paint sends every column but continuations")
    func firstPaint() {
        let screen = ScreenRow(row([(0, "a", 1, 0), (1, "日", 2, 0)]), width: 5, depth: .direct)
        #expect(screen.changedColumns(from: nil) == [0, 1, 3, 4])
    }

    @Test("no change sends no columns", arguments: [ColorDepth.direct, .indexed256, .basic, .none])
    func noChange(depth: ColorDepth) {
        let cells: [(column: Int, text: Character, width: Int, fill: Double)] = [
            (0, "a", 1, 1), (1, "日", 2, 0.5),
            (4, "b", 1, 0),
        ]
        let old = ScreenRow(row(cells), width: 10, depth: depth)
        let new = ScreenRow(row(cells), width: 10, depth: depth)
        #expect(new.changedColumns(from: old).isEmpty)
    }

    @Test("only the columns whose glyph or style changed are sent")
    func onlyChanged() {
        let old = ScreenRow(
            row([(0, "a", 1, 1), (1, "b", 1, 0), (2, "c", 1, 0), (3, "d", 1, 0)]), width: 6,
            depth: .direct)
        // The sweep reached "b"; "d" became "e".
        let new = ScreenRow(
            row([(0, "a", 1, 1), (1, "b", 1, 1), (2, "c", 1, 0), (3, "e", 1, 0)]), width: 6,
            depth: .direct)
        #expect(new.changedColumns(from: old) == [1, 3])
    }

    @Test("a column that empties is sent so the old glyph is cleared")
    func emptied() {
        let old = ScreenRow(row([(2, "a", 1, 0), (3, "b", 1, 0)]), width: 5, depth: .direct)
        let new = ScreenRow(row([(2, "a", 1, 0)]), width: 5, depth: .direct)
        #expect(new.changedColumns(from: old) == [3])
    }

    @Test("a wide glyph replacing two narrow ones is sent through its first column")
    func wideOverNarrow() {
        let old = ScreenRow(row([(0, "a", 1, 0), (1, "b", 1, 0)]), width: 3, depth: .direct)
        let new = ScreenRow(row([(0, "日", 2, 0)]), width: 3, depth: .direct)
        #expect(new.changedColumns(from: old) == [0])
    }

    @Test("narrow glyphs replacing a wide one are each sent, the second half included")
    func narrowOverWide() {
        let old = ScreenRow(row([(0, "日", 2, 0)]), width: 3, depth: .direct)
        let new = ScreenRow(row([(0, "a", 1, 0), (1, "b", 1, 0)]), width: 3, depth: .direct)
        #expect(new.changedColumns(from: old) == [0, 1])
        // A wide glyph that leaves clears its second half too.
        let cleared = ScreenRow(row([]), width: 3, depth: .direct)
        #expect(cleared.changedColumns(from: old) == [0, 1])
    }

    @Test("a wide glyph moving by one column repaints where it went and where it was")
    func wideMoves() {
        let old = ScreenRow(row([(1, "日", 2, 0)]), width: 5, depth: .direct)
        let new = ScreenRow(row([(2, "日", 2, 0)]), width: 5, depth: .direct)
        // Column 1 empties; column 2 starts the glyph; column 3 is its continuation.
        #expect(new.changedColumns(from: old) == [1, 2])
    }

    @Test("a wide glyph changing its style is sent once, through its first column")
    func wideRestyled() {
        let old = ScreenRow(row([(0, "日", 2, 0)]), width: 2, depth: .direct)
        let new = ScreenRow(row([(0, "日", 2, 1)]), width: 2, depth: .direct)
        #expect(new.changedColumns(from: old) == [0])
    }

    @Test("a colour change within one palette entry is not sent on 256 colours, but is in direct colour")
    func quantisedDrift() {
        let old = titleRow(RGB(hex: 0xFF2D55)), new = titleRow(RGB(hex: 0xFF2E56))
        let palette = ScreenRow(new, width: 3, depth: .indexed256)
        #expect(palette.changedColumns(from: ScreenRow(old, width: 3, depth: .indexed256)).isEmpty)
        let direct = ScreenRow(new, width: 3, depth: .direct)
        #expect(direct.changedColumns(from: ScreenRow(old, width: 3, depth: .direct)) == [0])
    }

    @Test("a row of another width is sent whole")
    func resized() {
        let old = ScreenRow(row([(0, "a", 1, 0)]), width: 2, depth: .direct)
        let new = ScreenRow(row([(0, "a", 1, 0)]), width: 4, depth: .direct)
        #expect(new.changedColumns(from: old) == [2, 3])
    }
}
