/// One frame row drawn as SVG markup: background rectangles, then a `<text>` of coloured runs (DESIGN §27).
///
/// The markup is the row's identity in a recording: two rows that draw the same markup are defined once.
/// Coordinates are the row's own: x from its left edge, y from its baseline, so the same drawing serves any
/// row position.
struct SVGRowDrawing: Hashable {
    /// The background rectangles, empty when no cell has a background.
    var rectangles: String
    /// The `<text>` element's attributes after its name: the bold class when every cell is bold, else none.
    var textAttributes: String
    /// The `<tspan>` runs.
    var runs: String

    /// Whether nothing is drawn: the row is blank.
    var isBlank: Bool { rectangles.isEmpty && runs.isEmpty }

    /// The drawing of `row` in a picture `columns` cells wide whose default ink is `foreground`.
    ///
    /// Colours are those a direct-colour terminal shows (`TerminalStyle.of(_:depth: .direct)`): the cell's
    /// RGB, bold for the title, and a background for picture and QR code cells.
    init(_ row: FrameRow, columns: Int, foreground: RGB) {
        var cells: [(cell: FrameCell, glyph: String, style: TerminalStyle)] = []
        for cell in row.cells where cell.column >= 0 && cell.column + max(1, cell.width) <= columns {
            let glyph = SVGText.drawn(TerminalStyle.glyph(of: cell, depth: .direct))
            cells.append((cell, glyph, TerminalStyle.of(cell, depth: .direct)))
        }
        rectangles = SVGRowDrawing.rectangles(cells.map { ($0.cell, $0.style) })
        let shown = cells.filter { !$0.glyph.isEmpty }
        let allBold = !shown.isEmpty && shown.allSatisfy { $0.style.weight == .bold }
        textAttributes = allBold ? " class=\"b\"" : ""
        var runs = ""
        // Where the text would continue if the next run had no `x`: only after ASCII, whose advance the font
        // stack gives as exactly one cell; anything else may come from a fallback font of another width.
        var flowColumn: Int? = nil
        var index = 0
        while index < shown.count {
            let first = shown[index]
            var end = index + 1
            // A run: adjacent cells of one colour and weight, each a single scalar, so that an `x` list can
            // place every one of them on its column.
            if first.glyph.unicodeScalars.count == 1 {
                while end < shown.count {
                    let next = shown[end], previous = shown[end - 1]
                    guard next.cell.column == previous.cell.column + previous.cell.width,
                        next.glyph.unicodeScalars.count == 1,
                        // Two scalars that would join into one grapheme (regional indicators, jamo) stay apart.
                        (previous.glyph + next.glyph).count == 2,
                        next.style.rgb == first.style.rgb, next.style.weight == first.style.weight
                    else { break }
                    end += 1
                }
            }
            let run = shown[index..<end]
            let ascii = run.allSatisfy {
                $0.cell.width == 1 && $0.glyph.unicodeScalars.count == 1 && $0.glyph.unicodeScalars.first!.value < 0x80
            }
            runs += "<tspan"
            // ASCII needs its first column only, and none where it flows on; anything else one a grapheme (a
            // single grapheme may flow on too: the run after it is placed again).
            let flows = flowColumn == first.cell.column
            let placed: ArraySlice<(cell: FrameCell, glyph: String, style: TerminalStyle)>
            if ascii {
                placed = flows ? [] : run.prefix(1)
            } else {
                placed = flows && run.count == 1 ? [] : run
            }
            if !placed.isEmpty {
                runs += " x=\"" + placed.map { String($0.cell.column * SVGCell.width) }.joined(separator: " ") + "\""
            }
            if let rgb = first.style.rgb, rgb != foreground { runs += " fill=\"\(rgb)\"" }
            if !allBold && first.style.weight == .bold { runs += " class=\"b\"" }
            runs += ">"
            for entry in run { runs += SVGText.escaped(entry.glyph) }
            runs += "</tspan>"
            let last = run.last!
            flowColumn = ascii ? last.cell.column + last.cell.width : nil
            index = end
        }
        self.runs = runs
    }

    /// Rectangles for the cells that have a background, adjacent cells of one colour merged.
    private static func rectangles(_ cells: [(cell: FrameCell, style: TerminalStyle)]) -> String {
        var output = ""
        var open: (column: Int, end: Int, color: RGB)? = nil
        func close() {
            guard let run = open else { return }
            output +=
                "<rect x=\"\(run.column * SVGCell.width)\" y=\"-\(SVGCell.baseline)\" width=\""
                + "\(max(1, run.end - run.column) * SVGCell.width)\" height=\"\(SVGCell.height)\" fill=\"\(run.color)\"/>"
            open = nil
        }
        for (cell, style) in cells {
            guard let color = style.backgroundRGB else {
                close()
                continue
            }
            if let run = open, run.end == cell.column, run.color == color {
                open?.end = cell.column + max(1, cell.width)
            } else {
                close()
                open = (cell.column, cell.column + max(1, cell.width), color)
            }
        }
        close()
        return output
    }

    /// The definition of this drawing under `id`, for a recording's `<defs>`.
    func definition(id: String) -> String {
        if rectangles.isEmpty { return "<text id=\"\(id)\"\(textAttributes)>\(runs)</text>" }
        let text = runs.isEmpty ? "" : "<text\(textAttributes)>\(runs)</text>"
        return "<g id=\"\(id)\">\(rectangles)\(text)</g>"
    }
}

/// The geometry of a cell in an SVG picture's user units, and the font that fits it (DESIGN §27).
enum SVGCell {
    /// A cell's width: 0.6 of the font size, the advance of the monospace fonts in `fontFamily`.
    static let width = 6
    /// A row's height: 1.2 of the font size, as terminals space lines.
    static let height = 12
    /// The baseline's distance below a row's top.
    static let baseline = 9
    /// The font size.
    static let fontSize = 10
    /// Screen pixels per unit in the picture's `width` and `height`: a 14-pixel font, as a terminal's.
    static let scale = 1.4
    /// Installed monospace fonts, most likely first, with an advance of 0.6 em; no font is embedded or
    /// fetched. Consolas (0.55 em) is left out so that Windows falls to Courier New, which keeps the cells.
    static let fontFamily =
        "ui-monospace,SFMono-Regular,Menlo,\"DejaVu Sans Mono\",\"Liberation Mono\",\"Courier New\",monospace"
}

/// Text made safe for XML character data.
enum SVGText {
    /// A cell's glyph as drawn: printable, without the spaces that pad a reduced form to its cells (`❤ ` for a
    /// two-cell emoji), which draw nothing and would make a one-scalar glyph a run of its own.
    static func drawn(_ glyph: String) -> String {
        var text = printable(glyph)
        while text.count > 1, text.unicodeScalars.last == " " { text.unicodeScalars.removeLast() }
        return text
    }

    /// `text` without the scalars XML 1.0 forbids or a picture should not hold: C0 and C1 controls, DEL,
    /// U+FFFE and U+FFFF.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnprintable) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isUnprintable(scalar) { scalars.append(scalar) }
        return String(scalars)
    }

    private static func isUnprintable(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE
            || scalar.value == 0xFFFF
    }

    /// `text` with `&`, `<`, `>` and quotes as entities (`>` too, so that `]]>` never appears).
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        else { return text }
        // Scalar by scalar: a grapheme such as `&` with a combining accent is not the character `&`.
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
