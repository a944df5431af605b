import CNcursesw
import Glibc
import KaraokeCore
import KaraokeDriver
import KaraokeDriver

/// The terminal through ncursesw: paints frames by sending only what changed, reads keys with a timeout.
///
/// ncurses sets the terminal up (modes, the alternate screen, keys), clears it, reads keys and gives the
/// terminal back; the cells are written by a `ScreenWriter` straight to the terminal, from its terminfo
/// strings (DESIGN §9). ncurses' own update would send more: it rewrites unchanged cells between changed
/// ones without counting the colour codes they cost, and ends every update with an attribute reset that
/// the next update has to undo. So ncurses' picture of the screen stays blank, its cursor at the top left
/// and its attributes plain: before ncurses writes again (a resize, a suspension, the end), the writer
/// hands the terminal over in that state and ncurses clears it. A terminal without `cup` or `sgr0` is
/// painted through ncurses as before.
final class NCursesScreen: Screen {
    /// Why the terminal could not be taken over.
    enum Failure: Error {
        case unknownTerminal(String)
    }

    private let screen: OpaquePointer
    private(set) var depth: ColorDepth
    private var painted: [ScreenRow?] = []
    /// The frame rows `painted` was made from: most rows of a frame are the composer's cached rows,
    /// which compare equal at once, so the styling pass runs only for rows that changed.
    private var paintedSources: [FrameRow?] = []
    private var bidiExplicit = false
    /// Writes the cells, unless the terminal lacks the strings for it (then ncurses paints).
    private var writer: ScreenWriter?
    /// Draws a CD+G picture in pixels where the terminal said it can (DESIGN §19.9); nil draws it in cells.
    private var pixels: PixelPainter?
    /// The bytes of one paint, kept to reuse its storage.
    private var output: [UInt8] = []
    /// How emoji sequences are painted on this terminal (DESIGN §3.6): the frame options take it.
    private(set) var graphemes = GraphemeForm.reduced
    /// Whether karaoke turned grapheme-cluster mode on, and so turns it off whenever it gives the terminal back.
    private var setsGraphemeMode = false
    /// What the terminal said about pixels, when asked at the opening (DESIGN §19.9).
    private(set) var graphicsAnswer: TerminalGraphicsAnswer?

    /// The screen, or nil after saying on stderr why the terminal cannot be used (exit 2 for the caller):
    /// `play`, `sync`, `follow` and `party` open it the same way.
    ///
    /// Before curses takes the terminal it is asked, in one round trip, about grapheme-cluster mode when
    /// `graphemes` is `auto` (DESIGN §3.6) and about pixels when `asksGraphics` (DESIGN §19.9).
    static func openOrExplain(
        colors: Bool, graphemes: GraphemesChoice, asksGraphics: Bool = false
    ) -> NCursesScreen? {
        // A terminal that cannot move the cursor (TERM=dumb: Emacs' shell, CI logs) would get a garbled
        // screen whose clock never moves: refused before anything is drawn, as an unknown type is.
        if let name = getenv("TERM").map({ String(cString: $0) }), !name.isEmpty, kk_setupterm(name) == 0,
            kk_tigetstr("cup") == nil
        {
            StandardStreams.err(
                "karaoke: the terminal type '\(ControlCharacters.strip(name))' cannot move the cursor, which the "
                    + "player needs; set TERM to your terminal's type, for example TERM=xterm-256color "
                    + "('karaoke render' prints frames without a terminal)")
            return nil
        }
        let answers = TerminalQuery.ask(graphics: asksGraphics, graphemes: graphemes == .auto)
        do {
            let screen = try NCursesScreen(colors: colors)
            screen.graphicsAnswer = answers.graphics
            let chosen = (answers.graphemes ?? GraphemeModeAnswer()).form(
                for: graphemes, paintsCells: screen.writer != nil)
            screen.graphemes = chosen.form
            if chosen.setsMode {
                screen.setsGraphemeMode = true
                screen.writeRaw(GraphemeModeAnswer.setMode)
            }
            return screen
        } catch {
            switch error {
            case .unknownTerminal(let name) where name.isEmpty:
                StandardStreams.err(
                    "karaoke: TERM is not set; set it to your terminal's type, for example TERM=xterm-256color")
            case .unknownTerminal(let name):
                StandardStreams.err(
                    "karaoke: unknown terminal type '\(ControlCharacters.strip(name))'; "
                        + "set TERM to one your system knows, for example TERM=xterm-256color")
            }
            return nil
        }
    }

