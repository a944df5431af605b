import Synchronization
import Testing
@testable import KaraokeCore

@Suite("Big lyrics")
struct BigTextTests {
    /// `text` as line 0 of a song whose next line starts at 10 s, laid out at `size` in `areaWidth` cells.
    static func layout(
        _ text: String, size: Int, areaWidth: Int, cells: BigTextCells = .quadrants
    ) throws -> (line: LyricLine, big: BigLineLayout) {
        let song = try Fixtures.song(text: "[00:00.00]\(text)\n[00:10.00]next\n")
        let line = song.lines[0]
        let perColumn = BigLineLayout.cellsPerColumn(size: size, cells: cells)
        var options = FrameOptions()
        options.alignment = .left
        let narrow = LineLayout(line: line, areaStart: 0, areaWidth: areaWidth / perColumn, options: options)
        let big = BigLineLayout(
            narrow: narrow, font: MadeUpFont.font(for: [text]), size: size, cells: cells, areaStart: 0,
            areaWidth: areaWidth, alignment: .left, theme: .dark, restOpacity: 0.35)
        return (line, big)
    }

    /// The slot fills of `big`'s line at `time` milliseconds, as the composer computes them.
    static func fills(_ line: LyricLine, _ big: BigLineLayout, at time: Double, reduceMotion: Bool = false) -> [Double]
    {
        LineFill.fills(
            of: line, slots: big.narrow.slots, totalCells: big.narrow.totalCells,
            segmentCells: big.narrow.segmentCells, at: time, cap: .max, reduceMotion: reduceMotion)
    }

    @Test(
        "at size N a Latin letter is 4(N−1) cells wide and 8(N−1) rows tall in quadrants, twice as wide in halves",
        arguments: [2, 3, 4])
    func letterSize(size: Int) throws {
        let quadrants = try BigTextTests.layout("A", size: size, areaWidth: 400).big
        #expect(quadrants.bands.count == 1)
        #expect(quadrants.bands[0].width == 4 * (size - 1))
        #expect(quadrants.height == 8 * (size - 1))
        let halves = try BigTextTests.layout("A", size: size, areaWidth: 400, cells: .halves).big
        #expect(halves.bands[0].width == 8 * (size - 1))
        #expect(halves.height == 8 * (size - 1))
        #expect(halves.unsungRows.joined().allSatisfy { "▀▄█".contains($0.grapheme) })
    }

    @Test(
        "at size N a Latin letter is 4(N−1) cells wide and ⌈16(N−1)/3⌉ rows tall in sextants", arguments: [2, 3, 4])
    func sextantLetterSize(size: Int) throws {
        let sextants = try BigTextTests.layout("A", size: size, areaWidth: 400, cells: .sextants).big
        #expect(sextants.bands[0].width == 4 * (size - 1))
        #expect(sextants.height == (16 * (size - 1) + 2) / 3)
    }

    /// The pixels of a cell that Unicode's name for `character` lists: `BLOCK SEXTANT-1246` sets pixels 1, 2,
    /// 4 and 6 (counted 1 2 / 3 4 / 5 6), as bits 0…5; the older blocks by their own names.
    static func sextantPixels(named character: Character) -> Int? {
        switch character {
        case " ": return 0
        case "▌": return 0b01_0101
        case "▐": return 0b10_1010
        case "█": return 63
        default:
            guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                let name = scalar.properties.name, name.hasPrefix("BLOCK SEXTANT-")
            else { return nil }
            return name.dropFirst("BLOCK SEXTANT-".count).reduce(0) { bits, digit in
                bits | 1 << (Int(String(digit))! - 1)
            }
        }
    }

    @Test("each of the 64 sextant patterns is the character Unicode names for its pixels", arguments: 0..<64)
    func sextantCharacter(pattern: Int) {
        let character = BigTextCells.sextants.character(pattern)
        #expect(BigTextTests.sextantPixels(named: character) == pattern)
    }

    @Test("a sextant letter's cells show exactly the font's pixels, three rows of them a cell")
    func sextantPixelsMatchTheFont() throws {
        let big = try BigTextTests.layout("Ag", size: 2, areaWidth: 400, cells: .sextants).big
        let band = big.bands[0]
        let pixelWidth = band.width * 2
        for (cellRow, row) in big.unsungRows.enumerated() {
            for cell in row {
                let x0 = (cell.column - band.start) * 2
                var expected = 0
                for dy in 0..<3 where cellRow * 3 + dy < 16 {
                    for dx in 0..<2 where band.pixels[(cellRow * 3 + dy) * pixelWidth + x0 + dx] {
                        expected |= 1 << (dy * 2 + dx)
                    }
                }
                #expect(BigTextTests.sextantPixels(named: cell.grapheme) == expected)
            }
        }
        // Every set pixel is in some cell: the rows cover the glyph's 16 pixel rows.
        #expect(big.unsungRows.count * 3 >= 16)
        #expect(band.pixels.contains(true))
    }

