import Testing
@testable import KaraokeCore

/// A song with a short gap (line 1 to 2) and a long one (line 2 to 3), each line ended by a stamp.
private let songText = """
    [00:10.00]first line
    [00:13.00]
    [00:15.00]second line
    [00:18.00]
    [00:30.00]third line
    [00:33.00]
    """

/// The count-in row of the frame of `songText` at `time`, if any.
private func countInRow(at time: Double, options: FrameOptions = FrameOptions()) throws -> FrameRow? {
    var composer = FrameComposer(
        song: try Fixtures.song(text: songText), fallbackTitle: "t", columns: 40, rows: 12, options: options)
    return composer.frame(at: time).rows.first { $0.kind == .countIn }
}

/// The count-in of DESIGN §14.3: when it shows, how its dots fill, and where.
@Suite("The count-in")
struct CountInTests {
    @Test(
        "three dots show in the last 3 s before the first line and before a line after more than 5 s of silence",
        arguments: [
            (time: 6.9, line: nil), // before the first line's count-in
            (time: 7.5, line: 0), // counting in the first line
            (time: 9.99, line: 0),
            (time: 10.5, line: nil), // the first line is sung
            (time: 13.5, line: nil), // a 2 s gap: no count-in
            (time: 26.0, line: nil), // the long gap, before its last 3 s
            (time: 28.0, line: 2), // counting in after a 12 s silence
            (time: 31.0, line: nil), // the third line is sung
        ] as [(time: Double, line: Int?)])
    func whenItShows(time: Double, line: Int?) throws {
        #expect(try countInRow(at: time)?.line == line)
    }

    @Test(
        "one dot fills each second; under reduce motion each lights whole as its second begins",
        arguments: [
            (remaining: 2.5, reduced: false, fills: [0.5, 0, 0]),
            (remaining: 1.5, reduced: false, fills: [1, 0.5, 0]),
            (remaining: 0.25, reduced: false, fills: [1, 1, 0.75]),
            (remaining: 2.5, reduced: true, fills: [1, 0, 0]),
            (remaining: 1.5, reduced: true, fills: [1, 1, 0]),
            (remaining: 0.25, reduced: true, fills: [1, 1, 1]),
        ] as [(remaining: Double, reduced: Bool, fills: [Double])])
    func dotsFill(remaining: Double, reduced: Bool, fills: [Double]) throws {
        var options = FrameOptions()
        options.reduceMotion = reduced
        let row = try #require(try countInRow(at: 30 - remaining, options: options))
        let dots = row.cells.filter { $0.grapheme == "●" }
        // Rounded in a statement of its own, with its type: inside #expect the type checker took seconds over it.
        let shown: [Double] = dots.map { ($0.fill * 1000).rounded() / 1000 }
        #expect(shown == fills)
    }

    @Test("the dots sit on the blank row just above the line they count in, centred over it")
    func placement() throws {
        var composer = FrameComposer(
            song: try Fixtures.song(text: songText), fallbackTitle: "t", columns: 40, rows: 12,
            options: FrameOptions())
        let frame = composer.frame(at: 28)
        let dotsRow = try #require(frame.rows.firstIndex { $0.kind == .countIn })
        let lineRow = try #require(frame.rows.firstIndex { $0.kind == .lyric && $0.line == 2 })
        #expect(dotsRow == lineRow - 1)
        let line = frame.rows[lineRow].cells
        let dots = frame.rows[dotsRow].cells
        let lineMiddle = (line.first!.column + line.last!.column + 1) / 2
        let dotsMiddle = (dots.first!.column + dots.last!.column + 1) / 2
        #expect(abs(lineMiddle - dotsMiddle) <= 1)
    }

    @Test("--no-countdown draws no dots")
    func turnedOff() throws {
        var options = FrameOptions()
        options.countIn = false
        #expect(try countInRow(at: 8, options: options) == nil)
        let invocation = try CommandLineParser.parse(["render", "song.lrc", "--at", "1", "--no-countdown"])
        guard case .render(let request) = invocation else {
            Issue.record("expected a render request")
            return
        }
        #expect(!request.display.frame.countIn)
    }

    @Test("the JSON frame names the row count-in, with the line it leads into and its cells' fills")
    func inJSON() throws {
        var composer = FrameComposer(
            song: try Fixtures.song(text: songText), fallbackTitle: "t", columns: 40, rows: 12,
            options: FrameOptions())
        let json = composer.frame(at: 28.5).jsonRendering()
        #expect(json.contains(#""kind":"countIn","text":"                 ● ● ●","line":2,"cells":[{"col":17,"#))
        #expect(json.contains(#""text":"●","width":1,"fill":1.0"#))
    }

    @Test("an instrumental break after a line timed only by the next stamp counts as silence")
    func capEndsTheLine() throws {
        // Four lines 2 s apart make the median 2 s and the cap 4 s: the third line stops sweeping at 8 s,
        // 16 s before the next stamp.
        let text = "[00:02.00]a\n[00:04.00]b\n[00:06.00]c\n[00:24.00]d\n[00:26.00]e\n[00:28.00]\n"
        var composer = FrameComposer(
            song: try Fixtures.song(text: text), fallbackTitle: "t", columns: 40, rows: 12, options: FrameOptions())
        #expect(composer.frame(at: 22).rows.contains { $0.kind == .countIn && $0.line == 3 })
        #expect(!composer.frame(at: 25).rows.contains { $0.kind == .countIn })
    }
}