    /// Takes over the terminal on stdin/stdout. `colors` false keeps it to attributes.
    init(colors: Bool) throws(Failure) {
        guard let screen = newterm(nil, kk_stdout(), kk_stdin()) else {
            let name = getenv("TERM").map { String(cString: $0) } ?? ""
            throw .unknownTerminal(name)
        }
        self.screen = screen
        _ = set_term(screen)
        cbreak() // keeps ISIG: Ctrl-C and Ctrl-Z reach our signal handlers
        noecho()
        nonl()
        keypad(kk_stdscr(), true)
        set_escdelay(25)
        _ = curs_set(0)
        depth = .none
        if colors && has_colors() {
            start_color()
            use_default_colors()
            depth = ColorDepth(colorCount: Int(kk_colors()))
        }
        forget(rows: Int(kk_lines()))
        if let codes = NCursesScreen.terminalCodes() {
            clearok(kk_curscr(), true)
            wrefresh(kk_stdscr()) // the one update ncurses makes: clears the screen, plain attributes
            writer = ScreenWriter(codes: codes, depth: depth, columns: Int(kk_cols()), rows: Int(kk_lines()))
            output.reserveCapacity(4096)
        }
    }

    /// The codes and colour depth `play` would take on a terminal of type `name`, read from its terminfo
    /// entry without taking any terminal over (for `render --format asciicast`, DESIGN §26.2); nil when the
    /// type is unknown or lacks `cup` or `sgr0`. `colors` false keeps it to attributes, as `init` does.
    static func codes(ofType name: String, colors: Bool) -> (codes: TerminalCodes, depth: ColorDepth)? {
        guard kk_setupterm(name) == 0, let codes = terminalCodes() else { return nil }
        return (codes, colors ? ColorDepth(colorCount: Int(kk_tigetnum("colors"))) : .none)
    }

    /// The current terminal's codes from its terminfo entry, nil when it lacks `cup` or `sgr0`.
    static func terminalCodes() -> TerminalCodes? {
        TerminalCodes(string: { kk_tigetstr($0) }, flag: { kk_tigetflag($0) != 0 })
    }

    /// The terminal's size now.
    var size: (columns: Int, rows: Int) { (Int(kk_cols()), Int(kk_lines())) }

    /// Paints `frame`, sending only the cells that changed since the last paint.
    func paint(_ frame: Frame) {
        if frame.hasRightToLeftRows != bidiExplicit {
            // ECMA-48 BDSM: the rows are already in visual order; ask the terminal not to reorder them.
            bidiExplicit = frame.hasRightToLeftRows
            writeRaw(bidiExplicit ? "\u{1B}[8h" : "\u{1B}[8l")
        }
        if writer != nil {
            output.removeAll(keepingCapacity: true)
            if pixels != nil {
                let split = pixels!.split(frame)
                writer!.write(split.cells, into: &output)
                if !split.pixels.isEmpty {
                    output += split.pixels
                    writer!.forgetCursor()
                }
            } else {
                writer!.write(frame, into: &output)
            }
            send(output)
            return
        }
        if painted.count != frame.rows.count { forget(rows: frame.rows.count) }
        let window = kk_stdscr()
        for (y, row) in frame.rows.enumerated() {
            if paintedSources[y] == row { continue }
            paintedSources[y] = row
            let screenRow = ScreenRow(row, width: frame.columns, depth: depth)
            if let old = painted[y], old == screenRow { continue }
            for x in screenRow.changedColumns(from: painted[y]) {
                put(screenRow.columns[x], y: Int32(y), x: Int32(x), window: window)
            }
            painted[y] = screenRow
        }
        wnoutrefresh(window)
        doupdate()
    }

    /// Forgets what was painted, so the next paint sends every cell (after a resize or a resume).
    func invalidate() {
        forget(rows: Int(kk_lines()))
        werase(kk_stdscr())
        clearok(kk_curscr(), true)
        if writer != nil {
            handOver()
            wrefresh(kk_stdscr())
            writer!.forgetScreen(columns: Int(kk_cols()), rows: Int(kk_lines()))
            if pixels != nil { send(pixels!.forgetScreen()) }
        }
    }

    /// Draws CD+G pictures in `pixelProtocol` from now on, told what changed by `renderer`; false (and
    /// cells go on) when this terminal is painted through ncurses, which knows nothing of pixels.
    func drawPictures(
        in pixelProtocol: PixelProtocol, cellSize: TerminalGraphicsAnswer.PixelSize, renderer: PixelPictureRenderer
    ) -> Bool {
        guard writer != nil else { return false }
        pixels = PixelPainter(pixelProtocol: pixelProtocol, cellSize: cellSize, renderer: renderer)
        return true
    }

    /// Leaves the terminal as ncurses believes it is (plain attributes, the cursor at the top left), so
    /// that what ncurses writes next (a clear, or its goodbye) lands where it means it to.
    private func handOver() {
        guard writer != nil else { return }
        output.removeAll(keepingCapacity: true)
        writer!.handOver(row: 0, column: 0, into: &output)
        send(output)
    }

    /// Writes `bytes` to the terminal whole, retrying short and interrupted writes.
    private func send(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        fflush(kk_stdout())
        // A failed write means the terminal has gone: the loop learns it from the next read.
        _ = bytes.withUnsafeBytes { StandardStreams.writeAll($0, to: STDOUT_FILENO) }
    }

    private func forget(rows: Int) {
        painted = Array(repeating: nil, count: rows)
        paintedSources = Array(repeating: nil, count: rows)
    }

