/// Big lyrics: the size `auto` resolves to, and the current and coming lines drawn in big glyphs
/// (DESIGN §23).
extension FrameComposer {
    /// The size `size` resolves to for `song` in a lyric area `areaWidth` × `height`.
    ///
    /// A fixed size is kept while one wide character fits across the area, else 1. `auto` is the largest size
    /// from 4 down at which every line, with the line after it and the gap between, fits the area's height
    /// (wrapped at that size); 1 when none does. Decided once for the song, so the size does not change from
    /// line to line.
    static func resolvedSize(
        _ size: LyricSize, song: Song, cells: BigTextCells, areaWidth: Int, height: Int
    ) -> Int {
        switch size {
        case .fixed(let n):
            return n >= 2 && areaWidth / BigLineLayout.cellsPerColumn(size: n, cells: cells) >= 2 ? n : 1
        case .auto:
            for n in LyricSize.sizes.reversed() where n >= 2 {
                if fits(song: song, size: n, cells: cells, areaWidth: areaWidth, height: height) { return n }
            }
            return 1
        }
    }

    /// Whether every line of `song` and the next one fit `height` rows at `size`.
    static func fits(song: Song, size: Int, cells: BigTextCells, areaWidth: Int, height: Int) -> Bool {
        let narrowWidth = areaWidth / BigLineLayout.cellsPerColumn(size: size, cells: cells)
        guard narrowWidth >= 2, !song.lines.isEmpty else { return false }
        let band = BigLineLayout.rowsPerRow(size: size, cells: cells)
        var previous: Int? = nil
        for line in song.lines {
            let laid = LineLayout(line: line, areaStart: 0, areaWidth: narrowWidth, options: FrameOptions())
            let lineHeight = laid.unsungRows.count * band + laid.translationRows.count
            if let previous {
                if previous + lineGap + lineHeight > height { return false }
            } else if lineHeight > height {
                return false
            }
            previous = lineHeight
        }
        return true
    }

    /// What the status bar says after `z` or when big lyrics cannot be shown: the size asked for and the
    /// size shown when they differ (`size auto: 3`, `size 4 does not fit: 1`), or that the font is missing.
    public var sizeNotice: String {
        if bigFontMissing { return "big lyrics need GNU Unifont (Debian: unifont); size 1" }
        switch options.size {
        case .auto: return "size auto: \(bigSize)"
        case .fixed(let n): return n == bigSize ? "size \(n)" : "size \(n) does not fit: \(bigSize)"
        }
    }

    /// Line `index` laid out as text in the narrow area of `bigSize`, from column 0, left aligned.
    mutating func narrowLayout(_ index: Int) -> LineLayout {
        if let cached = narrowLayouts[index] { return cached }
        let perColumn = BigLineLayout.cellsPerColumn(size: bigSize, cells: options.bigCells)
        var lineOptions = options(for: song.lines[index])
        lineOptions.alignment = .left
        let made = LineLayout(
            line: song.lines[index], areaStart: 0, areaWidth: max(1, areaWidth / perColumn), options: lineOptions,
            base: baseDirection)
        narrowLayouts[index] = made
        return made
    }

    /// Line `index` in big glyphs at `bigSize`.
    mutating func bigLayout(_ index: Int) -> BigLineLayout {
        if let cached = bigLayouts[index] { return cached }
        let lineOptions = options(for: song.lines[index])
        let made = BigLineLayout(
            narrow: narrowLayout(index), font: bigFont!, size: bigSize, cells: options.bigCells,
            areaStart: areaStart, areaWidth: areaWidth, alignment: lineOptions.alignment,
            theme: lineOptions.theme, restOpacity: options.restOpacity)
        bigLayouts[index] = made
        return made
    }

    /// The layout whose fill slots time line `index`'s sweep: the narrow one at a big size (its rows are the
    /// big rows), else the line's own.
    mutating func sweepLayout(_ index: Int) -> LineLayout {
        bigSize >= 2 ? narrowLayout(index) : layout(index)
    }

