import Testing
@testable import KaraokeCore

/// The frame of a bundled song at `time`.
private func frame(
    _ name: String, at time: Double, columns: Int = 80, rows: Int = 24,
    options: FrameOptions = FrameOptions(), titleTime: Double? = nil, paused: Bool = false,
    showsHelp: Bool = false
) throws -> Frame {
    let song = try Fixtures.song(name)
    var composer = FrameComposer(song: song, fallbackTitle: name, columns: columns, rows: rows, options: options)
    return composer.frame(at: time, titleTime: titleTime, paused: paused, showsHelp: showsHelp)
}

/// The frame of an inline LRC text at `time`.
private func frame(
    text: String, fallbackTitle: String = "inline.lrc", at time: Double, columns: Int = 60,
    rows: Int = 16, options: FrameOptions = FrameOptions()
) throws -> Frame {
    let song = try Fixtures.song(text: text)
    var composer = FrameComposer(
        song: song, fallbackTitle: fallbackTitle, columns: columns, rows: rows,
        options: options)
    return composer.frame(at: time)
}

/// The rows of a frame showing lyric line `line`, top to bottom.
private func rowIndices(of line: Int, in frame: Frame) -> [Int] {
    frame.rows.indices.filter { frame.rows[$0].kind == .lyric && frame.rows[$0].line == line }
}

/// The current line of a bundled song at playback `time`, as the clock finds it.
private func currentLine(_ name: String, at time: Double, userOffset: Int = 0) throws -> Int? {
    let song = try Fixtures.song(name)
    return LyricClock.currentLine(
        in: song,
        at: LyricClock.fileTime(
            playback: time, song: song,
            userOffset: userOffset))
}

/// Options with reduce motion on.
private var reducedMotion: FrameOptions {
    var options = FrameOptions()
    options.reduceMotion = true
    return options
}

@Suite("Frame composer")
struct FrameComposerTests {
    @Test(
        "a frame has exactly as many rows as the screen",
        arguments: [
            (columns: 80, rows: 24), // the render default
            (columns: 40, rows: 14), // small
            (columns: 12, rows: 5), // the smallest with lyrics
            (columns: 200, rows: 60), // large
            (columns: 11, rows: 24), // too narrow
            (columns: 80, rows: 4), // too short
            (columns: 1, rows: 1), // a single cell
        ])
    func rowCount(columns: Int, rows: Int) throws {
        for time in [0.0, 18.5, 60, 500] {
            let composed = try frame("lantern-river.lrc", at: time, columns: columns, rows: rows)
            #expect(composed.rows.count == rows)
            #expect(composed.rowCount == rows)
            #expect(composed.columns == columns)
        }
    }

