import Testing
@testable import KaraokeCore

/// The song an LRC text makes.
private func parse(_ lrc: String) throws -> Song {
    try #require(LRCParser.parse(Array(lrc.utf8), file: "test.lrc").song)
}

/// A line laid out in a left-aligned area `width` cells wide, with its fills at any moment.
private struct Sweep {
    var line: LyricLine
    var layout: LineLayout
    var cap: Int

    init(_ line: LyricLine, width: Int, cap: Int = Int.max) {
        var options = FrameOptions()
        options.alignment = .left
        self.line = line
        self.layout = LineLayout(line: line, areaStart: 0, areaWidth: width, options: options)
        self.cap = cap
    }

    /// The cells, row after row, in the order of the slots.
    var cells: [FrameCell] { layout.unsungRows.flatMap { $0 } }

    /// The row of each slot.
    var rowOfSlot: [Int] { layout.unsungRows.enumerated().flatMap { row, cells in cells.map { _ in row } } }

    /// The fill of each slot at `fileTime` milliseconds.
    func fills(at fileTime: Double, reduceMotion: Bool = false) -> [Double] {
        LineFill.fills(
            of: line, slots: layout.slots, totalCells: layout.totalCells,
            segmentCells: layout.segmentCells, at: fileTime, cap: cap, reduceMotion: reduceMotion)
    }

    /// Cells sung at `fileTime`: the sum of fill × width.
    func sungCells(at fileTime: Double) -> Double {
        zip(fills(at: fileTime), layout.slots).reduce(0) { $0 + $1.0 * Double($1.1.width) }
    }

    /// When the sweep of a line-timed line is over.
    var sweepEnd: Int { line.start + min(line.end - line.start, cap) }

    /// When everything of the line is sung: the sweep's end, or the last segment's end.
    var fullyLit: Int { line.isWordTimed ? line.segments.map(\.end).max() ?? line.end : sweepEnd }

    /// Moments from a second before the line to a second after it is sung.
    var moments: [Double] {
        let from = Double(line.start - 1000), to = Double(fullyLit + 1000)
        return (0...60).map { from + (to - from) * Double($0) / 60 }
    }
}

extension LineFillTests {
    /// A line of a bundled song, for the properties every line must have.
    struct BundledLine: CustomTestStringConvertible, Sendable {
        var label: String
        var line: LyricLine
        var cap: Int
        var testDescription: String { label }
    }
}

/// Every sung line of the bundled songs, with its song's cap.
private let bundledLines: [LineFillTests.BundledLine] = BundledLyricFiles.songs.flatMap { entry in
    entry.song.lines.enumerated().map { index, line in
        LineFillTests.BundledLine(label: "\(entry.name) line \(index)", line: line, cap: entry.song.sweepCap)
    }
}

/// Area widths that wrap the bundled lines into one to many rows.
private let sweepWidths = [6, 9, 13, 20, 31, 47, 80]

@Suite("The fill of a line's graphemes")
struct LineFillTests {
    // MARK: DESIGN §3.3's worked example, verbatim

    @Test("follows the worked example of a line-timed line")
    func workedExampleLineTimed() throws {
        let song = try parse("[00:02.00]la la land\n[00:06.00]next\n")
        try #require(song.lines.count == 2)
        #expect(song.medianLineDuration == 4000) // M = 4 s, so no cap applies
        let sweep = Sweep(song.lines[0], width: 80, cap: song.sweepCap)
        try #require(sweep.cells.map(\.grapheme) == Array("la la land"))
        #expect(sweep.layout.totalCells == 10)
        let atFour = sweep.fills(at: LyricClock.fileTime(playback: 4.0, song: song, userOffset: 0))
        // Half sung, 5 of 10 cells: `l a ␠ l a` have fill 1, the rest 0.
        #expect(atFour == [1, 1, 1, 1, 1, 0, 0, 0, 0, 0])
        let atFourTwo = sweep.fills(at: LyricClock.fileTime(playback: 4.2, song: song, userOffset: 0))
        // 5.5 cells: the space after the second `la` is half sung.
        #expect(abs(atFourTwo[5] - 0.5) < 1e-9)
        #expect(atFourTwo[..<5].allSatisfy { $0 == 1 })
        #expect(atFourTwo[6...].allSatisfy { $0 == 0 })
    }