    /// Rows a line takes at `bigSize`: its big glyphs, then its translations as text.
    mutating func bigHeight(_ index: Int) -> Int {
        bigLayout(index).height + layout(index).translationRows.count
    }

    /// Draws the current line (the first before the song starts) and the lines after it that fit, in big
    /// glyphs, in rows `top..<bottom`: the current and the next line centred as a block; a current line
    /// taller than the area shows its band being sung.
    mutating func drawBig(at fileTime: Double, reduceMotion: Bool, into screen: inout [FrameRow], top: Int, bottom: Int)
    {
        let current = LyricClock.currentLine(in: song, at: fileTime)
        let anchor = current ?? 0
        let height = bottom - top
        let gap = FrameComposer.lineGap
        let anchorHeight = bigHeight(anchor)
        var firstRow: Int
        let big = bigLayout(anchor)
        var anchorRows: (rows: [[FrameCell]], graphemes: [[FrameCell]])
        if current != nil {
            let narrow = big.narrow
            let fills = LineFill.fills(
                of: song.lines[anchor], slots: narrow.slots, totalCells: narrow.totalCells,
                segmentCells: narrow.segmentCells, at: fileTime, cap: song.sweepCap, reduceMotion: reduceMotion)
            anchorRows = big.draw(fills: fills)
        } else {
            anchorRows = (big.unsungRows, big.unsungGraphemes)
        }
        if anchorHeight > height {
            // The band being sung (the first not yet full) stays in view, from the area's top.
            let bands = stride(from: 0, to: anchorRows.rows.count, by: big.bandHeight)
            let sweeping =
                bands.first { start in
                    anchorRows.graphemes[start].contains { $0.fill < 1 }
                } ?? max(0, anchorRows.rows.count - big.bandHeight)
            firstRow = top - min(sweeping, anchorHeight - height)
        } else if anchor + 1 < song.lines.count, anchorHeight + gap + bigHeight(anchor + 1) <= height {
            firstRow = top + (height - anchorHeight - gap - bigHeight(anchor + 1)) / 2
        } else {
            firstRow = top + (height - anchorHeight) / 2
        }
        placeBig(anchor, rows: anchorRows, at: firstRow, into: &screen, top: top, bottom: bottom)
        var row = firstRow + anchorHeight + gap
        var index = anchor + 1
        while index < song.lines.count, row + bigHeight(index) <= bottom {
            let laid = bigLayout(index)
            placeBig(
                index, rows: (laid.unsungRows, laid.unsungGraphemes), at: row, into: &screen, top: top, bottom: bottom)
            row += bigHeight(index) + gap
            index += 1
        }
    }

    /// Writes line `index`'s big `rows` and its translations from screen row `firstRow`, clipped to
    /// `top..<bottom`.
    private mutating func placeBig(
        _ index: Int, rows: (rows: [[FrameCell]], graphemes: [[FrameCell]]), at firstRow: Int,
        into screen: inout [FrameRow], top: Int, bottom: Int
    ) {
        let rightToLeft = bigLayout(index).narrow.direction == .rightToLeft
        for (offset, cells) in rows.rows.enumerated() {
            let row = firstRow + offset
            guard row >= top && row < bottom else { continue }
            screen[row] = FrameRow(
                kind: .lyric, line: index, cells: cells, isRightToLeft: rightToLeft,
                bigGraphemes: rows.graphemes[offset])
        }
        let laid = layout(index)
        for (offset, cells) in laid.translationRows.enumerated() {
            let row = firstRow + rows.rows.count + offset
            guard row >= top && row < bottom else { continue }
            screen[row] = FrameRow(
                kind: .translation, line: index, cells: cells,
                isRightToLeft: laid.translationDirections[offset] == .rightToLeft)
        }
    }
}
