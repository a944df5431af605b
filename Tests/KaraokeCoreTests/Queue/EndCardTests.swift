import Testing
@testable import KaraokeCore

@Suite("The card at the end of a queue")
struct EndCardTests {
    /// An evening that sang two songs and skipped two entries.
    static let card = EndCard(
        sung: ["Lantern River — The Karaoke Band", "Paper Boats — The Karaoke Band"],
        skipped: [
            SkippedEntry(file: "pl/../tone.wav", reason: "no lyrics found (looked beside it, in its tags)"),
            SkippedEntry(file: "pl/../missing.lrc", reason: "no such file"),
        ],
        canGoBack: true)

    @Test(
        "the card matches its golden file: the songs sung, each skipped file and why, the keys",
        arguments: [
            (60, 14, "end-card-60x14"), (40, 9, "end-card-40x9"), (12, 5, "end-card-12x5"), (10, 3, "end-card-10x3"),
        ])
    func golden(columns: Int, rows: Int, golden: String) throws {
        let frame = EndCardTests.card.frame(columns: columns, rows: rows, options: FrameOptions())
        try GoldenFrameTests.check(frame, golden: golden)
    }

    @Test("when the songs sung do not all fit, the list is shortened, and the reasons keep their rows")
    func shortened() {
        var card = EndCardTests.card
        card.sung = (1...12).map { "Song \($0)" }
        let rows = card.frame(columns: 60, rows: 12, options: FrameOptions()).rows.map(\.text)
        #expect(rows.contains { $0.contains("and ") && $0.contains(" more") }, "\(rows)")
        #expect(rows.contains { $0.contains("skipped missing.lrc: no such file") }, "\(rows)")
        #expect(rows.contains { $0.contains("Song 1") })
        #expect(!rows.contains { $0.contains("Song 12") })
        // With no room for any title, the songs are a count.
        let tight = card.frame(columns: 60, rows: 8, options: FrameOptions()).rows.map(\.text)
        #expect(tight.contains { $0.contains("12 songs sung") }, "\(tight)")
    }

    @Test("an evening in which nothing could be sung says so, and offers no way back")
    func nothingSung() throws {
        let card = EndCard(sung: [], skipped: EndCardTests.card.skipped, canGoBack: false)
        let frame = card.frame(columns: 80, rows: 12, options: FrameOptions())
        #expect(frame.rows.contains { $0.text.contains("nothing was sung") })
        #expect(frame.rows.contains { $0.text.contains("skipped tone.wav: no lyrics found") })
        let status = try #require(frame.rows.last)
        #expect(status.text == "q quit  0 sung  2 skipped")
        #expect(card.answer(to: .character("N")) == nil)
    }

    @Test(
        "N goes back and q or Esc end the evening; space, Enter and n do nothing, so a hurried key never ends it",
        arguments: [
            (Key.character("N"), EndCard.Answer?.some(.back)), (.character("q"), .quit), (.character("Q"), .quit),
            (.escape, .quit), (.character(" "), nil), (.character("\n"), nil), (.character("n"), nil),
        ])
    func keys(key: Key, answer: EndCard.Answer?) {
        #expect(EndCardTests.card.answer(to: key) == answer)
    }

    @Test("the end card waits however long it takes: no countdown and nothing to wake for")
    func waits() {
        #expect(EndCardTests.card.timeUp(at: 1e9) == nil)
        #expect(EndCardTests.card.wake(after: 0) == nil)
    }

    @Test(
        "a card on a screen of any size has exactly its rows and no cell past its width",
        arguments: [(1, 1), (10, 3), (12, 5), (80, 24)])
    func anySize(columns: Int, rows: Int) {
        let frame = EndCardTests.card.frame(columns: columns, rows: rows, options: FrameOptions())
        #expect(frame.rows.count == rows)
        #expect(frame.rows.allSatisfy { $0.cells.allSatisfy { $0.column + $0.width <= columns } })
    }
}