    @Test("follows the worked example of a word-timed line")
    func workedExampleWordTimed() throws {
        let song = try parse("[00:02.00]<00:02.00>la <00:03.00>la <00:05.00>land<00:06.00>\n[00:06.00]next\n")
        let line = try #require(song.lines.first)
        try #require(line.segments.map(\.text) == ["la ", "la ", "land"])
        let sweep = Sweep(line, width: 80, cap: song.sweepCap)
        try #require(sweep.cells.map(\.grapheme) == Array("la la land"))
        let fills = sweep.fills(at: LyricClock.fileTime(playback: 4.0, song: song, userOffset: 0))
        // The first segment `la␠` is whole; the second is half sung: `l` 1, `a` 0.5, `␠` 0; `land` waits.
        #expect(fills == [1, 1, 1, 1, 0.5, 0, 0, 0, 0, 0])
    }

    // MARK: One speed across rows

    @Test("sweeps rows at one speed, so a wider row takes longer")
    func widerRowTakesLonger() throws {
        // Rows `abcdef` (6 cells) and `ghi` (3 cells): 9 cells in 9 s, one cell a second.
        let sweep = Sweep(LyricLine(start: 0, end: 9000, text: "abcdef ghi"), width: 6)
        try #require(sweep.layout.unsungRows.map { String($0.map(\.grapheme)) } == ["abcdef", "ghi"])
        #expect(sweep.layout.totalCells == 9)
        // After 3 s half the first row is sung and the second has not begun.
        #expect(sweep.fills(at: 3000) == [1, 1, 1, 0, 0, 0, 0, 0, 0])
        // The first row takes 6 s: only then does the second begin.
        #expect(sweep.fills(at: 6000) == [1, 1, 1, 1, 1, 1, 0, 0, 0])
        // The second row takes the remaining 3 s.
        #expect(sweep.fills(at: 7500) == [1, 1, 1, 1, 1, 1, 1, 0.5, 0])
        #expect(sweep.fills(at: 9000).allSatisfy { $0 == 1 })
    }

    @Test("sings cells at one speed across wrapped rows", arguments: bundledLines.filter { !$0.line.isWordTimed })
    func oneSpeedAcrossRows(_ bundled: BundledLine) throws {
        for width in sweepWidths {
            let sweep = Sweep(bundled.line, width: width, cap: bundled.cap)
            let rowWidths = sweep.layout.unsungRows.map { $0.reduce(0) { $0 + $1.width } }
            // The cells swept are the rows' cells: the spaces hidden at breaks are not.
            #expect(sweep.layout.totalCells == rowWidths.reduce(0, +))
            let duration = Double(sweep.sweepEnd - bundled.line.start)
            try #require(duration > 0)
            let rowOfSlot = sweep.rowOfSlot
            var rowStart = 0
            let rowStarts = rowWidths.map { width -> Int in
                defer { rowStart += width }; return rowStart
            }
            for moment in sweep.moments {
                let progress = min(1, max(0, (moment - Double(bundled.line.start)) / duration))
                let sung = progress * Double(sweep.layout.totalCells)
                // Cells sung grow linearly in time, whatever the rows.
                #expect(abs(sweep.sungCells(at: moment) - sung) < 1e-9, "width \(width) at \(moment)")
                // Each row holds the cells sung beyond the rows before it, up to its width.
                let fills = sweep.fills(at: moment)
                for row in rowWidths.indices {
                    var inRow = 0.0
                    for slot in fills.indices where rowOfSlot[slot] == row {
                        inRow += fills[slot] * Double(sweep.layout.slots[slot].width)
                    }
                    let expected = min(Double(rowWidths[row]), max(0, sung - Double(rowStarts[row])))
                    #expect(abs(inRow - expected) < 1e-9, "row \(row) at width \(width) and \(moment)")
                }
            }
        }
    }

    // MARK: Properties over every bundled line

