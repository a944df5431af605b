import Testing
@testable import KaraokeCore

@Suite("Note lanes on screen")
struct NoteLanesScreenTests {
    static let track = LaneFixtures.track(parts: [LaneFixtures.solo])

    /// A composer of the solo fixture at `columns` × `rows`, with lanes or without.
    static func composer(columns: Int = 80, rows: Int, lanes: Bool, options: FrameOptions = FrameOptions()) throws
        -> FrameComposer
    {
        let song = try LaneFixtures.song(title: "Golden Song", parts: [LaneFixtures.solo])
        return FrameComposer(
            song: song, fallbackTitle: "lanes.txt", columns: columns, rows: rows, options: options,
            lanes: lanes ? NoteLanes(track: track, parts: [nil]) : nil)
    }

    @Test(
        "the strip's height follows the screen's, and a duet gets two strips from 20 rows",
        arguments: [
            // (screen rows, parts, strips, height)
            (24, 1, 1, 7), (40, 1, 1, 8), (12, 1, 1, 4), (9, 1, 1, 4), (8, 1, 0, 0), (5, 1, 0, 0),
            (24, 2, 2, 5), (40, 2, 2, 8), (20, 2, 2, 4), (19, 2, 1, 5), (10, 2, 1, 4),
        ])
    func arrangement(rows: Int, parts: Int, strips: Int, height: Int) {
        let lanes = NoteLanes(track: NoteLanesScreenTests.track, parts: (0..<parts).map { Voice.part($0) })
        let arranged = lanes.arrangement(screenRows: rows)
        #expect(arranged.strips == strips && arranged.height == height)
        // The lyric area always keeps its three rows.
        #expect(rows - 2 - strips * height >= 3 || strips == 0)
    }

    @Test(
        "on a screen too short for strip, title, three lyric rows and status the lanes are left out",
        arguments: [
            6, 7, 8,
        ])
    func tooShort(rows: Int) throws {
        var with = try NoteLanesScreenTests.composer(rows: rows, lanes: true)
        var without = try NoteLanesScreenTests.composer(rows: rows, lanes: false)
        for beat in [0.0, 18.5, 50] {
            let time = LaneFixtures.seconds(atBeat: beat)
            let frame = with.frame(at: time)
            #expect(frame == without.frame(at: time))
            #expect(!frame.rows.contains { $0.kind == .lanes })
        }
    }

    @Test("the strip sits under the title and the lyrics move below it")
    func stripUnderTheTitle() throws {
        var composer = try NoteLanesScreenTests.composer(rows: 24, lanes: true)
        let frame = composer.frame(at: LaneFixtures.seconds(atBeat: 10))
        #expect(frame.rows[0].kind == .title)
        #expect(frame.rows[1...7].allSatisfy { $0.kind == .lanes })
        #expect(frame.rows[8...22].allSatisfy { $0.kind != .lanes })
        #expect(frame.rows.contains { $0.kind == .lyric })
    }

    /// The lane cells of `frame`.
    static func laneCells(_ frame: Frame) -> [FrameCell] {
        frame.rows.filter { $0.kind == .lanes }.flatMap(\.cells)
    }

    @Test("a beat counts as hit only once judged: a hit beyond judgedThrough is still drawn unsung")
    func hitsOnlyUpToJudged() throws {
        var composer = try NoteLanesScreenTests.composer(rows: 24, lanes: true)
        var singer = SingerProgress(part: nil)
        singer.hitBeats = Set(0...7)
        singer.judgedThrough = 4
        let cells = NoteLanesScreenTests.laneCells(
            composer.frame(at: LaneFixtures.seconds(atBeat: 4.5), singers: [singer]))
        let hits = cells.filter { $0.glyph == LaneGrid.Glyph.hit }
        #expect(hits.count == 4)
        // The now column is 21; beats 0–3 sit left of it.
        #expect(hits.allSatisfy { $0.column < 21 && $0.fill == 1 })
    }

    @Test("the trail is drawn left of now only, and only frames with a pitch")
    func trailLeftOfNow() throws {
        var composer = try NoteLanesScreenTests.composer(rows: 24, lanes: true)
        var singer = SingerProgress(part: nil)
        singer.judgedThrough = 10
        let track = NoteLanesScreenTests.track
        // Sung a tone sharp of every note (never on a bar), frames up to beat 14 (four beats not heard yet at 10.5).
        singer.trail = stride(from: 0, to: 14, by: 0.5).map { beat in
            PitchFrame(time: track.time(ofBeat: 0) + beat * 50, midi: beat < 2 ? nil : 63, level: -20)
        }
        let cells = NoteLanesScreenTests.laneCells(
            composer.frame(at: LaneFixtures.seconds(atBeat: 10.5), singers: [singer]))
        let trail = cells.filter { $0.glyph == LaneGrid.Glyph.trail }
        #expect(!trail.isEmpty)
        #expect(trail.allSatisfy { $0.column <= 21 })
        // Beats 0 and 1 were silent: no dot on their columns (11 and 12).
        #expect(!trail.contains { $0.column == 11 || $0.column == 12 })
    }

