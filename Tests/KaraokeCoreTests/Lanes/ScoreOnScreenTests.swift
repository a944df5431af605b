import Testing
@testable import KaraokeCore

@Suite("The score on screen")
struct ScoreOnScreenTests {
    @Test(
        "scores are grouped in thousands",
        arguments: [
            (0, "0"), (999, "999"), (1000, "1,000"), (4210, "4,210"), (10000, "10,000"), (-1200, "-1,200"),
            (1_234_567, "1,234,567"),
        ])
    func grouped(n: Int, text: String) {
        #expect(StatusBar.grouped(n) == text)
    }

    @Test(
        "a line's grade follows the score for 2.5 s after it is judged",
        arguments: [(9_999.0, false), (10_000, true), (11_000, true), (12_499, true), (12_500, false), (20_000, false)])
    func gradeShownForAWhile(fileTime: Double, shown: Bool) {
        var singer = SingerProgress(part: nil)
        singer.points = ScorePoints(notes: 3000, golden: 1000, lineBonus: 210)
        singer.lastLine = LineResult(line: 2, accuracy: 0.9, grade: .great, judgedAt: 10_000)
        #expect(StatusBar.scoreText(of: singer, at: fileTime) == (shown ? "♪ 4,210 great" : "♪ 4,210"))
    }

    @Test(
        "the score comes first after the bar and stays when the row is too narrow for the hints",
        arguments: [30, 40, 50, 80, 120])
    func scoreKept(width: Int) {
        let laid = StatusBar.layOut(
            elapsed: 61, total: 200, paused: false, userOffset: 0, width: width, notice: nil, score: "♪ 4,210 great")
        let bar = laid.barWidth > 0 ? "━" : ""
        #expect(laid.text.hasPrefix("▶ 1:01 / 3:20  " + bar))
        let start = 15 + (laid.barWidth > 0 ? laid.barWidth + 2 : 0)
        #expect(laid.scoreStart == start)
        #expect(String(Array(laid.text)[start...]).hasPrefix("♪ 4,210 great"), "'\(laid.text)'")
        #expect(DisplayWidth.of(laid.text) <= width)
    }

    @Test("without scoring the status bar is as before")
    func noScore() {
        let plain = StatusBar.layOut(elapsed: 61, total: 200, paused: false, userOffset: 0, width: 80, notice: nil)
        let scored = StatusBar.layOut(
            elapsed: 61, total: 200, paused: false, userOffset: 0, width: 80, notice: nil, score: nil)
        #expect(plain == scored)
    }

    @Test("in a duet each singer's score is in that singer's ink")
    func duetInks() throws {
        let parts = LaneFixtures.duet
        let song = try LaneFixtures.song(title: "Two Voices", parts: parts)
        let track = LaneFixtures.track(parts: parts)
        let theme = Theme.dark
        var composer = FrameComposer(
            song: song, fallbackTitle: "lanes.txt", columns: 100, rows: 24, options: FrameOptions(),
            lanes: NoteLanes(track: track, parts: [.part(0), .part(1)]))
        var first = SingerProgress(part: .part(0))
        first.points = ScorePoints(notes: 1200)
        var second = SingerProgress(part: .part(1))
        second.points = ScorePoints(notes: 450)
        let status = composer.frame(at: 2, singers: [first, second]).rows[23]
        let cells = status.cells
        // Status text is one cell per character: "♪ 1,200" then two spaces then "♪ 450".
        let head = Array(status.text)
        let start = try #require(head.firstIndex(of: "♪"))
        #expect(cells[start..<(start + 7)].allSatisfy { $0.color == theme.ink(for: .part(0)) })
        #expect(String(head[(start + 9)..<(start + 14)]) == "♪ 450")
        #expect(cells[(start + 9)..<(start + 14)].allSatisfy { $0.color == theme.ink(for: .part(1)) })
        #expect(cells[0].color == theme.status)
    }

    @Test("one singer's score is in the lyric ink")
    func soloInk() throws {
        var composer = try NoteLanesScreenTests.composer(rows: 24, lanes: true)
        var singer = SingerProgress(part: nil)
        singer.points = ScorePoints(notes: 4210)
        let status = composer.frame(at: 2, singers: [singer]).rows[23]
        let head = Array(status.text)
        let start = try #require(head.firstIndex(of: "♪"))
        #expect(status.cells[start..<(start + 7)].allSatisfy { $0.color == Theme.dark.foreground })
    }

