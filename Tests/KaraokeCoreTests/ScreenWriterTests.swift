import Testing
@testable import KaraokeCore

/// A title row of `colors`, one letter each from column 0.
private func title(_ colors: [RGB]) -> FrameRow {
    FrameRow(
        kind: .title,
        cells: colors.enumerated().map { index, color in
            FrameCell(column: index, grapheme: "T", glyph: "T", width: 1, role: .title, fill: 1, color: color)
        })
}

/// A one-row frame.
private func frame(_ row: FrameRow, columns: Int = 10) -> Frame {
    Frame(time: 0, columns: columns, rows: [row])
}

@Suite("Terminfo strings")
struct TerminfoTemplateTests {
    @Test(
        "xterm's strings expand as ncurses' tparm expands them",
        arguments: [
            // cup counts from 1 (%i)
            ("\u{1B}[%i%p1%d;%p2%dH", [2, 4], "\u{1B}[3;5H"),
            // 256-colour setaf: the eight ANSI colours, the bright ones, then 38;5
            ("\u{1B}[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m", [5], "\u{1B}[35m"),
            ("\u{1B}[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m", [12], "\u{1B}[94m"),
            ("\u{1B}[%?%p1%{8}%<%t3%p1%d%e%p1%{16}%<%t9%p1%{8}%-%d%e38;5;%p1%d%;m", [200], "\u{1B}[38;5;200m"),
            // direct colour: the channels of 0xRRGGBB
            (
                "\u{1B}[%?%p1%{8}%<%t3%p1%d%e38:2::%p1%{65536}%/%d:%p1%{256}%/%{255}%&%d:%p1%{255}%&%d%;m", [0xFF8001],
                "\u{1B}[38:2::255:128:1m"
            ),
            // width and zero flag, a character constant, a variable
            ("%p1%02d|%'A'%c|%p2%Pa%ga%d%%", [7, 42], "07|A|42%"),
            // negative numbers, hexadecimal, a padded width
            ("%p1%d|%p2%x|%p2%X|%p2%4d", [-12, 255], "-12|ff|FF| 255"),
        ] as [(String, [Int], String)])
    func expands(template: String, parameters: [Int], expected: String) {
        let expanded = TerminfoTemplate(template).expanded(parameters[0], parameters.count > 1 ? parameters[1] : 0)
        #expect(String(decoding: expanded, as: UTF8.self) == expected)
    }
}

@Suite("Writing frames to a terminal")
struct ScreenWriterTests {
    let codes = TerminalCodes.xterm()

    @Test(
        "the cheapest cursor move: none, one byte, hpa, or cup",
        arguments: [
            ((row: 3, column: 5), (row: 3, column: 6), "\u{1B}[C"),
            ((row: 3, column: 5), (row: 3, column: 0), "\r"),
            ((row: 3, column: 5), (row: 3, column: 4), "\u{8}"),
            ((row: 3, column: 5), (row: 3, column: 40), "\u{1B}[35C"),
            ((row: 3, column: 50), (row: 3, column: 10), "\u{1B}[11G"),
            ((row: 3, column: 5), (row: 4, column: 5), "\u{1B}[5;6H"),
        ] as [((row: Int, column: Int), (row: Int, column: Int), String)])
    func move(from: (row: Int, column: Int), to: (row: Int, column: Int), expected: String) {
        #expect(String(decoding: codes.move(from: from, to: to), as: UTF8.self) == expected)
    }