    @Test("without singers the notes are drawn and no score is shown")
    func noSingers() throws {
        var composer = try NoteLanesScreenTests.composer(rows: 24, lanes: true)
        let frame = composer.frame(at: LaneFixtures.seconds(atBeat: 10))
        let cells = NoteLanesScreenTests.laneCells(frame)
        #expect(cells.contains { $0.glyph == LaneGrid.Glyph.unsung })
        #expect(!cells.contains { $0.glyph == LaneGrid.Glyph.hit || $0.glyph == LaneGrid.Glyph.trail })
        #expect(!frame.rows[23].text.contains("♪"))
    }

    @Test("freestyle notes are hollow and rap notes crossed, whether hit or not")
    func kindsHaveTheirGlyphs() throws {
        var composer = try NoteLanesScreenTests.composer(rows: 24, lanes: true)
        var singer = SingerProgress(part: nil)
        singer.hitBeats = Set(32...47)
        singer.judgedThrough = 48
        let cells = NoteLanesScreenTests.laneCells(
            composer.frame(at: LaneFixtures.seconds(atBeat: 48.5), singers: [singer]))
        // Beats 36–39 are rap (columns 9–12), 40–43 freestyle (13–16), with now at 21 for beat 48.
        #expect(
            cells.filter { (9...12).contains($0.column) }.allSatisfy { $0.glyph == LaneGrid.Glyph.rap && $0.fill == 1 })
        #expect(
            cells.filter { (13...16).contains($0.column) }.allSatisfy {
                $0.glyph == LaneGrid.Glyph.freestyle && $0.fill == 0
            })
        #expect(cells.filter { (9...16).contains($0.column) }.count == 8)
    }

    /// The four kinds of bar cell in a frame of the solo fixture mid-line: (hit, unsung, golden hit, golden unsung).
    static func barCells(theme: Theme) throws -> [FrameCell] {
        var options = FrameOptions()
        options.theme = theme
        var composer = try composer(rows: 24, lanes: true, options: options)
        var singer = SingerProgress(part: nil)
        singer.hitBeats = Set(0...3).union(8...11)
        singer.judgedThrough = 16
        let cells = laneCells(composer.frame(at: LaneFixtures.seconds(atBeat: 16.5), singers: [singer]))
        let hit = try #require(cells.first { $0.glyph == LaneGrid.Glyph.hit && $0.accent == nil })
        let unsung = try #require(cells.first { $0.glyph == LaneGrid.Glyph.unsung && $0.accent == nil })
        let goldHit = try #require(cells.first { $0.glyph == LaneGrid.Glyph.hit && $0.accent == theme.gold })
        let goldUnsung = try #require(cells.first { $0.glyph == LaneGrid.Glyph.unsung && $0.accent == theme.gold })
        return [hit, unsung, goldHit, goldUnsung]
    }

    @Test(
        "hit, unsung, golden hit and golden unsung bars look different at every colour depth",
        arguments: [ColorDepth.direct, .indexed256, .basic], [Theme.dark, Theme.light])
    func depthsKeepBarsApart(depth: ColorDepth, theme: Theme) throws {
        let styles = try NoteLanesScreenTests.barCells(theme: theme).map { TerminalStyle.of($0, depth: depth) }
        #expect(Set(styles).count == 4, "\(styles)")
    }

    @Test("on 8 colours golden bars are yellow and the rest keep the terminal's colour, hits bold, unsung dim")
    func basicColours() throws {
        let styles = try NoteLanesScreenTests.barCells(theme: .dark).map { TerminalStyle.of($0, depth: .basic) }
        #expect(styles.map(\.paletteIndex) == [nil, nil, 3, 3])
        #expect(styles.map(\.weight) == [.bold, .dim, .bold, .dim])
    }

    @Test("without colour, hit bars are bold and unsung ones normal", arguments: [Theme.dark, Theme.light])
    func noColour(theme: Theme) throws {
        let styles = try NoteLanesScreenTests.barCells(theme: theme).map { TerminalStyle.of($0, depth: .none) }
        #expect(styles.map(\.weight) == [.bold, .normal, .bold, .normal])
    }

    @Test(
        "gold reads on its background: far from it, and apart from the lyric ink", arguments: [Theme.dark, Theme.light])
    func goldIsReadable(theme: Theme) {
        #expect(ColorDepth.distance(theme.gold, theme.background) > 100_000)
        #expect(theme.gold != theme.foreground)
        #expect(ColorDepth.basicHueIndex(theme.gold) == 3)
    }

    @Test(
        "on 8 colours an ink keeps its hue, a gray keeps the terminal's colour",
        arguments: [
            (RGB(hex: 0x7FD3FF), Int?.some(6)), (RGB(hex: 0xB8F2A0), 2), (RGB(hex: 0xFFA8C8), 1),
            (RGB(hex: 0x0B5FA5), 6), (RGB(hex: 0x2F6B1F), 2), (RGB(hex: 0xFFC83D), 3), (RGB(hex: 0x9A6700), 3),
            (RGB(hex: 0x4040FF), 4), (RGB(hex: 0xC040C0), 5), (RGB(hex: 0x808080), nil), (RGB(hex: 0xFFFFFF), nil),
            (RGB(hex: 0x000000), nil),
        ])
    func inkHues(color: RGB, index: Int?) {
        #expect(ColorDepth.basicHueIndex(color) == index)
    }

    @Test("a duet on a short screen shares one strip, each part's bars in its ink")
    func sharedDuetStrip() throws {
        let parts = LaneFixtures.duet
        let song = try LaneFixtures.song(title: "Two Voices", parts: parts)
        var composer = FrameComposer(
            song: song, fallbackTitle: "lanes.txt", columns: 80, rows: 16, options: FrameOptions(),
            lanes: NoteLanes(track: LaneFixtures.track(parts: parts), parts: [.part(0), .part(1)]))
        let frame = composer.frame(at: LaneFixtures.seconds(atBeat: 14))
        #expect(frame.rows.filter { $0.kind == .lanes }.count == 4)
        let accents = Set(
            NoteLanesScreenTests.laneCells(frame).filter { $0.glyph == LaneGrid.Glyph.unsung }.map(\.accent))
        let theme = Theme.dark
        // Part 1 in the plain foreground (no accent), part 2 in its ink, the golden note in gold.
        #expect(accents == [nil, theme.ink(for: .part(1)), theme.gold])
    }

    @Test("lanes made from a track have one strip for a song without parts and one per part for a duet")
    func lanesFromTrack() {
        #expect(NoteLanes(track: NoteLanesScreenTests.track).parts == [nil])
        #expect(NoteLanes(track: LaneFixtures.track(parts: LaneFixtures.duet)).parts == [.part(0), .part(1)])
    }

    @Test("a singer is matched by part, else by place when there is one singer per strip")
    func singerMatching() {
        let lanes = NoteLanes(track: NoteLanesScreenTests.track, parts: [.part(0), .part(1)])
        var first = SingerProgress(part: .part(1))
        first.points = ScorePoints(notes: 1)
        let second = SingerProgress(part: .part(0))
        #expect(lanes.progress(of: .part(1), in: [first, second]) == first)
        #expect(lanes.progress(of: .part(0), in: [first, second]) == second)
        let solo = NoteLanes(track: NoteLanesScreenTests.track, parts: [nil])
        #expect(solo.progress(of: nil, in: [first]) == first)
        #expect(solo.progress(of: nil, in: []) == nil)
        #expect(lanes.progress(of: .part(1), in: [SingerProgress(part: nil)]) == nil)
    }

    @Test("lane rows appear in the JSON rendering with their kind")
    func jsonKind() throws {
        var composer = try NoteLanesScreenTests.composer(rows: 24, lanes: true)
        let json = composer.frame(at: LaneFixtures.seconds(atBeat: 10)).jsonRendering()
        #expect(json.contains("{\"row\":1,\"kind\":\"lanes\",\"text\":"))
    }
}

