import Foundation
import Testing
@testable import KaraokeCore

/// Whole screens checked in as text files: each row quoted (so leading and trailing blanks show), and
/// under each row with lyric cells (or a romanization row partly swept) a `fill` line: `#` sung, `+` part sung,
/// `.` unsung, one mark per cell.
/// Note-lane rows get a line too: `#` a hit beat, `.` unsung or missed, `~` the sung trail, `G`/`g` a golden
/// beat hit/not (DESIGN §15.3).
/// `RECORD_GOLDEN=1 swift test` rewrites the files and fails on purpose, so a recording is never a pass.
@Suite("Golden frames")
struct GoldenFrameTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var golden: String
        var song: String
        var time: Double
        var columns: Int
        var rows: Int
        var reduceMotion = false
        var alignment = FrameOptions.Alignment.center
        /// The page of `play`'s help box drawn over the frame, if any (DESIGN §4.2).
        var helpPage: Int?
        var testDescription: String { golden }
    }

    static let cases: [Case] = [
        // A line-timed English song mid-sweep, with a wrapped line above and the gap's end marker.
        Case(golden: "lantern-river-40x14-at-18.5", song: "lantern-river.lrc", time: 18.5, columns: 40, rows: 14),
        // Word-timed: one segment part sung; left aligned.
        Case(
            golden: "paper-boats-60x12-at-9.3-left", song: "paper-boats.lrc", time: 9.3, columns: 60, rows: 12,
            alignment: .left),
        // Reduce motion: whole segments, no partial cells.
        Case(
            golden: "paper-boats-60x12-at-9.3-reduced", song: "paper-boats.lrc", time: 9.3, columns: 60, rows: 12,
            reduceMotion: true),
        // CJK wrapping, emoji in reduced painted forms, translations under their line.
        Case(golden: "sakura-station-40x20-at-46", song: "sakura-station.lrc", time: 46, columns: 40, rows: 20),
        // Right-to-left rows in visual order, filling from the right.
        Case(golden: "desert-stars-40x16-at-27.5", song: "desert-stars.lrc", time: 27.5, columns: 40, rows: 16),
        // Before the first line: nothing sung, the first line waiting at the current line's place.
        Case(golden: "lantern-river-50x10-at-0", song: "lantern-river.lrc", time: 0, columns: 50, rows: 10),
        // The count-in before the first line (DESIGN §14.3): 1.5 s before it, the first dot full, the second half.
        Case(
            golden: "lantern-river-50x10-at-2.5-count-in", song: "lantern-river.lrc", time: 2.5, columns: 50, rows: 10),
        // The count-in after a 12 s silence, under reduce motion: two dots lit whole, the third not yet.
        Case(
            golden: "lantern-river-50x10-at-55-count-in-reduced", song: "lantern-river.lrc", time: 55, columns: 50,
            rows: 10, reduceMotion: true),
        // Too small for the layout: a notice.
        Case(golden: "lantern-river-10x4-too-small", song: "lantern-river.lrc", time: 10, columns: 10, rows: 4),
        // The help box at 30×8, where it used to be cut: the first page of several, then the last.
        Case(
            golden: "help-30x8-page-1", song: "lantern-river.lrc", time: 18.5, columns: 30, rows: 8, helpPage: 0),
        Case(
            golden: "help-30x8-last-page", song: "lantern-river.lrc", time: 18.5, columns: 30, rows: 8, helpPage: 99),
        // The smallest screen: one row of the box a page, entries wrapped, nothing cut.
        Case(golden: "help-12x5-page-1", song: "lantern-river.lrc", time: 18.5, columns: 12, rows: 5, helpPage: 0),
        // A wide, low screen: the keys in columns, on one page.
        Case(
            golden: "help-120x13-columns", song: "lantern-river.lrc", time: 18.5, columns: 120, rows: 13, helpPage: 0),
        // A usual screen: one column, one page, as before but for the box's name and keys in its borders.
        Case(golden: "help-80x24", song: "lantern-river.lrc", time: 18.5, columns: 80, rows: 24, helpPage: 0),
    ]

    @Test("the rendered screen matches its golden file", arguments: cases)
    func matchesGolden(_ golden: Case) throws {
        let song = try Fixtures.song(golden.song)
        var options = FrameOptions()
        options.reduceMotion = golden.reduceMotion
        options.alignment = golden.alignment
        var composer = FrameComposer(
            song: song, fallbackTitle: golden.song, columns: golden.columns,
            rows: golden.rows, options: options)
        let frame = composer.frame(
            FrameInput(
                time: golden.time, help: golden.helpPage.map { _ in PlayerAction.help }, helpPage: golden.helpPage ?? 0,
                reduceMotion: golden.reduceMotion))
        try #require(frame.rows.count == golden.rows)
        try GoldenFrameTests.check(frame, golden: golden.golden)
    }

    /// A word-timed Korean song of our own with a romanization row under each line, timed by word in the
    /// first two lines and whole in the third, and an English translation under the first (DESIGN §29.3).
    static let romanizedSong = """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata"
            xmlns:itunes="http://music.apple.com/lyric-ttml-internal">
        <head><metadata><ttm:title>River Night</ttm:title></metadata></head>
        <body><div>
        <p begin="1s" end="5s"><span begin="1s" end="2s">강물 <span ttm:role="x-roman">gangmul</span></span><span begin="2s" end="3s">위에 <span ttm:role="x-roman">wie</span></span><span begin="3s" end="4s">별이 <span ttm:role="x-roman">byeori</span></span><span begin="4s" end="5s">떠요<span ttm:role="x-roman">tteoyo</span></span><span ttm:role="x-translation">stars float on the river</span></p>
        <p begin="6s" end="9s"><span begin="6s" end="7s">우리 <span ttm:role="x-roman">uri</span></span><span begin="7s" end="8s">함께 <span ttm:role="x-roman">hamkke</span></span><span begin="8s" end="9s">노래해요<span ttm:role="x-roman">noraehaeyo</span></span></p>
        <p begin="10s" end="12s">밤이 깊어도<span ttm:role="x-roman">bami gipeodo</span></p>
        </div></body></tt>
        """

    @Test(
        "a romanization row sits under its line, above the translation, swept with its words",
        arguments: [
            // Mid-word: the second word and its reading part sung.
            ("romanized-80x24-at-2.5", false),
            // Reduce motion: the reading's words light whole, with their words.
            ("romanized-80x24-at-2.5-reduced", true),
        ])
    func romanizationRow(golden: String, reduceMotion: Bool) throws {
        let song = try #require(TTMLParser.parse(Array(GoldenFrameTests.romanizedSong.utf8), file: "r.ttml").song)
        var options = FrameOptions()
        options.reduceMotion = reduceMotion
        var composer = FrameComposer(song: song, fallbackTitle: "r.ttml", columns: 80, rows: 24, options: options)
        let frame = composer.frame(FrameInput(time: 2.5, reduceMotion: reduceMotion))
        try GoldenFrameTests.check(frame, golden: golden)
    }

    @Test("--no-romanization leaves the romanization rows out")
    func romanizationHidden() throws {
        let song = try #require(TTMLParser.parse(Array(GoldenFrameTests.romanizedSong.utf8), file: "r.ttml").song)
        var options = FrameOptions()
        options.showsRomanization = false
        var composer = FrameComposer(song: song, fallbackTitle: "r.ttml", columns: 80, rows: 24, options: options)
        let text = GoldenFrameTests.describe(composer.frame(FrameInput(time: 2.5)))
        #expect(!text.contains("gangmul"))
        #expect(text.contains("stars float on the river"))
    }

    @Test("t hides the romanization rows while playing and shows them again")
    func romanizationKey() throws {
        let song = try #require(TTMLParser.parse(Array(GoldenFrameTests.romanizedSong.utf8), file: "r.ttml").song)
        #expect(PlayerAction.bound(to: .character("t")) == .overlay(.toggleRomanization))
        var overlay = Overlay()
        var composer = FrameComposer(
            song: song, fallbackTitle: "r.ttml", columns: 80, rows: 24, options: FrameOptions())
        func text(_ overlay: Overlay) -> String {
            let input = FrameInput(time: 2.5, titleTime: nil, paused: false, overlay: overlay, keys: [], at: 0)
            return GoldenFrameTests.describe(composer.frame(input))
        }
        #expect(text(overlay).contains("gangmul"))
        overlay.apply(.toggleRomanization, at: 0, noticeFor: 2)
        #expect(overlay.noticeText(at: 1) == "romanization off")
        #expect(!text(overlay).contains("gangmul"))
        overlay.apply(.toggleRomanization, at: 0, noticeFor: 2)
        #expect(text(overlay).contains("gangmul"))
    }

    /// Compares `frame`, described, with the golden file `name`; `RECORD_GOLDEN=1` writes it instead and fails on
    /// purpose, so a recording is never mistaken for a pass.
    static func check(_ frame: Frame, golden name: String) throws {
        let actual = describe(frame)
        let url = Fixtures.repository.appendingPathComponent("Tests/KaraokeCoreTests/Golden/\(name).txt")
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("recorded \(url.lastPathComponent); run again without RECORD_GOLDEN")
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "frame differs from \(url.lastPathComponent):\n\(actual)")
    }

    /// The golden text of a frame.
    static func describe(_ frame: Frame) -> String {
        var text = ""
        for row in frame.rows {
            text += "\"\(row.text)\"\n"
            if row.kind == .lanes {
                if !row.cells.isEmpty { text += " " + laneMarks(row) + "\n" }
                continue
            }
            // A translation row is only ever swept when it is a timed romanization (DESIGN §29.3).
            let isSwept = row.kind == .translation && row.cells.contains { $0.fill > 0 }
            guard row.kind == .lyric || row.kind == .countIn || isSwept else { continue }
            var marks = ""
            var column = 0
            for cell in row.cells {
                marks += String(repeating: " ", count: max(0, cell.column - column))
                let mark: Character = cell.fill >= 1 ? "#" : cell.fill > 0 ? "+" : "."
                marks += String(repeating: mark, count: cell.width)
                column = cell.column + cell.width
            }
            text += " \(marks)\n"
        }
        return text
    }

    /// The marks under a note-lane row: what each cell shows, as its colour would tell.
    static func laneMarks(_ row: FrameRow) -> String {
        var marks = ""
        var column = 0
        for cell in row.cells {
            marks += String(repeating: " ", count: max(0, cell.column - column))
            let isGold = cell.accent.map { [Theme.dark.gold, Theme.light.gold].contains($0) } ?? false
            if isGold {
                marks += cell.fill >= 1 ? "G" : "g"
            } else {
                marks += cell.fill >= 1 ? "#" : cell.fill > 0 ? "~" : "."
            }
            column = cell.column + cell.width
        }
        return marks
    }
}