    @Test("only grows in time and never rises along the reading order", arguments: bundledLines)
    func monotoneInTimeAndReadingOrder(_ bundled: BundledLine) {
        for width in sweepWidths {
            let sweep = Sweep(bundled.line, width: width, cap: bundled.cap)
            let slots = sweep.layout.slots
            let readingOrder = slots.indices.sorted {
                (slots[$0].segment, slots[$0].offset) < (slots[$1].segment, slots[$1].offset)
            }
            var previous = [Double](repeating: 0, count: slots.count)
            for moment in sweep.moments {
                let fills = sweep.fills(at: moment)
                #expect(fills.allSatisfy { $0 >= 0 && $0 <= 1 })
                #expect(zip(previous, fills).allSatisfy { $0 <= $1 }, "fill fell at \(moment), width \(width)")
                let ordered = readingOrder.map { fills[$0] }
                #expect(
                    zip(ordered, ordered.dropFirst()).allSatisfy { $0 >= $1 },
                    "a later grapheme is ahead at \(moment), width \(width)")
                previous = fills
            }
        }
    }

    @Test("is 0 until the line starts and 1 once its sweep is over", arguments: bundledLines)
    func unsungBeforeAndSungAfter(_ bundled: BundledLine) throws {
        for width in sweepWidths {
            let sweep = Sweep(bundled.line, width: width, cap: bundled.cap)
            try #require(!sweep.layout.slots.isEmpty)
            for reduceMotion in [false, true] {
                let start = Double(bundled.line.start)
                #expect(sweep.fills(at: start - 1000, reduceMotion: reduceMotion).allSatisfy { $0 == 0 })
                #expect(sweep.fills(at: start, reduceMotion: reduceMotion).allSatisfy { $0 == 0 })
                let end = Double(sweep.fullyLit)
                #expect(sweep.fills(at: end, reduceMotion: reduceMotion).allSatisfy { $0 == 1 })
                #expect(sweep.fills(at: end + 60_000, reduceMotion: reduceMotion).allSatisfy { $0 == 1 })
            }
        }
    }

    @Test(
        "fills each row in the order it is sung: logical order, from the right edge of a right-to-left run",
        arguments: bundledLines)
    func rowsFillInLogicalOrder(_ bundled: BundledLine) {
        for width in sweepWidths {
            let sweep = Sweep(bundled.line, width: width, cap: bundled.cap)
            for moment in sweep.moments {
                let fills = sweep.fills(at: moment)
                var slot = 0
                for row in sweep.layout.unsungRows {
                    // Cells of a row are in visual order; their slots' segments and offsets are where the sweep
                    // reaches them.
                    let slots = slot..<(slot + row.count)
                    slot += row.count
                    let sung = slots.sorted {
                        let a = sweep.layout.slots[$0], b = sweep.layout.slots[$1]
                        return (a.segment, a.offset) < (b.segment, b.offset)
                    }
                    .map { fills[$0] }
                    #expect(
                        zip(sung, sung.dropFirst()).allSatisfy { $0 >= $1 },
                        "row \(row.map(\.grapheme)) at \(moment), width \(width)")
                }
            }
        }
    }

    @Test("lights the digits of a right-to-left line left to right, after the words before them (DESIGN §3.5)")
    func numberInRightToLeftLineLightsInLogicalOrder() throws {
        let song = try parse("[00:00.00]שנת 2024\n[00:08.00]סוף\n")
        let line = try #require(song.lines.first)
        let sweep = Sweep(line, width: 40, cap: 8000)
        try #require(sweep.cells.map(\.grapheme) == Array("2024 תנש"))
        // 6 of the 8 cells sung: the word and the space (the right half), then the first two digits.
        #expect(sweep.fills(at: 6000) == [1, 1, 0, 0, 1, 1, 1, 1])
        // 5.5 cells: the second digit half lit, the sweep going left to right inside the number.
        #expect(sweep.fills(at: 5500) == [1, 0.5, 0, 0, 1, 1, 1, 1])
    }

    @Test("lights a right-to-left line from the right")
    func rightToLeftFromTheRight() throws {
        let song = try #require(BundledLyricFiles.songs.first { $0.name == "desert-stars.lrc" }?.song)
        let line = song.lines[0] // כוכבי המדבר דולקים מעל החולות
        let sweep = Sweep(line, width: 80, cap: song.sweepCap)
        try #require(sweep.layout.direction == .rightToLeft && sweep.layout.unsungRows.count == 1)
        let cells = sweep.cells
        let fills = sweep.fills(at: Double(line.start) + Double(sweep.sweepEnd - line.start) / 4)
        // The first letter stands at the right end and is sung first; the last letter, at the left, waits.
        #expect(cells.last?.grapheme == "כ")
        #expect(fills.last == 1)
        #expect(cells.first?.grapheme == "ת")
        #expect(fills.first == 0)
    }

    @Test("lights a right-to-left word segment from the right")
    func rightToLeftSegmentFromTheRight() throws {
        let song = try parse("[00:00.00]<00:00.00>שלום <00:01.00>עולם<00:02.00>\n[00:03.00]סוף\n")
        let line = try #require(song.lines.first)
        let sweep = Sweep(line, width: 40, cap: song.sweepCap)
        try #require(sweep.cells.map(\.grapheme) == Array("םלוע םולש"))
        // Half of `שלום␠` (5 cells) is 2.5 cells from the right: ש 1, ל 1, ו 0.5, ם 0, the space 0.
        #expect(sweep.fills(at: 500) == [0, 0, 0, 0, 0, 0, 0.5, 1, 1])
    }

    // MARK: The gap cap

    @Test(
        "sweeps for min(end − start, cap) after the line starts",
        arguments: [
            // A long gap after the line: the cap (4 s) decides, half way at 2 s.
            (0, 20_000, 4000, 2000.0, 0.5),
            // And it is done at the cap, long before the next line.
            (0, 20_000, 4000, 4000.0, 1.0),
            // A short line is not stretched to the cap.
            (0, 1000, 4000, 500.0, 0.5),
            // Without a median there is no cap: the whole span.
            (0, 20_000, Int.max, 10_000.0, 0.5),
            // Before the line starts nothing is sung.
            (1000, 3000, 4000, 0.0, 0.0),
            // A line of no length is a step at its start: before it…
            (1000, 1000, 4000, 999.0, 0.0),
            // …and at it.
            (1000, 1000, 4000, 1000.0, 1.0),
        ])
    func progressUnderTheCap(_ start: Int, _ end: Int, _ cap: Int, _ time: Double, _ progress: Double) {
        let line = LyricLine(start: start, end: end, text: "x")
        #expect(abs(LineFill.progress(of: line, at: time, cap: cap) - progress) < 1e-12)
    }

    @Test(
        "caps the sweep at max(2 s, 2 × M)",
        arguments: [
            // A median under a second: the 2 s floor.
            (500 as Int?, 2000),
            // Otherwise twice the median.
            (1500, 3000),
            // The worked example's M = 4 s.
            (4000, 8000),
            // No median: no cap.
            (nil, Int.max),
        ])
    func capOfASong(_ median: Int?, _ cap: Int) {
        #expect(Song(metadata: SongMetadata(), lines: [], medianLineDuration: median).sweepCap == cap)
    }

    @Test("does not slow a line down through a long gap after it")
    func gapCapInASong() throws {
        // Spans 2, 2, 2 and 24 s: M = 2 s, so the cap is 4 s and `four` sweeps from 6 s to 10 s.
        let song = try parse("[00:00.00]one\n[00:02.00]two\n[00:04.00]three\n[00:06.00]four\n[00:30.00]five\n")
        try #require(song.lines.count == 5 && song.sweepCap == 4000)
        let sweep = Sweep(song.lines[3], width: 40, cap: song.sweepCap)
        #expect(sweep.fills(at: 8000) == [1, 1, 0, 0])
        #expect(sweep.fills(at: 9000) == [1, 1, 1, 0])
        #expect(sweep.fills(at: 10_000) == [1, 1, 1, 1])
    }

    // MARK: Word segments

    @Test(
        "fills each word segment over its own cells in its own span",
        arguments: bundledLines.filter(\.line.isWordTimed))
    func segmentsFillInTheirSpans(_ bundled: BundledLine) throws {
        let segments = bundled.line.segments
        for width in sweepWidths {
            let sweep = Sweep(bundled.line, width: width, cap: bundled.cap)
            try #require(sweep.layout.segmentCells.count == segments.count)
            for moment in sweep.moments {
                let fills = sweep.fills(at: moment)
                for (index, segment) in segments.enumerated() {
                    var sung = 0.0
                    for (slot, fill) in zip(sweep.layout.slots, fills) where slot.segment == index {
                        sung += fill * Double(slot.width)
                    }
                    let span = Double(segment.end - segment.start)
                    let progress =
                        span > 0
                        ? min(1, max(0, (moment - Double(segment.start)) / span))
                        : (moment >= Double(segment.start) ? 1 : 0)
                    #expect(
                        abs(sung - progress * Double(sweep.layout.segmentCells[index])) < 1e-9,
                        "segment \(index) '\(segment.text)' at \(moment), width \(width)")
                }
            }
        }
    }

    @Test("fills a word broken across rows as one segment")
    func segmentAcrossRows() throws {
        let song = try parse("[00:00.00]<00:00.00>a <00:01.00>karaoke<00:08.00>\n[00:09.00]end\n")
        let line = try #require(song.lines.first)
        let sweep = Sweep(line, width: 4, cap: song.sweepCap)
        try #require(sweep.layout.unsungRows.map { String($0.map(\.grapheme)) } == ["a", "kara", "oke"])
        #expect(sweep.layout.segmentCells == [1, 7])
        // 5 s into the 7 s of `karaoke`: its first row and one cell of the second.
        #expect(sweep.fills(at: 6000) == [1, 1, 1, 1, 1, 1, 0, 0])
    }

    // MARK: Reduce motion

    @Test("under reduce motion lights a whole unit once its fill is above 0", arguments: bundledLines)
    func reduceMotionLightsWholeUnits(_ bundled: BundledLine) {
        for width in sweepWidths {
            let sweep = Sweep(bundled.line, width: width, cap: bundled.cap)
            let rowOfSlot = sweep.rowOfSlot
            // The unit: the row for a line-timed line, the segment for a word-timed one.
            let unitOfSlot = bundled.line.isWordTimed ? sweep.layout.slots.map(\.segment) : rowOfSlot
            for moment in sweep.moments {
                let smooth = sweep.fills(at: moment)
                let reduced = sweep.fills(at: moment, reduceMotion: true)
                #expect(reduced.allSatisfy { $0 == 0 || $0 == 1 }, "an intermediate shade at \(moment)")
                for slot in reduced.indices {
                    let unitStarted = smooth.indices.contains { unitOfSlot[$0] == unitOfSlot[slot] && smooth[$0] > 0 }
                    #expect(reduced[slot] == (unitStarted ? 1 : 0), "slot \(slot) at \(moment), width \(width)")
                }
            }
        }
    }

    @Test("under reduce motion lights the rows of a line-timed line one by one")
    func reduceMotionRowByRow() {
        let sweep = Sweep(LyricLine(start: 0, end: 9000, text: "abcdef ghi"), width: 6)
        // At the start nothing is lit; just after, the whole first row.
        #expect(sweep.fills(at: 0, reduceMotion: true).allSatisfy { $0 == 0 })
        #expect(sweep.fills(at: 1, reduceMotion: true) == [1, 1, 1, 1, 1, 1, 0, 0, 0])
        // The second row lights when the sweep reaches it, at 6 s, not before.
        #expect(sweep.fills(at: 6000, reduceMotion: true) == [1, 1, 1, 1, 1, 1, 0, 0, 0])
        #expect(sweep.fills(at: 6001, reduceMotion: true).allSatisfy { $0 == 1 })
    }

    @Test("under reduce motion lights a word segment whole")
    func reduceMotionSegment() throws {
        let song = try parse("[00:02.00]<00:02.00>la <00:03.00>la <00:05.00>land<00:06.00>\n[00:06.00]next\n")
        let sweep = Sweep(try #require(song.lines.first), width: 80, cap: song.sweepCap)
        #expect(sweep.fills(at: 4000, reduceMotion: true) == [1, 1, 1, 1, 1, 1, 0, 0, 0, 0])
    }

    @Test("uses the reading offsets it is given, whatever the slots' order on screen")
    func handMadeSlots() {
        // A right-to-left row of three narrow cells shown left to right: reading offsets 2, 1, 0;
        // then a second row of one wide cell at reading offset 3.
        let slots = [
            FillSlot(offset: 2, width: 1), FillSlot(offset: 1, width: 1), FillSlot(offset: 0, width: 1),
            FillSlot(offset: 3, width: 2, rowStart: 3),
        ]
        let line = LyricLine(start: 0, end: 5000, text: "abc d")
        func fills(_ time: Double, _ reduceMotion: Bool = false) -> [Double] {
            LineFill.fills(
                of: line, slots: slots, totalCells: 5, segmentCells: [], at: time, cap: Int.max,
                reduceMotion: reduceMotion)
        }
        // 1.5 of 5 cells: the rightmost cell and half the middle one.
        #expect(fills(1500).prefix(3) == [0, 0.5, 1])
        #expect(fills(1500).last == 0)
        // 4 of 5 cells: half of the wide cell of the second row.
        #expect(fills(4000) == [1, 1, 1, 0.5])
        // Reduce motion: the first row whole, the second not yet; then the second as soon as it starts.
        #expect(fills(1500, true) == [1, 1, 1, 0])
        #expect(fills(3100, true) == [1, 1, 1, 1])
    }

    // MARK: One grapheme

    @Test(
        "of one grapheme is the share of its cells sung",
        arguments: [
            // Sung past it.
            (5.0, 4, 1, 1.0),
            // Half way through a narrow grapheme.
            (5.5, 5, 1, 0.5),
            // Not reached.
            (3.0, 4, 2, 0.0),
            // One of the two cells of a wide grapheme.
            (5.0, 4, 2, 0.5),
            // Exactly at its start.
            (4.0, 4, 2, 0.0),
            // A zero-width grapheme is sung once the sweep passes it.
            (4.5, 4, 0, 1.0),
            // And not before.
            (4.0, 4, 0, 0.0),
        ])
    func fillOfOneGrapheme(_ sung: Double, _ offset: Int, _ width: Int, _ fill: Double) {
        #expect(LineFill.fill(sung: sung, offset: offset, width: width) == fill)
    }
}