    @Test("leaving bold resets and sets the colour again; the same pen costs nothing")
    func penChanges() {
        let bold = TerminalCodes.Pen(weight: .bold, color: 100), normal = TerminalCodes.Pen(weight: .normal, color: 100)
        #expect(
            String(decoding: codes.change(from: bold, to: normal), as: UTF8.self) == "\u{1B}(B\u{1B}[m\u{1B}[38;5;100m")
        #expect(String(decoding: codes.change(from: normal, to: bold), as: UTF8.self) == "\u{1B}[1m")
        #expect(codes.change(from: bold, to: bold).isEmpty)
    }

    @Test("a title cell whose colour index did not change is not written again in 256 colours, but is in direct colour")
    func unchangedIndexIsNotWritten() {
        // Cell 0 moves to another palette entry; cell 1 drifts within one (both 0xFF0000 and 0xFA0505 are 196).
        let before = title([RGB(hex: 0x00FF00), RGB(hex: 0xFF0000)])
        let after = title([RGB(hex: 0x0000FF), RGB(hex: 0xFA0505)])
        #expect(ColorDepth.paletteIndex(RGB(hex: 0xFF0000)) == ColorDepth.paletteIndex(RGB(hex: 0xFA0505)))
        var palette = ScreenWriter(codes: codes, depth: .indexed256, columns: 10, rows: 1)
        _ = palette.write(frame(before))
        let written = String(decoding: palette.write(frame(after)), as: UTF8.self)
        #expect(written.filter { $0 == "T" }.count == 1)
        var direct = ScreenWriter(codes: .xterm(direct: true), depth: .direct, columns: 10, rows: 1)
        _ = direct.write(frame(before))
        #expect(String(decoding: direct.write(frame(after)), as: UTF8.self).filter { $0 == "T" }.count == 2)
    }

    @Test("contiguous cells of one colour take one move and one colour; nothing is reset at the end of a frame")
    func contiguousCells() {
        var writer = ScreenWriter(codes: codes, depth: .indexed256, columns: 10, rows: 1)
        let red = RGB(hex: 0xFF0000)
        let written = String(decoding: writer.write(frame(title([red, red, red]))), as: UTF8.self)
        // Unknown pen at first: one reset, bold, the colour, then the three letters.
        #expect(written == "\u{1B}[1;1H\u{1B}(B\u{1B}[m\u{1B}[1m\u{1B}[38;5;196mTTT")
        // The next frame changes one cell to the same pen: no attribute sequence at all.
        let next = title([red, red, red, red])
        #expect(String(decoding: writer.write(frame(next)), as: UTF8.self) == "T")
        #expect(writer.write(frame(next)).isEmpty)
    }

    @Test("an unchanged cell between two changed ones in the pen that is on is written again rather than moved over")
    func shortGapRewritten() {
        var writer = ScreenWriter(codes: codes, depth: .indexed256, columns: 10, rows: 1)
        let red = RGB(hex: 0xFF0000), green = RGB(hex: 0x00FF00)
        _ = writer.write(frame(title([red, green, red])))
        // Cells 0 and 2 turn green; cell 1 was green already: "T" again (1 byte) beats ESC [ C (3 bytes).
        #expect(
            String(decoding: writer.write(frame(title([green, green, green]))), as: UTF8.self) == "\r\u{1B}[38;5;46mTTT"
        )
        // In another pen the gap is moved over.
        #expect(
            String(decoding: writer.write(frame(title([red, green, red]))), as: UTF8.self)
                == "\r\u{1B}[38;5;196mT\u{1B}[CT")
    }

    @Test("rows that glide up by one are scrolled, not rewritten, and the screen ends up as the frame")
    func glideScrolls() {
        func lyric(_ text: String, at row: Int) -> FrameRow {
            FrameRow(
                kind: .lyric,
                cells: FrameComposer.cells(
                    of: text, from: 2, limit: 40, role: .lyric,
                    color: RGB(hex: 0x808080)))
        }
        let lines = ["one lantern", "two rivers", "three bridges", "four willows", "five flames"]
        let before = Frame(time: 0, columns: 40, rows: [.blank] + lines.map { lyric($0, at: 0) } + [.blank])
        let after = Frame(
            time: 0, columns: 40, rows: [.blank] + lines.dropFirst().map { lyric($0, at: 0) } + [.blank, .blank])
        var writer = ScreenWriter(codes: codes, depth: .indexed256, columns: 40, rows: 7)
        var terminal = TinyTerminal(columns: 40, rows: 7)
        terminal.feed(writer.write(before))
        let bytes = writer.write(after)
        terminal.feed(bytes)
        #expect(String(decoding: bytes, as: UTF8.self).contains("\u{1B}[1S"))
        #expect(bytes.count < 30)
        let matches = terminal.cells == TinyTerminal.expected(after, columns: 40, depth: .indexed256)
        #expect(matches, "the terminal does not show the frame")
    }

    @Test(
        "playing a song, the terminal shows every frame exactly",
        arguments: [ColorDepth.indexed256, .direct, .basic, .none])
    func playsExactly(depth: ColorDepth) throws {
        let song = try Fixtures.song("lantern-river.lrc")
        var composer = FrameComposer(song: song, fallbackTitle: "", columns: 60, rows: 16, options: FrameOptions())
        var writer = ScreenWriter(codes: .xterm(direct: depth == .direct), depth: depth, columns: 60, rows: 16)
        var terminal = TinyTerminal(columns: 60, rows: 16)
        // Through the first lines and a few glides, with the help overlay over a stretch of it.
        for k in stride(from: 0, to: 30 * 24, by: 3) {
            let time = Double(k) / 30
            let shown = composer.frame(
                at: time, titleTime: (time * 10).rounded(.down) / 10, showsHelp: (300..<360).contains(k))
            terminal.feed(writer.write(shown))
            let expected = TinyTerminal.expected(shown, columns: 60, depth: depth)
            guard terminal.cells == expected else {
                Issue.record("at \(time) s the terminal differs from the frame")
                return
            }
        }
    }
}

