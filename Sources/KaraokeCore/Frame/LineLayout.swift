/// One lyric line laid out for a lyric area: its rows of cells, ready for any moment's fill.
///
/// Built once per line and area width (the frame composer caches it), so a frame only copies rows and
/// computes fills for the current line.
struct LineLayout {
    /// The line's own rows, with every grapheme unsung.
    var unsungRows: [[FrameCell]]
    /// The same rows fully sung.
    var sungRows: [[FrameCell]]
    /// Rows of the romanization, then of the translations, below the line's rows (DESIGN §29.3).
    var translationRows: [[FrameCell]]
    /// How many of `translationRows`, from the first, are the romanization's.
    var romanizationRowCount = 0
    /// A word-timed romanization as a line of its own, and its layout, to sweep it with its words; the
    /// layout's rows are coloured as the romanization rows are. Empty for none or an untimed one.
    var timedRomanization: [(line: LyricLine, layout: LineLayout)] = []
    /// Whether the line (by its first strong character) reads right to left.
    var direction: TextDirection
    /// Whether each translation row reads right to left.
    var translationDirections: [TextDirection]
    /// One slot per cell of `unsungRows`, row after row, for `LineFill`.
    var slots: [FillSlot]
    /// The sum of the row widths.
    var totalCells: Int
    /// The cells of each word segment.
    var segmentCells: [Int]

    /// Rows the line takes on screen, translations included.
    var height: Int { unsungRows.count + translationRows.count }

    /// Lays out `fullLine` with its translations and romanization; `base` is its base direction when the file
    /// says its language (DESIGN §3.5), else its first strong character's.
    init(line fullLine: LyricLine, areaStart: Int, areaWidth: Int, options: FrameOptions, base: TextDirection? = nil) {
        let line = LineLayout.capped(fullLine)
        let theme = options.theme
        let unsungColor = theme.lyric(brightness: options.restOpacity)
        let sungColor = theme.lyric(brightness: 1)
        let placed = LineLayout.place(
            line.text, areaStart: areaStart, areaWidth: areaWidth,
            alignment: options.alignment, graphemes: options.graphemes, bidi: options.bidi, base: base)
        direction = placed.direction
        // Which segment each grapheme belongs to, by the UTF-8 offset where it starts.
        var segmentOf: [Int] = []
        if line.isWordTimed {
            var bounds: [Int] = []
            var total = 0
            for segment in line.segments { total += segment.text.utf8.count; bounds.append(total) }
            var offset = 0, segment = 0
            for character in line.text {
                while segment < bounds.count - 1 && offset >= bounds[segment] { segment += 1 }
                segmentOf.append(segment)
                offset += character.utf8.count
            }
        }
        unsungRows = []
        sungRows = []
        slots = []
        totalCells = 0
        segmentCells = [Int](repeating: 0, count: max(1, line.segments.count))
        // For word-timed lines the offsets within a segment are settled after all rows are placed.
        var segmentMembers: [[(row: Int, reading: Int, slot: Int)]] = Array(repeating: [], count: segmentCells.count)
        for (rowIndex, row) in placed.rows.enumerated() {
            var unsung: [FrameCell] = []
            unsung.reserveCapacity(row.count)
            for item in row {
                // Lit in the order sung (DESIGN §3.5): a row with runs of both directions lights in several
                // places, each run from its own end.
                let reading = item.logicalOffset
                let segment = segmentOf.isEmpty ? 0 : segmentOf[item.index]
                segmentMembers[segment].append((rowIndex, reading, slots.count))
                slots.append(
                    FillSlot(
                        offset: totalCells + reading, width: item.glyph.width, segment: segment,
                        rowStart: totalCells))
                unsung.append(
                    FrameCell(
                        column: item.column, grapheme: item.character, glyph: item.glyph.text,
                        width: item.glyph.width, role: .lyric, fill: 0, color: unsungColor))
            }
            totalCells += row.first?.rowWidth ?? 0
            var sung = unsung
            for k in sung.indices {
                sung[k].fill = 1
                sung[k].color = sungColor
            }
            unsungRows.append(unsung)
            sungRows.append(sung)
        }
        if line.isWordTimed {
            for (segment, members) in segmentMembers.enumerated() {
                var cells = 0
                for member in members.sorted(by: { ($0.row, $0.reading) < ($1.row, $1.reading) }) {
                    slots[member.slot].offset = cells
                    cells += slots[member.slot].width
                }
                segmentCells[segment] = cells
            }
        }
        let translationColor = theme.lyric(brightness: LineLayout.translationBrightness(options))
        translationRows = []
        translationDirections = []
        if options.showsRomanization, let romanization = line.romanization {
            // The reading comes first, right under its line, dim as a translation (DESIGN §29.3).
            if romanization.isWordTimed {
                let reading = LyricLine(
                    start: line.start, end: line.end, text: romanization.text, segments: romanization.segments)
                var laid = LineLayout(line: reading, areaStart: areaStart, areaWidth: areaWidth, options: options)
                for rows in [\LineLayout.unsungRows, \LineLayout.sungRows] {
                    for r in laid[keyPath: rows].indices {
                        for c in laid[keyPath: rows][r].indices {
                            laid[keyPath: rows][r][c].role = .translation
                            laid[keyPath: rows][r][c].color = translationColor
                        }
                    }
                }
                translationRows += laid.unsungRows
                translationDirections += Array(repeating: laid.direction, count: laid.unsungRows.count)
                timedRomanization = [(reading, laid)]
            } else {
                let placed = LineLayout.place(
                    romanization.text, areaStart: areaStart, areaWidth: areaWidth, alignment: options.alignment,
                    graphemes: options.graphemes, bidi: options.bidi)
                for row in placed.rows {
                    translationRows.append(
                        row.map {
                            FrameCell(
                                column: $0.column, grapheme: $0.character, glyph: $0.glyph.text,
                                width: $0.glyph.width, role: .translation, fill: 0, color: translationColor)
                        })
                    translationDirections.append(placed.direction)
                }
            }
            romanizationRowCount = translationRows.count
        }
        for translation in line.translations {
            let placedTranslation = LineLayout.place(
                translation, areaStart: areaStart, areaWidth: areaWidth,
                alignment: options.alignment, graphemes: options.graphemes, bidi: options.bidi)
            for row in placedTranslation.rows {
                translationRows.append(
                    row.map {
                        FrameCell(
                            column: $0.column, grapheme: $0.character, glyph: $0.glyph.text, width: $0.glyph.width,
                            role: .translation, fill: 0, color: translationColor)
                    })
                translationDirections.append(placedTranslation.direction)
            }
        }
    }

