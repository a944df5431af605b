import Testing
@testable import KaraokeCore

/// Plain lyrics of `count` lines `line 1` … `line N`, lasting `length` milliseconds when given.
private func numberedLines(_ count: Int, length: Int? = nil) -> PlainLyrics {
    PlainLyrics(
        metadata: SongMetadata(title: "Plain", artist: "Someone", length: length),
        lines: (1...count).map { "line \($0)" })
}

/// The frame of `content` at `time` on a `columns` × `rows` screen.
private func frame(
    _ content: LyricsContent, at time: Double, columns: Int = 40, rows: Int = 10, length: Int? = nil
) -> Frame {
    var composer = FrameComposer(
        content: content, fallbackTitle: "song.mp3", columns: columns, rows: rows, options: FrameOptions(),
        length: length)
    return composer.frame(at: time)
}

/// The texts of a frame's lyric rows, top to bottom, without their outer blanks.
private func lyricTexts(_ frame: Frame) -> [String] {
    frame.rows.filter { $0.kind == .lyric }.map { String($0.text.drop { $0 == " " }) }
}

/// The "not timed" row of a frame (the row above the status bar).
private func marker(_ frame: Frame) -> String {
    frame.rows[frame.rows.count - 2].text.trimmingSpaces()
}

@Suite("What fills the lyric area: a message")
struct MessageContentTests {
    @Test("a message stands centred in the lyric area, under the title and above the status bar")
    func centred() throws {
        let message = "looking up A — T on lrclib.net…"
        let shown = frame(.message(message), at: 0, columns: 60, rows: 16)
        #expect(shown.rows.count == 16)
        #expect(shown.rows[0].kind == .title)
        #expect(shown.rows[0].text.contains("song.mp3"))
        #expect(shown.rows[15].kind == .status)
        let messageRows = shown.rows.indices.filter { shown.rows[$0].kind == .notice }
        #expect(messageRows == [7]) // 14 lyric rows from row 1: the middle one
        let row = shown.rows[7]
        #expect(row.text.trimmingSpaces() == message)
        let left = try #require(row.cells.first?.column)
        let right = 60 - (row.cells.last.map { $0.column + $0.width } ?? 0)
        #expect(abs(left - right) <= 1)
    }

    @Test(
        "a message wider than the screen is wrapped into centred rows that keep every word",
        arguments: [20, 24, 33])
    func wrapped(columns: Int) throws {
        let message = "no lyrics for Somebody Famous — A Rather Long Song Title"
        let shown = frame(.message(message), at: 0, columns: columns, rows: 12)
        let rows = shown.rows.filter { $0.kind == .notice }
        #expect(rows.count > 1)
        for row in rows {
            let end = try #require(row.cells.last.map { $0.column + $0.width })
            #expect(end <= columns)
        }
        let words = rows.flatMap { $0.text.split(separator: " ").map(String.init) }
        #expect(words == message.split(separator: " ").map(String.init))
    }

    @Test("the status bar's total is the length the composer is given")
    func statusTotal() {
        let shown = frame(.message("looking up"), at: 61, columns: 60, length: 200_000)
        #expect(shown.rows.last?.text.contains("1:01") == true)
        #expect(shown.rows.last?.text.contains("3:20") == true)
    }
}

@Suite("What fills the lyric area: plain lyrics as pages")
struct PlainContentTests {
    // 40 × 10: 10 rows less the title, the status bar and the "not timed" row leave 7 rows a page, so
    // 30 one-row lines make 5 pages; the song lasts 100 s, 20 s a page.
    @Test(
        "page k of n is shown from k/n of the song on",
        arguments: [
            (0.0, 0), (19.9, 0), // the first fifth
            (20.0, 1), (39.99, 1),
            (40.0, 2), (60.0, 3),
            (80.0, 4), (99.9, 4), (100.0, 4), // the last page stays to the end
        ])
    func pagesTurn(time: Double, page: Int) {
        let shown = frame(.plain(numberedLines(30, length: 100_000)), at: time)
        let texts = lyricTexts(shown)
        let first = page * 7 + 1
        #expect(texts.first == "line \(first)")
        #expect(texts.count == min(7, 30 - page * 7))
        #expect(marker(shown) == "lyrics not timed · page \(page + 1)/5")
    }

    @Test("the pages turn over the audio's length when the lyrics have none")
    func pagesFollowTheAudio() {
        let lyrics = LyricsContent.plain(numberedLines(30))
        #expect(marker(frame(lyrics, at: 150, length: 200_000)) == "lyrics not timed · page 4/5")
        // Without any length there is no progress to turn on: the first page stays.
        #expect(marker(frame(lyrics, at: 150)) == "lyrics not timed · page 1/5")
    }

    @Test("lyrics that fit on one page say only that they are not timed")
    func onePage() {
        let shown = frame(.plain(numberedLines(3, length: 60_000)), at: 30)
        #expect(lyricTexts(shown) == ["line 1", "line 2", "line 3"])
        #expect(marker(shown) == "lyrics not timed")
        #expect(shown.rows[0].text.contains("Plain — Someone"))
    }

    @Test("a break between verses is a blank row, and a line is not split across pages when it fits on one")
    func versesAndLongLines() {
        // 7 rows a page; the long line wraps to 3 rows of 36 columns.
        let long = "a line long enough to need three rows on this narrow screen of forty columns wide"
        let lyrics = PlainLyrics(lines: ["one", "two", "", "three", "four", long, "five"])
        let pages = UntimedLayout.pages(
            of: lyrics.lines, height: 7, areaStart: 2, areaWidth: 36, options: FrameOptions())
        #expect(pages.count == 2)
        #expect(pages[0].map { $0.kind } == [.lyric, .lyric, .blank, .lyric, .lyric])
        #expect(pages[1].count == 4)
        #expect(pages[1].allSatisfy { $0.line == 5 || $0.line == 6 })
    }

    @Test("a line taller than a page is split across pages, and nothing is lost", arguments: [3, 4, 7])
    func tallLine(height: Int) {
        let long = String(repeating: "word ", count: 60)
        let pages = UntimedLayout.pages(
            of: ["before", long, "after"], height: height, areaStart: 0, areaWidth: 20, options: FrameOptions())
        #expect(pages.allSatisfy { $0.count <= height && !$0.isEmpty })
        let words = pages.flatMap { $0 }.flatMap { $0.text.split(separator: " ") }
        #expect(words.count == 62)
    }

    @Test(
        "the page index is floor(position / duration × pages), within the pages",
        arguments: [
            (time: 0.0, duration: 90.0, count: 3, page: 0),
            (time: 30.0, duration: 90.0, count: 3, page: 1),
            (time: 89.0, duration: 90.0, count: 3, page: 2),
            (time: 500.0, duration: 90.0, count: 3, page: 2), // past the end: the last page
            (time: 10.0, duration: 0.0, count: 3, page: 0), // no length: the first
            (time: 10.0, duration: 90.0, count: 1, page: 0),
        ])
    func pageIndex(time: Double, duration: Double, count: Int, page: Int) {
        #expect(UntimedLayout.page(at: time, duration: duration, count: count) == page)
    }

    @Test("plain text is split into lines, control characters dropped, outer blank lines gone")
    func plainText() {
        let lyrics = PlainLyrics(text: "\n\nfirst\u{1B}[31m line\r\n\nsecond\n\n")
        #expect(lyrics.lines == ["first[31m line", "", "second"])
        #expect(!lyrics.isEmpty)
        #expect(PlainLyrics(text: " \n\n").isEmpty)
    }
}
