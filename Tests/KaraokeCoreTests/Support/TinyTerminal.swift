import Testing
@testable import KaraokeCore

/// A small xterm for the sequences `ScreenWriter` sends: cursor moves, SGR, scrolling regions, SU and SD;
/// and for what a recording starts with (DESIGN §26): the alternate screen, the cursor hidden, a clear.
/// Each cell holds its text and, for a non-space, the pen it was written with; a space keeps only the
/// background it was written on. Like xterm (`bce`), rows scrolled in take the background that is on.
struct TinyTerminal {
    struct Cell: Equatable {
        var text = " "
        var pen: TerminalCodes.Pen? = nil
    }

    var cells: [[Cell]]
    var row = 0, column = 0
    var pen = TerminalCodes.Pen.plain
    var top = 0, bottom: Int
    let columns: Int

    init(columns: Int, rows: Int) {
        self.columns = columns
        cells = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
        bottom = rows - 1
    }

    /// Runs `bytes`; a sequence it does not know is a test failure.
    mutating func feed(_ bytes: [UInt8]) {
        var index = 0
        let text = Array(String(decoding: bytes, as: UTF8.self))
        while index < text.count {
            let character = text[index]
            index += 1
            switch character {
            case "\u{8}": column = max(0, column - 1)
            case "\r": column = 0
            case "\u{1B}":
                if text[index] == "(" { index += 2; continue }
                guard text[index] == "[" else { Issue.record("unknown escape \(text[index])"); return }
                index += 1
                // Private modes (`?1049h` the alternate screen, `?25l` the cursor hidden) change no cell.
                let isPrivate = text[index] == "?"
                if isPrivate { index += 1 }
                var parameters = ""
                while index < text.count, text[index].isNumber || text[index] == ";" || text[index] == ":" {
                    parameters.append(text[index])
                    index += 1
                }
                let final = text[index]
                index += 1
                let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                let first = numbers.first ?? 0
                if isPrivate {
                    if final != "h" && final != "l" { Issue.record("unknown private mode final \(final)") }
                    continue
                }
                switch final {
                case "H" where parameters.isEmpty: row = 0; column = 0
                case "J" where first == 2:
                    cells = Array(repeating: Array(repeating: Cell(), count: columns), count: cells.count)
                case "t": break // window operations (xterm's title stack): nothing on the screen
                case "h" where first == 8, "l" where first == 8: break // BDSM: rows already in visual order
                case "H": row = first - 1; column = numbers[1] - 1
                case "G": column = first - 1
                case "C": column += max(1, first)
                case "r": top = first - 1; bottom = numbers[1] - 1; row = 0; column = 0
                case "S", "T":
                    let erased = Cell(text: " ", pen: Self.spacePen(pen))
                    for _ in 0..<first {
                        if final == "S" {
                            cells.remove(at: top)
                            cells.insert(Array(repeating: erased, count: columns), at: bottom)
                        } else {
                            cells.remove(at: bottom)
                            cells.insert(Array(repeating: erased, count: columns), at: top)
                        }
                    }
                case "m": sgr(parameters)
                default: Issue.record("unknown CSI final \(final)")
                }
            default:
                let width = DisplayWidth.of(String(character))
                cells[row][column] = Cell(text: String(character), pen: character == " " ? Self.spacePen(pen) : pen)
                if width == 2 { cells[row][column + 1] = Cell(text: "", pen: nil) }
                column += width
            }
        }
    }

    private mutating func sgr(_ parameters: String) {
        if parameters.isEmpty || parameters == "0" { pen = .plain; return }
        if parameters == "1" { pen.weight = .bold; return }
        if parameters == "2" { pen.weight = .dim; return }
        if parameters == "39;49" { pen.color = nil; pen.background = nil; return }
        if parameters.hasPrefix("38;5;") { pen.color = Int(parameters.dropFirst(5)); return }
        if parameters.hasPrefix("48;5;") { pen.background = Int(parameters.dropFirst(5)); return }
        if parameters.hasPrefix("38:2::") || parameters.hasPrefix("48:2::") {
            let channels = parameters.dropFirst(6).split(separator: ":").map { Int($0)! }
            let value = channels[0] << 16 | channels[1] << 8 | channels[2]
            if parameters.hasPrefix("3") { pen.color = value } else { pen.background = value }
            return
        }
        if let value = Int(parameters), (30...37).contains(value) { pen.color = value - 30; return }
        if let value = Int(parameters), (90...97).contains(value) { pen.color = value - 82; return }
        if let value = Int(parameters), (40...47).contains(value) { pen.background = value - 40; return }
        if let value = Int(parameters), (100...107).contains(value) { pen.background = value - 92; return }
        Issue.record("unknown SGR \(parameters)")
    }

    /// Each row's text as `Frame.textRendering` writes it: its cells' glyphs, trailing spaces trimmed.
    var text: String {
        cells.map { row in
            var line = row.map(\.text).joined()
            while line.last == " " { line.removeLast() }
            return line + "\n"
        }.joined()
    }

    /// What a space written with `pen` shows: only its background.
    static func spacePen(_ pen: TerminalCodes.Pen) -> TerminalCodes.Pen? {
        pen.background.map { TerminalCodes.Pen(weight: .normal, color: nil, background: $0) }
    }

    /// What `frame` should look like on this terminal at `depth`.
    static func expected(_ frame: Frame, columns: Int, depth: ColorDepth) -> [[Cell]] {
        frame.rows.map { source in
            ScreenRow(source, width: columns, depth: depth).columns.map { column in
                switch column {
                case .empty: return Cell()
                case .continuation: return Cell(text: "", pen: nil)
                case .glyph(let glyph, _, let style):
                    let pen = style.pen(depth: depth)
                    return Cell(text: glyph, pen: glyph == " " ? spacePen(pen) : pen)
                }
            }
        }
    }
}