    @Test("a wide character keeps its double width in big cells")
    func wideCharacter() throws {
        let big = try BigTextTests.layout("中文", size: 2, areaWidth: 80).big
        #expect(big.bands[0].width == 2 * 2 * 4)
        #expect(big.unsungGraphemes[0].map(\.width) == [8, 8])
        #expect(big.unsungGraphemes[0].map(\.column) == [0, 8])
    }

    @Test("a line wider than the area wraps in big cells, after its spaces")
    func wrapsInBigCells() throws {
        // 4 cells a letter at size 2: 40 cells hold 10 letters.
        let big = try BigTextTests.layout("paper boats float", size: 2, areaWidth: 40).big
        // "paper boats" would take 44 cells.
        #expect(big.bands.map(\.width) == [20, 20, 20])
        #expect(big.unsungGraphemes.first.map { String($0.map(\.grapheme)) } == "paper")
    }

    /// Times through a 10 s line, every 370 ms, and the sizes.
    static let sweepCases: [(time: Double, size: Int)] = [2, 3, 4].flatMap { size in
        stride(from: -500.0, through: 10_500, by: 370).map { ($0, size) }
    }

    @Test(
        "the lit pixel columns are the first p × S columns in reading order, across wrapped rows",
        arguments: sweepCases)
    func sweepFollowsFill(time: Double, size: Int) throws {
        let (line, big) = try BigTextTests.layout("lanterns on the river bend", size: size, areaWidth: 100)
        let lit = big.litColumns(fills: BigTextTests.fills(line, big, at: time)).joined()
        let total = lit.count
        let progress = min(1, max(0, time / 10_000))
        let count = lit.filter { $0 }.count
        // Reading order is left to right, row after row: the lit columns are a prefix.
        #expect(Array(lit.prefix(count)).allSatisfy { $0 })
        #expect(abs(Double(count) - progress * Double(total)) <= 0.5 + 1e-9)
    }

    @Test("a right-to-left line lights its pixel columns from the right", arguments: [0.2, 0.5, 0.8])
    func rightToLeft(progress: Double) throws {
        let (line, big) = try BigTextTests.layout("שלום עולם", size: 2, areaWidth: 200)
        let lit = try #require(big.litColumns(fills: BigTextTests.fills(line, big, at: progress * 10_000)).first)
        let count = lit.filter { $0 }.count
        #expect(count > 0)
        #expect(Array(lit.suffix(count)).allSatisfy { $0 })
        #expect(abs(Double(count) - progress * Double(lit.count)) <= 0.5 + 1e-9)
    }

    @Test("under reduce motion each wrapped row lights whole")
    func reduceMotion() throws {
        let (line, big) = try BigTextTests.layout("lanterns on the river bend", size: 2, areaWidth: 60)
        try #require(big.bands.count >= 2)
        for time in stride(from: 0.0, through: 10_000, by: 250) {
            for band in big.litColumns(fills: BigTextTests.fills(line, big, at: time, reduceMotion: true)) {
                #expect(band.allSatisfy { $0 } || band.allSatisfy { !$0 })
            }
        }
    }

    @Test("a cell the sweep crosses takes the share of its set pixels that are lit as its fill")
    func boundaryCell() throws {
        // At size 2 a cell holds two pixel columns: a fill that ends between them half fills a cell whose
        // set pixels are in both.
        let (line, big) = try BigTextTests.layout("H", size: 2, areaWidth: 80)
        let fills = BigTextTests.fills(line, big, at: 10_000 * 3 / 8) // 3 of 8 pixel columns
        let rows = big.draw(fills: fills).rows
        let cells = rows.joined()
        #expect(cells.filter { $0.column == 0 }.allSatisfy { $0.fill == 1 })
        #expect(cells.contains { $0.column == 1 && $0.fill > 0 && $0.fill < 1 })
        #expect(cells.filter { $0.column >= 2 }.allSatisfy { $0.fill == 0 })
    }