    @Test(
        "no row is wider than the screen",
        arguments: [
            (name: "lantern-river.lrc", columns: 40, rows: 14),
            (name: "sakura-station.lrc", columns: 23, rows: 20),
            (name: "desert-stars.lrc", columns: 30, rows: 16),
            (name: "paper-boats.lrc", columns: 12, rows: 5),
        ])
    func rowsFit(name: String, columns: Int, rows: Int) throws {
        for time in stride(from: 0.0, through: 80, by: 2.5) {
            let composed = try frame(name, at: time, columns: columns, rows: rows)
            for row in composed.rows {
                for cell in row.cells {
                    #expect(
                        cell.column >= 0 && cell.column + cell.width <= columns,
                        "\(name) at \(time): '\(cell.grapheme)' at \(cell.column) wide \(cell.width)")
                }
                // Cells are in increasing column and never overlap.
                for (left, right) in zip(row.cells, row.cells.dropFirst()) {
                    #expect(left.column + left.width <= right.column)
                }
            }
        }
    }

    @Test("the title row shows `ti — ar`, centred")
    func titleWithArtist() throws {
        let composed = try frame("lantern-river.lrc", at: 10)
        let title = composed.rows[0]
        #expect(title.kind == .title)
        let text = "Lantern River — The Karaoke Band"
        #expect(title.text.trimmingSpaces() == text)
        let left = title.text.count - text.count
        #expect(abs(left - (80 - DisplayWidth.of(text)) / 2) <= 1)
    }

    @Test(
        "the title is the file name without [ti:], and the title alone without [ar:]",
        arguments: [
            (tags: "", expected: "my song.lrc"), // no tags
            (tags: "[ar:Somebody]\n", expected: "my song.lrc"), // an artist is not a title
            (tags: "[ti:Only Title]\n", expected: "Only Title"), // a title alone
            (tags: "[ti:T]\n[ar:A]\n", expected: "T — A"), // both
        ])
    func titleFallback(tags: String, expected: String) throws {
        let composed = try frame(text: tags + "[00:01.00]hello\n", fallbackTitle: "my song.lrc", at: 2)
        #expect(composed.rows[0].kind == .title)
        #expect(composed.rows[0].text.trimmingSpaces() == expected)
    }

    @Test("a title wider than the screen is cut with an ellipsis")
    func longTitle() throws {
        let composed = try frame(
            text: "[ti:\(String(repeating: "long ", count: 20))]\n[00:01.00]x\n",
            at: 2, columns: 30, rows: 8)
        let text = composed.rows[0].text
        #expect(text.hasSuffix("…"))
        #expect(DisplayWidth.of(text) <= 30)
    }

    @Test("the status bar is the last row, with the position and the total")
    func statusRow() throws {
        let composed = try frame("lantern-river.lrc", at: 18.5)
        let status = try #require(composed.rows.last)
        #expect(status.kind == .status)
        #expect(status.text.contains("0:18 / 1:40"))
        #expect(status.text.hasPrefix("▶"))
        let paused = try frame("lantern-river.lrc", at: 18.5, paused: true)
        #expect(paused.rows[23].text.hasPrefix("⏸"))
    }

    @Test("the status bar shows the player's user offset when it is not 0")
    func statusOffset() throws {
        let song = try Fixtures.song("lantern-river.lrc")
        var composer = FrameComposer(song: song, fallbackTitle: "x", columns: 80, rows: 24, options: FrameOptions())
        var state = PlayerState(song: song, start: 10, now: 0)
        #expect(!composer.frame(state.frameInput(at: 0, titleTime: 0)).rows[23].text.contains("offset"))
        state.apply(.adjustOffset(-300), at: 0)
        #expect(composer.frame(state.frameInput(at: 0, titleTime: 0)).rows[23].text.contains("offset -0.3s"))
    }

    @Test(
        "the current line stands near 40 % of the lyric viewport",
        arguments: [
            (rows: 24, time: 18.5), // a one-row line
            (rows: 14, time: 22.5), // a smaller screen
            (rows: 40, time: 60), // a taller one, after a gap
            (rows: 10, time: 0.5), // before the first line, the first line waits there
        ])
    func currentLineAtFortyPercent(rows: Int, time: Double) throws {
        let composed = try frame("lantern-river.lrc", at: time, columns: 80, rows: rows)
        let current = try currentLine("lantern-river.lrc", at: time) ?? 0
        let first = try #require(rowIndices(of: current, in: composed).first)
        let target = 1 + Double(rows - 2) * 0.4
        #expect(abs(Double(first) - target) <= 1, "line \(current) at row \(first), expected near \(target)")
    }

    @Test("lines above the current one are sung, lines below are not", arguments: [5.0, 18.5, 33, 60, 90])
    func sungAboveUnsungBelow(time: Double) throws {
        let composed = try frame("lantern-river.lrc", at: time, columns: 40, rows: 30)
        let current = try #require(try currentLine("lantern-river.lrc", at: time))
        var above = 0, below = 0
        for row in composed.rows where row.kind == .lyric {
            let line = try #require(row.line)
            let fills = row.cells.map(\.fill)
            if line < current {
                above += 1
                #expect(fills.allSatisfy { $0 == 1 }, "line \(line) above \(current)")
            } else if line > current {
                below += 1
                #expect(fills.allSatisfy { $0 == 0 }, "line \(line) below \(current)")
            }
        }
        // The lines above come before the current line on screen and the coming lines after it.
        let currentRows = rowIndices(of: current, in: composed)
        for (index, row) in composed.rows.enumerated() where row.kind == .lyric {
            let line = try #require(row.line)
            if line < current { #expect(index < currentRows[0]) }
            if line > current { #expect(index > currentRows.last!) }
        }
        if current > 0 { #expect(above > 0) }
        #expect(below > 0)
    }

    @Test("lines are shown in order, top to bottom")
    func linesInOrder() throws {
        let composed = try frame("lantern-river.lrc", at: 40, columns: 40, rows: 40)
        let lines = composed.rows.compactMap { $0.kind == .lyric ? $0.line : nil }
        #expect(lines == lines.sorted())
        #expect(Set(lines).count >= 8)
    }

    @Test("mid-line the current line is partly sung, sung cells before unsung ones")
    func currentLineMidSweep() throws {
        // "Every flame a wish I never said" runs 18 s → 22 s.
        let composed = try frame("lantern-river.lrc", at: 19.5)
        let row = try #require(rowIndices(of: 3, in: composed).first)
        let fills = composed.rows[row].cells.map(\.fill)
        #expect(fills.first == 1)
        #expect(fills.last == 0)
        #expect(fills == fills.sorted(by: >))
        // 1.5 s into a 4 s sweep (no cap: the median line is 4.5 s) of 31 cells: 11.625 cells sung.
        let sung = composed.rows[row].cells.reduce(0) { $0 + $1.fill * Double($1.width) }
        #expect(abs(sung - 0.375 * 31) < 0.001)
        #expect(fills.contains { $0 > 0 && $0 < 1 })
    }

    @Test("before the first line nothing is sung and the first line waits at the current line's place")
    func beforeTheFirstLine() throws {
        let composed = try frame("lantern-river.lrc", at: 1.0, columns: 50, rows: 20)
        let lyricCells = composed.rows.filter { $0.kind == .lyric }.flatMap(\.cells)
        #expect(!lyricCells.isEmpty)
        #expect(lyricCells.allSatisfy { $0.fill == 0 })
        let first = try #require(rowIndices(of: 0, in: composed).first)
        #expect(first == 1 + Int(Double(20 - 2) * 0.4))
        // Nothing above the first line.
        #expect(composed.rows[1..<first].allSatisfy { $0.kind == .blank })
    }

    @Test("a positive user offset shows the lyrics earlier")
    func userOffsetShiftsTheScreen() throws {
        let song = try Fixtures.song("lantern-river.lrc")
        var composer = FrameComposer(song: song, fallbackTitle: "x", columns: 80, rows: 24, options: FrameOptions())
        // 8.4 s: line 0 is current; lyrics 400 ms earlier make "The evening water…" (8.5 s) current, and
        // 300 ms into it the view has finished gliding to it.
        var state = PlayerState(song: song, start: 8.4, now: 0)
        #expect(rowIndices(of: 0, in: composer.frame(state.frameInput(at: 0, titleTime: 0))).first == 9)
        state.apply(.adjustOffset(400), at: 0)
        let shifted = composer.frame(state.frameInput(at: 0, titleTime: 0))
        #expect(rowIndices(of: 1, in: shifted).first == 9)
        #expect(shifted.rows[rowIndices(of: 0, in: shifted)[0]].cells.allSatisfy { $0.fill == 1 })
    }

    @Test("just after a line starts the view glides up to it, but not under reduce motion or paused")
    func scrollAnimation() throws {
        let song = try Fixtures.song("lantern-river.lrc")
        // Line 1 starts at 8.5 s; line 0 above it is one row high, so the glide covers two rows.
        var composer = FrameComposer(song: song, fallbackTitle: "x", columns: 80, rows: 24, options: FrameOptions())
        let anchor = 1 + Int(Double(22) * 0.4)
        var rows: [Int] = []
        for step in 0...6 {
            rows.append(try #require(rowIndices(of: 1, in: composer.frame(at: 8.5 + Double(step) * 0.05)).first))
        }
        #expect(rows.first == anchor + 2)
        #expect(rows.last == anchor)
        #expect(zip(rows, rows.dropFirst()).allSatisfy { $0 >= $1 }, "only ever upward: \(rows)")
        var options = FrameOptions()
        options.reduceMotion = true
        var still = FrameComposer(song: song, fallbackTitle: "x", columns: 80, rows: 24, options: options)
        #expect(rowIndices(of: 1, in: still.frame(at: 8.5)).first == anchor)
        // Paused at a line's start (after a seek to it), the view has arrived rather than frozen mid-glide.
        #expect(rowIndices(of: 1, in: composer.frame(at: 8.5, paused: true)).first == anchor)
    }

    @Test("a line taller than the screen scrolls within itself, keeping the row being sung at 40 %")
    func tallLineKeepsTheSweepInView() throws {
        let words = (0..<300).map { "word\($0 % 10)" }.joined(separator: " ")
        let song = try Fixtures.song(text: "[00:00.00]\(words)\n[00:20.00]end")
        var composer = FrameComposer(song: song, fallbackTitle: "x", columns: 40, rows: 12, options: FrameOptions())
        let anchor = 1 + Int(Double(10) * 0.4)
        // At the start the line begins on the first lyric row.
        #expect(rowIndices(of: 0, in: composer.frame(at: 0.01)).first == 1)
        for time in [5.0, 10.0, 15.0] {
            let frame = composer.frame(at: time)
            let sweeping = frame.rows.firstIndex { $0.kind == .lyric && $0.cells.contains { $0.fill < 1 } }
            #expect(sweeping == anchor, "at \(time) s")
            #expect(frame.rows[anchor - 1].cells.allSatisfy { $0.fill == 1 }, "sung rows above it at \(time) s")
        }
    }

    @Test("after the last line everything is sung")
    func afterTheEnd() throws {
        let composed = try frame("lantern-river.lrc", at: 100)
        let lyricCells = composed.rows.filter { $0.kind == .lyric }.flatMap(\.cells)
        #expect(!lyricCells.isEmpty)
        #expect(lyricCells.allSatisfy { $0.fill == 1 })
    }

    @Test("translations sit under their line, dimmer and never swept")
    func translations() throws {
        let composed = try frame("sakura-station.lrc", at: 6, columns: 60, rows: 20)
        let lineRows = rowIndices(of: 0, in: composed)
        let last = try #require(lineRows.last)
        let translation = composed.rows[last + 1]
        #expect(translation.kind == .translation)
        #expect(translation.line == 0)
        #expect(translation.text.trimmingSpaces() == "Waiting for you at the cherry-blossom station")
        #expect(translation.cells.allSatisfy { $0.fill == 0 && $0.role == .translation })
    }

    @Test(
        "a too-small terminal shows a notice and no lyrics",
        arguments: [
            (columns: 10, rows: 4), // both too small
            (columns: 11, rows: 30), // too narrow
            (columns: 80, rows: 4), // too short
            (columns: 1, rows: 1), // a single cell
        ])
    func tooSmall(columns: Int, rows: Int) throws {
        let composed = try frame("lantern-river.lrc", at: 20, columns: columns, rows: rows)
        #expect(composed.rows.count == rows)
        #expect(!composed.rows.contains { $0.kind == .lyric })
        let notices = composed.rows.filter { $0.kind == .notice }
        #expect(notices.count == 1)
        if columns >= 9 { #expect(notices.first?.text.contains("too small") == true) }
    }

    @Test("the smallest layout screen still shows the current line")
    func smallestScreen() throws {
        let composed = try frame(
            "lantern-river.lrc", at: 20, columns: FrameComposer.minimumColumns,
            rows: FrameComposer.minimumRows)
        #expect(composed.rows[0].kind == .title)
        #expect(composed.rows[4].kind == .status)
        #expect(!rowIndices(of: 3, in: composed).isEmpty)
    }

    @Test(
        "reduce motion gives only whole fills at every moment",
        arguments: [
            "lantern-river.lrc", "paper-boats.lrc", "desert-stars.lrc", "sakura-station.lrc",
        ])
    func reduceMotionFills(name: String) throws {
        for time in stride(from: 0.0, through: 75, by: 0.37) {
            let composed = try frame(name, at: time, columns: 40, rows: 16, options: reducedMotion)
            let fills = composed.rows.flatMap(\.cells).filter { $0.role == .lyric }.map(\.fill)
            #expect(fills.allSatisfy { $0 == 0 || $0 == 1 }, "\(name) at \(time)")
        }
    }

    @Test("without reduce motion the sweep shows partial fills somewhere")
    func sweepHasPartialFills() throws {
        var partial = 0
        for time in stride(from: 4.0, through: 20, by: 0.37) {
            let composed = try frame("paper-boats.lrc", at: time, columns: 60, rows: 12)
            partial += composed.rows.flatMap(\.cells).filter { $0.fill > 0 && $0.fill < 1 }.count
        }
        #expect(partial > 0)
    }

    @Test("reduce motion holds the title still, while otherwise it drifts")
    func titleDrift() throws {
        let still1 = try frame("lantern-river.lrc", at: 10, options: reducedMotion, titleTime: 0.3)
        let still2 = try frame("lantern-river.lrc", at: 10, options: reducedMotion, titleTime: 2.9)
        #expect(still1.rows[0].cells.map(\.color) == still2.rows[0].cells.map(\.color))
        let moving1 = try frame("lantern-river.lrc", at: 10, titleTime: 0.3)
        let moving2 = try frame("lantern-river.lrc", at: 10, titleTime: 2.9)
        #expect(moving1.rows[0].cells.map(\.color) != moving2.rows[0].cells.map(\.color))
        // The still title is the drifting one at the start of its cycle.
        let start = try frame("lantern-river.lrc", at: 10, titleTime: 0)
        #expect(still1.rows[0].cells.map(\.color) == start.rows[0].cells.map(\.color))
    }

    @Test("the title's colours follow the gradient across its width")
    func titleColors() throws {
        let composed = try frame("lantern-river.lrc", at: 10, options: reducedMotion)
        let cells = composed.rows[0].cells
        let first = try #require(cells.first)
        let width = Double(cells.last!.column + cells.last!.width - first.column)
        let gradient = TitleGradient()
        for cell in cells {
            let u = (Double(cell.column - first.column) + Double(cell.width) / 2) / width
            #expect(cell.color == gradient.color(at: u, shift: 0))
        }
    }

    @Test("the help overlay lists every key over the lyrics, between the title and the status")
    func helpOverlay() throws {
        let composed = try frame("lantern-river.lrc", at: 18.5, showsHelp: true)
        #expect(composed.rows.count == 24)
        #expect(composed.rows[0].kind == .title)
        #expect(composed.rows[23].kind == .status)
        let notice = composed.rows.filter { $0.kind == .notice }.map(\.text).joined(separator: "\n")
        #expect(notice.contains("Keys"))
        for entry in PlayerAction.help {
            #expect(notice.contains(entry.keys), "\(entry.keys)")
            #expect(notice.contains(entry.meaning), "\(entry.meaning)")
        }
        #expect(notice.contains("Esc"))
        // The box is closed: a top and a bottom edge.
        #expect(notice.contains("┌") && notice.contains("┘"))
    }

    @Test("the help overlay is not shown when not asked for")
    func noHelpOverlay() throws {
        let composed = try frame("lantern-river.lrc", at: 18.5)
        #expect(!composed.rows.contains { $0.kind == .notice })
    }

    @Test(
        "the help overlay fits a small screen",
        arguments: [
            (columns: 20, rows: 8), (columns: 12, rows: 5), (columns: 40, rows: 10),
        ])
    func helpOnSmallScreen(columns: Int, rows: Int) throws {
        let composed = try frame("lantern-river.lrc", at: 18.5, columns: columns, rows: rows, showsHelp: true)
        #expect(composed.rows.count == rows)
        for row in composed.rows {
            #expect(DisplayWidth.of(row.text) <= columns)
        }
    }

    @Test("right-to-left lines are marked so the painter asks for no reordering")
    func rightToLeftRows() throws {
        let composed = try frame("desert-stars.lrc", at: 10, columns: 40, rows: 16)
        #expect(composed.hasRightToLeftRows)
        let english = try frame("lantern-river.lrc", at: 10, columns: 40, rows: 16)
        #expect(!english.hasRightToLeftRows)
    }

    @Test("alignment puts the lyric rows left, centred or right", arguments: FrameOptions.Alignment.allCases)
    func alignment(alignment: FrameOptions.Alignment) throws {
        var options = FrameOptions()
        options.alignment = alignment
        let composed = try frame(text: "[00:01.00]abcd\n", at: 2, columns: 40, rows: 10, options: options)
        let row = try #require(composed.rows.first { $0.kind == .lyric })
        let start = try #require(row.cells.first?.column)
        switch alignment {
        case .left: #expect(start == 2)
        case .center: #expect(start == 2 + (36 - 4) / 2)
        case .right: #expect(start == 40 - 2 - 4)
        }
    }
}