extension LineFillTests {
    @Suite("The lyric clock")
    struct LyricClockTests {
        @Test(
            "turns playback time into file time with both offsets",
            arguments: [
                // No offsets.
                (4.0, 0, 0, 4000.0),
                // A positive file offset shows lyrics sooner: the file's clock is ahead.
                (4.0, 500, 0, 4500.0),
                // The user's offset adds to the file's.
                (4.0, 500, -200, 4300.0),
                // Before the song, file time can be negative.
                (0.0, -1000, 0, -1000.0),
            ])
        func fileTime(_ playback: Double, _ fileOffset: Int, _ userOffset: Int, _ expected: Double) {
            let song = Song(metadata: SongMetadata(offset: fileOffset), lines: [], medianLineDuration: nil)
            #expect(LyricClock.fileTime(playback: playback, song: song, userOffset: userOffset) == expected)
        }

        @Test(
            "makes the last line that has started current",
            arguments: [
                // Before the first line there is none.
                (1999.0, nil as Int?),
                // A line is current from its start.
                (2000.0, 0),
                // During the gap after a line's end it stays current.
                (5000.0, 0),
                // The next line takes over at its start.
                (8000.0, 1),
                // After the last line it stays current.
                (99_000.0, 1),
            ])
        func currentLine(_ time: Double, _ expected: Int?) {
            let lines = [
                LyricLine(start: 2000, end: 4000, text: "one"), LyricLine(start: 8000, end: 10_000, text: "two"),
            ]
            let song = Song(metadata: SongMetadata(), lines: lines, medianLineDuration: 2000)
            #expect(LyricClock.currentLine(in: song, at: time) == expected)
        }
    }
}