    @Test("a character the font lacks is drawn as U+FFFD's glyph, else as a box of its width")
    func missingGlyph() throws {
        let font = BitmapFont(hex: Array("0041:\(String(repeating: "0", count: 32))\n".utf8))
        let box = BigLineLayout.glyph(for: "中", width: 2, font: font)
        #expect(box.width == 16)
        #expect(box.isSet(x: 0, y: 5) && box.isSet(x: 14, y: 5) && !box.isSet(x: 15, y: 5))
    }

    /// Whether every line of `song` with the next fits a `columns` × `rows` screen at `size`, wrapped in big
    /// cells directly (not through the narrow area the composer uses).
    static func fits(_ song: Song, size: Int, columns: Int, rows: Int) -> Bool {
        let area = columns - 2 * (columns >= 24 ? 2 : 0)
        let perColumn = 4 * (size - 1)
        var heights: [Int] = []
        for line in song.lines {
            let graphemes = Array(line.text)
            let widths = graphemes.map { DisplayWidth.glyph($0).width * perColumn }
            let wrapped = LineWrapping.wrap(graphemes, widths: widths, maxWidth: area)
            if wrapped.contains(where: { $0.width > area }) || perColumn * 2 > area { return false }
            heights.append(wrapped.count * 8 * (size - 1))
        }
        if heights.count == 1 { return heights[0] <= rows - 2 }
        return zip(heights, heights.dropFirst()).allSatisfy { $0 + 1 + $1 <= rows - 2 }
    }

    static let screens: [(columns: Int, rows: Int)] = [12, 24, 40, 60, 80, 100, 120, 160, 200, 260].flatMap { c in
        [5, 10, 16, 19, 24, 30, 36, 40, 50, 60, 80].map { (c, $0) }
    }

    @Test("auto picks the largest size at which each line and the next fit, else 1", arguments: screens)
    func auto(columns: Int, rows: Int) throws {
        for name in ["lantern-river.lrc", "sakura-station.lrc", "desert-stars.lrc"] {
            var song = try Fixtures.song(name)
            // Translations are text under their line at any size; this property is about the big lines.
            for k in song.lines.indices { song.lines[k].translations = [] }
            var options = FrameOptions()
            options.size = .auto
            options.bigFont = BigFontSource(font: MadeUpFont.font(for: song))
            let composer = FrameComposer(
                song: song, fallbackTitle: name, columns: columns, rows: rows, options: options)
            let size = composer.bigSize
            if size >= 2 {
                #expect(BigTextTests.fits(song, size: size, columns: columns, rows: rows), "\(name) at \(size)")
            }
            for larger in (size + 1)...4 where larger >= 2 {
                #expect(!BigTextTests.fits(song, size: larger, columns: columns, rows: rows), "\(name) at \(larger)")
            }
        }
    }

    /// Counts the times a source's read function is called.
    final class ReadCount: Sendable {
        let count = Mutex(0)
    }

    @Test("the font is read only when a size of 2 or more is shown, and once")
    func readOnFirstUse() throws {
        let song = try Fixtures.song("lantern-river.lrc")
        let reads = ReadCount()
        let hex = Array(MadeUpFont.hex(for: song.lines.map(\.text)).utf8)
        let source = BigFontSource(read: {
            reads.count.withLock { $0 += 1 }
            return hex
        })
        var options = FrameOptions()
        options.bigFont = source
        options.size = .fixed(1)
        _ = FrameComposer(song: song, fallbackTitle: "", columns: 200, rows: 60, options: options)
        options.size = .auto
        // Too small for any big size: auto is 1 and the font is not needed.
        _ = FrameComposer(song: song, fallbackTitle: "", columns: 30, rows: 8, options: options)
        #expect(reads.count.withLock { $0 } == 0)
        #expect(!source.hasBeenRead)
        let big = FrameComposer(song: song, fallbackTitle: "", columns: 200, rows: 60, options: options)
        _ = FrameComposer(song: song, fallbackTitle: "", columns: 200, rows: 60, options: options)
        #expect(big.bigSize >= 2)
        #expect(reads.count.withLock { $0 } == 1)
    }

    @Test("without the font a big size shows today's frame and says the font is missing")
    func missingFont() throws {
        let song = try Fixtures.song("lantern-river.lrc")
        var options = FrameOptions()
        var plain = FrameComposer(song: song, fallbackTitle: "", columns: 80, rows: 24, options: options)
        options.size = .fixed(2)
        options.bigFont = BigFontSource(font: nil)
        var missing = FrameComposer(song: song, fallbackTitle: "", columns: 80, rows: 24, options: options)
        #expect(missing.bigSize == 1)
        #expect(missing.bigFontMissing)
        #expect(missing.frame(at: 18.5) == plain.frame(at: 18.5))
        #expect(!plain.bigFontMissing)
    }

