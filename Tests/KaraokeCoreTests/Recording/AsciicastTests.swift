import Testing
@testable import KaraokeCore

/// The string member `name` of a JSON object, or nil.
private func member(_ value: JSONValue, _ name: String) -> JSONValue? {
    guard case .object(let members) = value else { return nil }
    return members[name]
}

/// An event line read back: its time, its kind and its bytes.
private func event(_ line: String) throws -> (seconds: Double, kind: String, bytes: [UInt8]) {
    let value = try JSONValue.parse(Array(line.utf8))
    guard case .array(let items) = value, items.count == 3, case .number(let seconds) = items[0],
        case .string(let kind) = items[1], case .string(let text) = items[2]
    else {
        Issue.record("not an event: \(line)")
        throw JSONValue.Malformed(offset: 0, reason: "not an event")
    }
    return (seconds, kind, Array(text.utf8))
}

/// The recording of `song` over `span` on a `columns` × `rows` terminal with xterm's codes at `depth`, as
/// `render --format asciicast` composes it: each event with the moment it was made at.
private func record(
    _ song: Song, span: FrameSpan, columns: Int, rows: Int, depth: ColorDepth, options: FrameOptions = FrameOptions()
) -> [(moment: FrameSpan.Moment, frame: Frame, line: String?)] {
    var composer = FrameComposer(song: song, fallbackTitle: "", columns: columns, rows: rows, options: options)
    var cast = Asciicast(codes: .xterm(direct: depth == .direct), depth: depth, columns: columns, rows: rows)
    return span.map { moment in
        let frame = composer.frame(moment.input(userOffset: options.userOffset, reduceMotion: options.reduceMotion))
        return (moment, frame, cast.event(for: frame, at: moment.seconds))
    }
}

@Suite("Asciicast: the header and the events")
struct AsciicastTests {
    @Test("the header is one line of JSON: version 2, the size, the time, the title and TERM")
    func headerFields() throws {
        let header = Asciicast.Header(
            width: 80, height: 24, timestamp: 1_700_000_000, title: "Paper \"Boats\"\u{1B}[31m\\",
            terminalType: "xterm-256color")
        let line = header.line
        #expect(line.hasSuffix("}\n") && line.dropLast().allSatisfy { $0 != "\n" })
        let value = try JSONValue.parse(Array(line.utf8))
        #expect(member(value, "version") == .number(2))
        #expect(member(value, "width") == .number(80))
        #expect(member(value, "height") == .number(24))
        #expect(member(value, "timestamp") == .number(1_700_000_000))
        #expect(member(value, "title") == .string("Paper \"Boats\"\u{1B}[31m\\"))
        #expect(member(value, "env").flatMap { member($0, "TERM") } == .string("xterm-256color"))
        // The escape byte of a hostile title is written escaped, never raw.
        #expect(line.contains("\\u001b[31m") && !line.contains("\u{1B}"))
    }

    @Test("an event line is JSON: the time in microseconds, \"o\", and the bytes with control bytes escaped")
    func eventLine() throws {
        let bytes = Array("\u{1B}[1;5H\u{1B}[38;5;213mé\"\\\r\n\u{7}ね".utf8)
        let line = Asciicast.eventLine(seconds: 1.0333333, bytes: bytes)
        #expect(line.hasPrefix("[1.033333, \"o\", \"\\u001b[1;5H"))
        #expect(line.hasSuffix("]\n"))
        #expect(!line.dropLast().contains { $0.isNewline || $0 == "\u{1B}" || $0 == "\u{7}" })
        let read = try event(line)
        #expect(read.kind == "o")
        #expect(read.bytes == bytes)
        #expect(abs(read.seconds - 1.033333) < 1e-9)
    }

    @Test(
        "times are written with six decimals",
        arguments: [(0, "0.000000"), (0.5, "0.500000"), (10.0000004, "10.000000"), (2.9999996, "3.000000")])
    func secondsText(seconds: Double, text: String) {
        #expect(Asciicast.secondsText(seconds) == text)
    }

    @Test("the first event starts with what play writes first: the alternate screen, no cursor, a clear")
    func setUpFirst() throws {
        let codes = TerminalCodes.xterm()
        #expect(codes.setUp == Array("\u{1B}[?1049h\u{1B}[22;0;0t\u{1B}[?25l\u{1B}[H\u{1B}[2J".utf8))
        var cast = Asciicast(codes: codes, depth: .indexed256, columns: 30, rows: 8)
        let song = try Fixtures.song("paper-boats.lrc")
        var composer = FrameComposer(song: song, fallbackTitle: "", columns: 30, rows: 8, options: FrameOptions())
        let frame = composer.frame(at: 10)
        let first = cast.event(for: frame, at: 0)
        let line = try #require(first)
        let bytes = try event(line).bytes
        #expect(bytes.starts(with: codes.setUp))
        #expect(bytes.count > codes.setUp.count)
    }

    @Test("a frame that changes nothing gives no event, and the set-up is written once")
    func unchangedFrameGivesNoEvent() throws {
        let song = try Fixtures.song("paper-boats.lrc")
        var composer = FrameComposer(song: song, fallbackTitle: "", columns: 30, rows: 8, options: FrameOptions())
        var cast = Asciicast(codes: .xterm(), depth: .none, columns: 30, rows: 8)
        let frame = composer.frame(at: 10)
        let first = cast.event(for: frame, at: 0)
        let again = cast.event(for: frame, at: 0.1)
        #expect(first != nil)
        #expect(again == nil)
        let later = cast.event(for: composer.frame(at: 16), at: 6)
        let next = try #require(later)
        #expect(!(try event(next).bytes.starts(with: TerminalCodes.xterm().setUp)))
    }

