import Foundation
import Testing
@testable import KaraokeCore

@Suite("The card between songs")
struct QueueCardTests {
    /// A card shown from monotonic time 100.
    static func card(singer: String? = "Ana", notes: [String] = []) -> QueueCard {
        QueueCard(
            title: "Paper Boats — The Karaoke Band", singer: singer, notes: notes, number: 2, count: 7, now: 100)
    }

    @Test("the card matches its golden file: the next song, its singer, a skipped song's note, the countdown")
    func golden() throws {
        let card = QueueCardTests.card(notes: ["skipped broken.lrc: not a text file (binary data)"])
        let frame = card.frame(at: 100.2, columns: 60, rows: 12, options: FrameOptions())
        try GoldenFrameTests.check(frame, golden: "queue-card-60x12")
    }

    @Test(
        "the countdown shows the whole seconds left, rounded up, and the card is over after five",
        arguments: [(100.0, 5, false), (100.5, 5, false), (101.0, 4, false), (104.9, 1, false), (105.0, 0, true)])
    func countdown(at now: Double, secondsLeft: Int, over: Bool) {
        let card = QueueCardTests.card()
        #expect(card.secondsLeft(at: now) == secondsLeft)
        #expect(card.isOver(at: now) == over)
        #expect(
            card.frame(at: now, columns: 80, rows: 10, options: FrameOptions()).rows.last?.text
                .hasPrefix("2/7  starts in \(secondsLeft) s") == true)
    }

    @Test(
        "the card wakes at each whole second of its countdown, never later and never in the past",
        arguments: [100.0, 100.25, 103.999, 104.5])
    func nextChange(at now: Double) {
        let card = QueueCardTests.card()
        let next = card.nextChange(after: now)
        #expect(next > now)
        #expect(next <= now + 1)
        #expect(card.secondsLeft(at: next) < card.secondsLeft(at: now) || card.isOver(at: next))
    }

    @Test(
        "space and Enter start the song, n skips it, N goes back, q and Esc quit; other keys do nothing",
        arguments: [
            (Key.character(" "), QueueCard.Answer.start), (.character("\n"), .start), (.character("n"), .next),
            (.character("N"), .previous), (.character("q"), .quit), (.escape, .quit),
        ])
    func keys(key: Key, answer: QueueCard.Answer) {
        #expect(QueueCard.answer(to: key) == answer)
    }

    @Test(
        "keys that mean something during a song do nothing on the card",
        arguments: [
            Key.left, .right, .character("p"), .character("+"), .character("?"),
        ])
    func otherKeys(key: Key) {
        #expect(QueueCard.answer(to: key) == nil)
    }

    @Test("without a singer there is no singer line, and a long title is cut with an ellipsis to fit")
    func narrow() throws {
        var card = QueueCardTests.card(singer: nil)
        card.title = String(repeating: "Paper Boats ", count: 20)
        let frame = card.frame(at: 100, columns: 30, rows: 8, options: FrameOptions())
        #expect(!frame.rows.contains { $0.text.contains("sung by") })
        let title = try #require(frame.rows.first { $0.kind == .title })
        #expect(title.text.hasSuffix("…"))
        #expect(title.cells.allSatisfy { $0.column + $0.width <= 30 })
    }

    @Test(
        "a card on a screen of any size has exactly its rows and no cell past its width",
        arguments: [(1, 1), (5, 2), (12, 5), (80, 24)])
    func anySize(columns: Int, rows: Int) {
        let frame = QueueCardTests.card(notes: ["one", "two"]).frame(
            at: 100, columns: columns, rows: rows, options: FrameOptions())
        #expect(frame.rows.count == rows)
        #expect(frame.rows.allSatisfy { $0.cells.allSatisfy { $0.column + $0.width <= columns } })
    }
}