    @Test("z steps the size: auto, 1, 2, 3, 4, auto")
    func stepping() {
        var size = LyricSize.auto
        var seen: [String] = []
        for _ in 0..<6 {
            seen.append(size.description)
            size = size.next
        }
        #expect(seen == ["auto", "1", "2", "3", "4", "auto"])
        #expect(LyricSize("3") == .fixed(3) && LyricSize("auto") == .auto && LyricSize("5") == nil)
    }

    @Test("render's JSON says the size and lists a big row's graphemes with their big cells and fill")
    func json() throws {
        let song = try Fixtures.song("lantern-river.lrc")
        var options = FrameOptions()
        options.size = .fixed(2)
        options.bigFont = BigFontSource(font: MadeUpFont.font(for: song))
        var composer = FrameComposer(song: song, fallbackTitle: "", columns: 200, rows: 60, options: options)
        let frame = composer.frame(at: 18.5)
        #expect(frame.size == 2)
        let json = frame.jsonRendering()
        #expect(json.contains("\"size\":2,"))
        #expect(json.contains("{\"col\":"))
        let row = try #require(frame.rows.first { $0.bigGraphemes != nil })
        #expect(row.bigGraphemes?.first?.width == 4)
    }
}

@Suite("Golden big frames")
struct BigGoldenFrameTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var golden: String
        var song: String
        var time: Double
        var columns: Int
        var rows: Int
        var size: Int
        var reduceMotion = false
        var cells = BigTextCells.quadrants
        var testDescription: String { golden }
    }

    static let cases: [Case] = [
        // Latin mid-sweep, wrapped, the next line under it.
        Case(
            golden: "big-lantern-river-80x24-size-2-at-18.5", song: "lantern-river.lrc", time: 18.5, columns: 80,
            rows: 24, size: 2),
        Case(
            golden: "big-lantern-river-200x60-size-3-at-18.5", song: "lantern-river.lrc", time: 18.5, columns: 200,
            rows: 60, size: 3),
        // CJK at double width, translations as text under their line.
        Case(
            golden: "big-sakura-station-80x24-size-2-at-46", song: "sakura-station.lrc", time: 46, columns: 80,
            rows: 24, size: 2),
        Case(
            golden: "big-sakura-station-200x60-size-3-at-46", song: "sakura-station.lrc", time: 46, columns: 200,
            rows: 60, size: 3),
        // Right to left, filling from the right.
        Case(
            golden: "big-desert-stars-200x60-size-2-at-27.5", song: "desert-stars.lrc", time: 27.5, columns: 200,
            rows: 60, size: 2),
        // A line taller than the area at 80×24: the band being sung stays in view.
        Case(
            golden: "big-desert-stars-80x24-size-3-at-27.5", song: "desert-stars.lrc", time: 27.5, columns: 80,
            rows: 24, size: 3),
        // Reduce motion: whole words.
        Case(
            golden: "big-paper-boats-80x24-size-2-at-9.3-reduced", song: "paper-boats.lrc", time: 9.3, columns: 80,
            rows: 24, size: 2, reduceMotion: true),
        // Sextants: three pixel rows a cell.
        Case(
            golden: "big-lantern-river-200x60-size-2-sextants-at-18.5", song: "lantern-river.lrc", time: 18.5,
            columns: 200, rows: 60, size: 2, cells: .sextants),
        Case(
            golden: "big-paper-boats-200x60-size-3-at-9.3-reduced", song: "paper-boats.lrc", time: 9.3, columns: 200,
            rows: 60, size: 3, reduceMotion: true),
    ]

    @Test("the big screen matches its golden file", arguments: cases)
    func matchesGolden(_ golden: Case) throws {
        let song = try Fixtures.song(golden.song)
        var options = FrameOptions()
        options.reduceMotion = golden.reduceMotion
        options.size = .fixed(golden.size)
        options.bigCells = golden.cells
        options.bigFont = BigFontSource(font: MadeUpFont.font(for: song))
        var composer = FrameComposer(
            song: song, fallbackTitle: golden.song, columns: golden.columns, rows: golden.rows, options: options)
        #expect(composer.bigSize == golden.size)
        let frame = composer.frame(FrameInput(time: golden.time, reduceMotion: golden.reduceMotion))
        try #require(frame.rows.count == golden.rows)
        try GoldenFrameTests.check(frame, golden: golden.golden)
    }
}