    @Test("without colour, a still stretch of a song gives no events: only frames that changed are written")
    func stillStretchIsQuiet() throws {
        // Under reduce motion and no colour the title stands still and whole lines light: between two
        // lines nothing changes.
        var options = FrameOptions()
        options.reduceMotion = true
        let events = record(
            try Fixtures.song("paper-boats.lrc"), span: FrameSpan(start: 0, end: 20, framesPerSecond: 30),
            columns: 60, rows: 12, depth: .none, options: options)
        let written = events.filter { $0.line != nil }
        #expect(events.count == 601)
        #expect(written.count >= 2)
        #expect(written.count < events.count / 10)
    }
}

@Suite("Recording a span: the frames play composes")
struct FrameSpanTests {
    @Test("frames are on play's grid from --from, up to and including --to")
    func grid() {
        let span = FrameSpan(start: 10, end: 11, framesPerSecond: 4)
        #expect(span.map(\.time) == [10, 10.25, 10.5, 10.75, 11])
        #expect(span.map(\.seconds) == [0, 0.25, 0.5, 0.75, 1])
    }

    @Test("an end off the grid stops at the last frame before it; a rounding error short of a frame counts")
    func endOffGrid() {
        #expect(FrameSpan(start: 0, end: 1.01, framesPerSecond: 10).count == 11)
        #expect(FrameSpan(start: 0, end: 1.09, framesPerSecond: 10).count == 11)
        #expect(FrameSpan(start: 0, end: 0.1, framesPerSecond: 30).count == 4)
        #expect(FrameSpan(start: 5, end: 5, framesPerSecond: 30).count == 1)
    }

    @Test("the title's clock is the whole tenths of a second since the first frame, as play's loop gives it")
    func titleTime() {
        let span = FrameSpan(start: 42, end: 43, framesPerSecond: 30)
        #expect(span[0].titleTime == 0)
        #expect(span[2].titleTime == 0)
        #expect(span[3].titleTime == 0.1)
        #expect(span[4].titleTime == 0.1)
        #expect(span[30].titleTime == 1)
        var clock = LoopClock(framesPerSecond: 30, now: 100)
        clock.restart(at: 100)
        for moment in span { #expect(moment.titleTime == clock.titleTime(at: 100 + moment.seconds)) }
    }

    @Test("a moment's input shows its playback time with the title clock, the offset and reduce motion")
    func input() {
        let moment = FrameSpan(start: 3, end: 4, framesPerSecond: 10)[5]
        let input = moment.input(userOffset: -200, reduceMotion: true)
        #expect(input.time == 3.5)
        #expect(input.titleTime == 0.5)
        #expect(input.userOffset == -200)
        #expect(input.reduceMotion)
        #expect(!input.paused && input.notice == nil && input.help == nil)
    }
}

@Suite("Asciicast replayed on a terminal")
struct AsciicastReplayTests {
    @Test(
        "the recording replayed on a terminal shows, at every sampled moment, the text render draws then",
        arguments: [ColorDepth.indexed256, .direct, .none])
    func replayMatchesRender(depth: ColorDepth) throws {
        let song = try Fixtures.song("paper-boats.lrc")
        let span = FrameSpan(start: 3, end: 23, framesPerSecond: 30)
        let events = record(song, span: span, columns: 60, rows: 12, depth: depth)
        var terminal = TinyTerminal(columns: 60, rows: 12)
        var last = -1.0
        var sampled = 0
        for (index, recorded) in events.enumerated() {
            if let line = recorded.line {
                let read = try event(line)
                #expect(read.kind == "o")
                #expect(read.seconds > last, "times increase")
                last = read.seconds
                terminal.feed(read.bytes)
            }
            // Every 23rd frame (not a divisor of the frame rate, so the samples fall mid-sweep too).
            guard index % 23 == 0 else { continue }
            sampled += 1
            var render = FrameComposer(song: song, fallbackTitle: "", columns: 60, rows: 12, options: FrameOptions())
            let expected = render.frame(at: recorded.moment.time).textRendering()
            #expect(terminal.text == expected, "at \(recorded.moment.time) s")
            // Every cell's colour too, against the frame as recorded (its title on the loop's clock).
            #expect(terminal.cells == TinyTerminal.expected(recorded.frame, columns: 60, depth: depth))
        }
        #expect(sampled >= 20)
    }

    @Test("a right-to-left song's recording asks the terminal not to reorder its rows, once")
    func rightToLeft() throws {
        let song = try #require(
            LRCParser.parse(Array("[00:01.00]שלום עולם\n[00:04.00]עוד שורה\n".utf8), file: "rtl.lrc").song)
        let events = record(
            song, span: FrameSpan(start: 0, end: 5, framesPerSecond: 10), columns: 30, rows: 8, depth: .none)
        let bytes = try events.compactMap(\.line).map { try event($0).bytes }
        let modeSets = bytes.filter { String(decoding: $0, as: UTF8.self).contains("\u{1B}[8h") }
        #expect(modeSets.count == 1)
    }
}