@Suite("Note lanes with hostile input")
struct NoteLanesHostileTests {
    @Test(
        "absurd times, pitches and beat grids draw nothing odd and never trap",
        arguments: [0.0, -1e300, 1e300, .nan, .infinity, -.infinity])
    func absurdValues(value: Double) throws {
        var composer = try NoteLanesScreenTests.composer(rows: 24, lanes: true)
        var singer = SingerProgress(part: nil)
        singer.judgedThrough = Int.max
        singer.hitBeats = [Int.min, 0, Int.max - 1]
        singer.trail = [
            PitchFrame(time: value, midi: 60, level: 0), PitchFrame(time: 1000, midi: value, level: value),
            PitchFrame(time: 1100, midi: 1e12, level: 0),
        ]
        for time in [value, 1.2] {
            let frame = composer.frame(at: time.isFinite ? time : 0, singers: [singer])
            #expect(frame.rows.count == 24)
        }
        for msPerBeat in [0.0, -50, value] {
            let track = NoteTrack(
                millisecondsPerBeat: msPerBeat, gap: value, lines: LaneFixtures.track(parts: [LaneFixtures.solo]).lines)
            let song = try LaneFixtures.song(title: "Broken", parts: [LaneFixtures.solo])
            var broken = FrameComposer(
                song: song, fallbackTitle: "x", columns: 80, rows: 24, options: FrameOptions(),
                lanes: NoteLanes(track: track, parts: [nil]))
            #expect(broken.frame(at: 1.2, singers: [singer]).rows.count == 24)
        }
    }
}