    @Test("the status row is built again when the score changes within a second")
    func statusFollowsTheScore() throws {
        var composer = try NoteLanesScreenTests.composer(rows: 24, lanes: true)
        var singer = SingerProgress(part: nil)
        singer.points = ScorePoints(notes: 100)
        #expect(composer.frame(at: 2.0, singers: [singer]).rows[23].text.contains("♪ 100"))
        singer.points = ScorePoints(notes: 180)
        #expect(composer.frame(at: 2.1, singers: [singer]).rows[23].text.contains("♪ 180"))
    }
}

@Suite("The final score card")
struct ScoreCardTests {
    @Test(
        "space and Enter go on, q and Esc quit, other keys do nothing",
        arguments: [
            (Key.character(" "), ScoreCard.Answer?.some(.close)), (.character("\n"), .close),
            (.character("\r"), .close),
            (.character("q"), .quit), (.character("Q"), .quit), (.escape, .quit), (.character("n"), nil), (.left, nil),
        ])
    func keys(key: Key, answer: ScoreCard.Answer?) {
        #expect(ScoreCard.answer(to: key) == answer)
    }

    @Test("one singer's card shows the title, the score, its rating and the line grades, with the keys")
    func soloCard() {
        var singer = SingerProgress(part: nil)
        singer.points = ScorePoints(notes: 5000, golden: 800, lineBonus: 400)
        let card = ScoreCard(title: "Golden Song — The Lanes", singers: [singer])
        #expect(card.entries[0].rating == .inTune)
        var withGrades = card
        withGrades.entries[0].grades = [.good, .perfect, .good, .missed]
        let frame = withGrades.frame(columns: 60, rows: 12, options: FrameOptions())
        let texts = frame.rows.map { $0.text.trimmingPrefix(while: { $0 == " " }) }.map(String.init)
        #expect(texts.contains("Golden Song — The Lanes"))
        #expect(texts.contains("6,200 points"))
        #expect(texts.contains("in tune"))
        #expect(texts.contains("1 perfect · 2 good · 1 missed"))
        #expect(frame.rows[11].text == "song over  ␣ continue  q quit")
        #expect(frame.rows.count == 12)
    }

    @Test("the composer makes the card of its song: its title, the singers' scores, names and grades")
    func fromComposer() throws {
        let composer = try NoteLanesScreenTests.composer(rows: 24, lanes: true)
        var singer = SingerProgress(part: nil)
        singer.points = ScorePoints(notes: 4210)
        let card = composer.scoreCard(singers: [singer], names: ["Ana"], grades: [[.great, .good]])
        #expect(card.title == "Golden Song — The Lanes")
        #expect(
            card.entries == [ScoreCard.Entry(part: nil, name: "Ana", points: singer.points, grades: [.great, .good])])
        #expect(
            composer.scoreCard(singers: [singer, singer]).entries.allSatisfy { $0.name == nil && $0.grades.isEmpty })
    }

    @Test("the rating is the song rating of the total", arguments: [0, 499, 500, 2999, 5500, 7499, 9000, 10000])
    func rating(score: Int) {
        let entry = ScoreCard.Entry(part: nil, points: ScorePoints(notes: score))
        #expect(entry.rating == SongRating(score: score))
    }

    @Test("a tiny screen gets a card cut to fit, never out of bounds", arguments: [(1, 1), (10, 3), (20, 5)])
    func tinyScreen(columns: Int, rows: Int) {
        let card = ScoreCard(
            title: "A rather long title — by somebody",
            entries: [
                ScoreCard.Entry(part: .part(0), points: ScorePoints()),
                ScoreCard.Entry(part: .part(1), points: ScorePoints()),
            ])
        let frame = card.frame(columns: columns, rows: rows, options: FrameOptions())
        #expect(frame.rows.count == rows)
        #expect(
            frame.rows.allSatisfy { row in row.cells.allSatisfy { $0.column >= 0 && $0.column + $0.width <= columns } })
    }
}