    /// How bright translation and romanization rows are: a third of the way from unsung to sung.
    static func translationBrightness(_ options: FrameOptions) -> Double {
        options.restOpacity + (1 - options.restOpacity) * 0.35
    }

    /// The most graphemes of a line, and of each of its translations, that are laid out: more rows than
    /// any screen holds, even 500 columns wide.
    ///
    /// Each grapheme becomes two cells and a fill slot, some 300 bytes: a 50 MB line of one file took
    /// 46 s and 14 GB to lay out before this cap.
    static let maximumGraphemes = 32_768

    /// `line` cut after `maximumGraphemes` graphemes, its segments and translations with it; the segments
    /// still concatenate to the text, so every fill slot's segment is one of the line's.
    static func capped(_ line: LyricLine) -> LyricLine {
        var capped = line
        capped.translations = line.translations.map { LineLayout.prefix(of: $0) }
        // A reading that long loses its word timing: it is cut as a translation is.
        if let reading = line.romanization, reading.text.utf8.count > maximumGraphemes {
            let text = LineLayout.prefix(of: reading.text)
            if text.utf8.count < reading.text.utf8.count { capped.romanization = Romanization(text: text) }
        }
        let text = LineLayout.prefix(of: line.text)
        guard text.utf8.count < line.text.utf8.count else { return capped }
        capped.text = text
        let cutOffset = text.utf8.count
        var offset = 0
        capped.segments = []
        for segment in line.segments where offset < cutOffset {
            var kept = segment
            let length = segment.text.utf8.count
            // The cut is on a grapheme boundary of the text, so on a scalar boundary inside the segment.
            if offset + length > cutOffset {
                kept.text = String(decoding: segment.text.utf8.prefix(cutOffset - offset), as: UTF8.self)
            }
            capped.segments.append(kept)
            offset += length
        }
        return capped
    }

    /// The first `maximumGraphemes` graphemes of `text`, or all of it.
    private static func prefix(of text: String) -> String {
        // A grapheme takes at least one byte: a short text needs no walk.
        guard text.utf8.count > maximumGraphemes,
            let cut = text.index(text.startIndex, offsetBy: maximumGraphemes, limitedBy: text.endIndex)
        else { return text }
        return String(text[..<cut])
    }

