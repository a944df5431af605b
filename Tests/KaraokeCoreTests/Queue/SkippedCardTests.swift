import Testing
@testable import KaraokeCore

@Suite("The card of an entry the queue skips")
struct SkippedCardTests {
    /// The card of a missing entry 3 of 7, shown from monotonic time 100.
    static func card(title: String? = "Harbour Bells") -> SkippedCard {
        SkippedCard(
            skipped: SkippedEntry(
                file: "lists/../songs/harbour-bells.opus",
                reason: "no lyrics found (looked beside it, in ~/.lyrics, in its tags); '--fetch' asks LRCLIB"),
            title: title, number: 3, count: 7, now: 100)
    }

    @Test(
        "the card matches its golden file: the playlist's title, the file and its reason wrapped, the countdown",
        arguments: [(60, 12, "skipped-card-60x12"), (30, 10, "skipped-card-30x10"), (12, 5, "skipped-card-12x5")])
    func golden(columns: Int, rows: Int, golden: String) throws {
        let frame = SkippedCardTests.card().frame(at: 100.2, columns: columns, rows: rows, options: FrameOptions())
        try GoldenFrameTests.check(frame, golden: golden)
    }

    @Test("without a title from the playlist the note is all the card says")
    func withoutTitle() {
        let frame = SkippedCardTests.card(title: nil).frame(at: 100, columns: 100, rows: 8, options: FrameOptions())
        #expect(!frame.rows.contains { $0.kind == .title })
        #expect(frame.rows.contains { $0.text.contains("skipped songs/harbour-bells.opus: no lyrics found") })
    }

    @Test(
        "the countdown shows the whole seconds left of three, and the queue goes on by itself at its end",
        arguments: [(100.0, 3, false), (100.5, 3, false), (101.0, 2, false), (102.9, 1, false), (103.0, 0, true)])
    func countdown(at now: Double, secondsLeft: Int, over: Bool) {
        let card = SkippedCardTests.card()
        #expect(card.countdown.secondsLeft(at: now) == secondsLeft)
        #expect(card.timeUp(at: now) == (over ? .goOn : nil))
        #expect(
            card.frame(at: now, columns: 80, rows: 10, options: FrameOptions()).rows.last?.text
                == "3/7  goes on in \(secondsLeft) s  ␣ go on  N back  q quit")
    }

    @Test(
        "the card wakes at each whole second of its countdown, never later and never in the past",
        arguments: [100.0, 100.25, 101.999, 102.5])
    func wakes(at now: Double) throws {
        let card = SkippedCardTests.card()
        let next = try #require(card.wake(after: now))
        #expect(next > now)
        #expect(next <= now + 1)
        #expect(
            card.countdown.secondsLeft(at: next) < card.countdown.secondsLeft(at: now) || card.timeUp(at: next) != nil)
    }

    @Test(
        "space, Enter and n go on, N goes back, q and Esc end the evening",
        arguments: [
            (Key.character(" "), SkippedCard.Answer.goOn), (.character("\n"), .goOn), (.character("\r"), .goOn),
            (.character("n"), .goOn), (.character("N"), .back), (.character("q"), .quit), (.character("Q"), .quit),
            (.escape, .quit),
        ])
    func keys(key: Key, answer: SkippedCard.Answer) {
        #expect(SkippedCard.answer(to: key) == answer)
    }

    @Test("keys that mean something during a song do nothing on the card", arguments: [Key.left, .character("p")])
    func otherKeys(key: Key) {
        #expect(SkippedCard.answer(to: key) == nil)
    }

    @Test(
        "a card on a screen of any size has exactly its rows and no cell past its width",
        arguments: [(1, 1), (10, 3), (12, 5), (80, 24)])
    func anySize(columns: Int, rows: Int) {
        let frame = SkippedCardTests.card().frame(at: 100, columns: columns, rows: rows, options: FrameOptions())
        #expect(frame.rows.count == rows)
        #expect(frame.rows.allSatisfy { $0.cells.allSatisfy { $0.column + $0.width <= columns } })
    }
}