    private func put(_ column: ScreenRow.Column, y: Int32, x: Int32, window: UnsafeMutablePointer<WINDOW>?) {
        var cell = cchar_t()
        switch column {
        case .continuation:
            return
        case .empty:
            var text: [wchar_t] = [0x20, 0]
            _ = kk_setcchar(&cell, &text, kk_a_normal(), 0)
        case .glyph(let glyph, _, let style):
            let attributes = style.weight == .bold ? kk_a_bold() : style.weight == .dim ? kk_a_dim() : kk_a_normal()
            let pair = colorPair(for: style)
            // One cchar holds a spacing character and the zero-width ones after it; a glyph with more
            // spacing characters (a flag's two letters, "❤ ") takes one cell for each.
            var x = x
            for unit in NCursesScreen.cellUnits(glyph) {
                var text = unit + [0]
                _ = kk_setcchar(&cell, &text, attributes, pair)
                _ = mvwadd_wch(window, y, x, &cell)
                x += Int32(max(1, DisplayWidth.scalarWidth(Unicode.Scalar(UInt32(unit[0]))!)))
            }
            return
        }
        _ = mvwadd_wch(window, y, x, &cell)
    }

    /// The glyph split into ncurses cells: each spacing scalar with up to four zero-width ones after it.
    static func cellUnits(_ glyph: String) -> [[wchar_t]] {
        var units: [[wchar_t]] = []
        for scalar in glyph.unicodeScalars {
            if DisplayWidth.scalarWidth(scalar) == 0, !units.isEmpty {
                if units[units.count - 1].count < 5 { units[units.count - 1].append(wchar_t(scalar.value)) }
            } else {
                units.append([wchar_t(scalar.value)])
            }
        }
        return units
    }

    private func colorPair(for style: TerminalStyle) -> Int32 {
        // `colorNumber` nudges a near-black off 1…7, which still mean the ANSI colours in direct-colour mode.
        guard depth != .none, let foreground = style.colorNumber.map(Int32.init) else { return 0 }
        let background = style.backgroundNumber.map(Int32.init) ?? -1
        // Asked every time rather than cached here: alloc_pair finds an existing pair by a hash lookup and
        // marks it recently used, so when the drifting title has filled the table, the pairs recycled
        // first are the ones painted longest ago, not the lyric colours painted every frame.
        return max(0, alloc_pair(foreground, background))
    }

    /// A key or resize that is already there, without waiting: the driver sleeps in `ppoll`, which also
    /// turns a terminal that hung up without a SIGHUP into one (`PollWaiter`), so a failed read here only
    /// means nothing is there.
    func readInput() -> ScreenInput {
        wtimeout(kk_stdscr(), 0)
        var value: wint_t = 0
        let result = wget_wch(kk_stdscr(), &value)
        if result == KEY_CODE_YES {
            switch Int32(value) {
            case KEY_RESIZE: return .resize
            case KEY_UP: return .key(.up)
            case KEY_DOWN: return .key(.down)
            case KEY_LEFT: return .key(.left)
            case KEY_RIGHT: return .key(.right)
            case KEY_HOME: return .key(.home)
            case KEY_END: return .key(.end)
            case KEY_BACKSPACE: return .key(.backspace)
            default: return .none
            }
        }
        guard result == OK, let scalar = Unicode.Scalar(UInt32(value)) else { return .none }
        if scalar.value == 27 { return .key(.escape) }
        // Terminals send DEL (or ^H) for Backspace when terminfo does not make it KEY_BACKSPACE.
        if scalar.value == 0x7F || scalar.value == 0x08 { return .key(.backspace) }
        return .key(.character(Character(scalar)))
    }

    /// Gives the terminal back for a suspension; `resume` takes it again.
    func suspend() {
        handOver()
        if bidiExplicit { writeRaw("\u{1B}[8l") }
        if setsGraphemeMode { writeRaw(GraphemeModeAnswer.resetMode) }
        endwin()
    }

    /// Takes the terminal back after `suspend`, repainting everything.
    func resume() {
        if bidiExplicit { writeRaw("\u{1B}[8h") }
        if setsGraphemeMode { writeRaw(GraphemeModeAnswer.setMode) }
        invalidate()
        if writer == nil { wrefresh(kk_stdscr()) }
    }

    /// Restores the terminal for good.
    func close() {
        if pixels != nil { send(pixels!.forgetScreen()) }
        handOver()
        if bidiExplicit { writeRaw("\u{1B}[8l") }
        // The mode is turned off only when karaoke turned it on: a terminal that was in it stays in it.
        if setsGraphemeMode { writeRaw(GraphemeModeAnswer.resetMode) }
        endwin()
        delscreen(screen)
    }

    /// Writes bytes straight to the terminal, past ncurses (for modes terminfo has no name for).
    private func writeRaw(_ text: String) {
        fflush(kk_stdout())
        StandardStreams.write(text, to: STDOUT_FILENO)
    }
}