    /// A grapheme placed on a row.
    struct PlacedGrapheme {
        var index: Int
        var character: Character
        var glyph: TerminalGlyph
        var column: Int
        var rowOffset: Int
        var rowWidth: Int
        /// Cells of its row before it in logical order, where the sweep reaches it (DESIGN §3.5).
        var logicalOffset = 0
    }

    /// Wraps `text`, puts each row in visual order by `bidi` and aligns it; graphemes of width 0 are left out.
    /// Emoji sequences are painted in `graphemes`' form, at the same width either way (DESIGN §3.6). `base` is
    /// the text's base direction when its file says its language; nil: its first strong character's (§3.5).
    static func place(
        _ text: String, areaStart: Int, areaWidth: Int,
        alignment: FrameOptions.Alignment, graphemes: GraphemeForm = .reduced, bidi: BidiChoice = .simple,
        base: TextDirection? = nil
    ) -> (rows: [[PlacedGrapheme]], direction: TextDirection) {
        let characters = Array(text)
        var glyphs: [TerminalGlyph] = []
        glyphs.reserveCapacity(characters.count)
        for character in characters { glyphs.append(DisplayWidth.glyph(character, form: graphemes)) }
        // DESIGN §3.5: levels for the whole line, only for a line with right-to-left text in it.
        // A line of a right-to-left language is ordered by the algorithm even without right-to-left letters:
        // `David 2024` in a Hebrew song reads from the right.
        let resolved = bidi.algorithm.flatMap { algorithm in
            BidiReorder.needsAlgorithm(text) || base == .rightToLeft
                ? algorithm.resolve(Array(text.unicodeScalars), base: base).flatMap {
                    BidiReorder.graphemes(characters, resolution: $0)
                } : nil
        }
        let direction =
            resolved.map { $0.paragraphLevel & 1 == 1 ? .rightToLeft : .leftToRight } ?? base
            ?? TextDirection.of(characters)
        let wrapped = LineWrapping.wrap(characters, widths: glyphs.map(\.width), maxWidth: areaWidth)
        var rows: [[PlacedGrapheme]] = []
        for row in wrapped {
            let start: Int
            switch alignment {
            case .left: start = areaStart
            case .center: start = areaStart + max(0, areaWidth - row.width) / 2
            case .right: start = areaStart + max(0, areaWidth - row.width)
            }
            // The visual order, each grapheme with its mirrored form when it has one and reads right to left.
            var order: [(index: Int, mirror: Character?)] = []
            order.reserveCapacity(row.range.count)
            if let resolved {
                for entry in BidiReorder.order(
                    levels: resolved.levels[row.range], spacing: resolved.spacing[row.range],
                    paragraphLevel: resolved.paragraphLevel)
                {
                    let mirror = entry.level & 1 == 1 ? resolved.mirrors[entry.index] : nil
                    order.append(
                        (
                            entry.index,
                            mirror.map { LineLayout.replacingFirstScalar(of: characters[entry.index], with: $0) }
                        ))
                }
            } else {
                for entry in VisualOrder.order(characters[row.range], direction: direction) {
                    order.append((entry.index, entry.rightToLeft ? VisualOrder.mirrored(characters[entry.index]) : nil))
                }
            }
            // The sweep follows the logical order: where each grapheme's cells start in it.
            var logicalOffsets = [Int](repeating: 0, count: row.range.count)
            var sung = 0
            for index in row.range where glyphs[index].width > 0 {
                logicalOffsets[index - row.range.lowerBound] = sung
                sung += glyphs[index].width
            }
            var placedRow: [PlacedGrapheme] = []
            placedRow.reserveCapacity(row.range.count)
            var offset = 0
            for (index, mirror) in order {
                var glyph = glyphs[index]
                guard glyph.width > 0 else { continue }
                if let mirror { glyph = TerminalGlyph(text: String(mirror), width: glyph.width) }
                placedRow.append(
                    PlacedGrapheme(
                        index: index, character: characters[index], glyph: glyph,
                        column: start + offset, rowOffset: offset, rowWidth: row.width,
                        logicalOffset: logicalOffsets[index - row.range.lowerBound]))
                offset += glyph.width
            }
            rows.append(placedRow)
        }
        return (rows, direction)
    }

    /// `character` with `scalar` in place of its first scalar: a mirrored bracket keeps its marks.
    static func replacingFirstScalar(of character: Character, with scalar: Unicode.Scalar) -> Character {
        var scalars = String.UnicodeScalarView()
        scalars.append(scalar)
        scalars.append(contentsOf: character.unicodeScalars.dropFirst())
        return Character(String(scalars))
    }
}