@Suite("Writing pictures to a terminal")
struct PictureWriterTests {
    @Test("a pen with a background sets it with setab, and leaving it takes op and the colour again")
    func backgroundPens() {
        let codes = TerminalCodes.xterm()
        let picture = TerminalCodes.Pen(weight: .normal, color: 196, background: 21)
        #expect(
            String(decoding: codes.change(from: .plain, to: picture), as: UTF8.self)
                == "\u{1B}[38;5;196m\u{1B}[48;5;21m")
        #expect(
            String(
                decoding: codes.change(from: picture, to: TerminalCodes.Pen(weight: .normal, color: 196)), as: UTF8.self
            )
                == "\u{1B}[39;49m\u{1B}[38;5;196m")
        #expect(
            String(
                decoding: codes.change(
                    from: picture, to: TerminalCodes.Pen(weight: .normal, color: 196, background: 3)), as: UTF8.self)
                == "\u{1B}[43m")
        let direct = TerminalCodes.xterm(direct: true)
        #expect(
            String(
                decoding: direct.change(
                    from: .plain, to: TerminalCodes.Pen(weight: .normal, color: nil, background: 0x102030)),
                as: UTF8.self)
                == "\u{1B}[48:2::16:32:48m")
    }

    @Test(
        "a CD+G song with help over it and lyrics after it: the terminal shows every frame exactly",
        arguments: [ColorDepth.indexed256, .direct, .basic, .none])
    func picturesExactly(depth: ColorDepth) throws {
        // Colours that change every few packets, tiles over them, and a scroll: a busy picture.
        var generator = SeededGenerator(state: 7)
        var writer = CDGWriter()
        for step in 0..<120 {
            let colors = (0..<8).map { _ in
                (
                    Int.random(in: 0...15, using: &generator), Int.random(in: 0...15, using: &generator),
                    Int.random(in: 0...15, using: &generator)
                )
            }
            writer.colorTable(high: step % 2 == 1, colors)
            if step % 10 == 0 { writer.memoryPreset(color: step % 16) }
            for _ in 0..<6 {
                writer.tile(
                    color0: Int.random(in: 0...15, using: &generator),
                    color1: Int.random(in: 0...15, using: &generator),
                    row: Int.random(in: 0...17, using: &generator), column: Int.random(in: 0...49, using: &generator),
                    rows: (0..<12).map { _ in UInt8.random(in: 0...63, using: &generator) })
            }
            if step % 25 == 24 { writer.scroll(color: 3, vertical: 2, verticalOffset: 0, copy: true) }
            writer.nothing(3)
        }
        var track = CDGTrack(bytes: writer.bytes, renderer: HalfBlockRenderer(), depth: depth)
        var composer = FrameComposer(
            content: .graphics(SongMetadata()), fallbackTitle: "song.cdg", columns: 50, rows: 14,
            options: FrameOptions(),
            length: 4000)
        let song = try Fixtures.song("lantern-river.lrc")
        var lyrics = FrameComposer(song: song, fallbackTitle: "", columns: 50, rows: 14, options: FrameOptions())
        var screen = ScreenWriter(codes: .xterm(direct: depth == .direct), depth: depth, columns: 50, rows: 14)
        var terminal = TinyTerminal(columns: 50, rows: 14)
        for k in 0..<80 {
            let time = Double(k) / 30
            var shown: Frame
            if k < 60 {
                var input = FrameInput(time: time, help: (20..<30).contains(k) ? PlayerAction.help : nil)
                let size = composer.pictureSize
                input.picture = track.cells(at: time, columns: size.columns, rows: size.rows)
                shown = composer.frame(input)
                if input.help == nil { #expect(shown.rows.contains { $0.kind == .picture }) }
            } else {
                shown = lyrics.frame(at: 10 + time)
            }
            terminal.feed(screen.write(shown))
            guard terminal.cells == TinyTerminal.expected(shown, columns: 50, depth: depth) else {
                Issue.record("frame \(k) differs on the terminal")
                return
            }
        }
    }
}
