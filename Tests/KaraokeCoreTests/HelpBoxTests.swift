import Testing
@testable import KaraokeCore

/// The help box laid out for a screen (DESIGN §4.2): in columns or pages, never cut.
@Suite("The help box")
struct HelpBoxTests {
    /// Every screen's keys, as the help boxes list them.
    static let keyLists: [(screen: String, entries: [HelpEntry])] = [
        ("play", PlayerAction.help), ("follow", FollowAction.help), ("sync", SyncAction.help),
    ]

    /// Sizes from the smallest screen to a wide one, the 30×8 that used to cut the box among them.
    static let sizes: [(columns: Int, rows: Int)] = [
        (12, 5), (13, 6), (20, 8), (30, 8), (40, 10), (60, 7), (80, 24), (120, 12), (200, 60), (400, 100),
    ]

    @Test("every key and what it does is on some page, whole, at every size from 12×5 to 400×100", arguments: sizes)
    func nothingIsCut(size: (columns: Int, rows: Int)) throws {
        for (screen, entries) in Self.keyLists {
            var composer = try FrameComposer(
                song: Fixtures.song("lantern-river.lrc"), fallbackTitle: "", columns: size.columns,
                rows: size.rows, options: FrameOptions())
            let pages = composer.helpPageCount(for: entries)
            var shown = ""
            for page in 0..<pages {
                let frame = composer.frame(FrameInput(time: 18.5, help: entries, helpPage: page))
                #expect(frame.rows.count == size.rows)
                #expect(frame.rows[0].kind == .title && frame.rows[size.rows - 1].kind == .status)
                for row in frame.rows {
                    #expect(DisplayWidth.of(row.text) <= size.columns, "\(screen) \(size): '\(row.text)'")
                }
                // The page's text, a column at a time, read as a person would: the box's rows, without
                // borders, with every run of blanks one space.
                let box = HelpBox(entries: entries, columns: size.columns, rows: size.rows)
                shown += " " + HelpBoxTests.readable(box, page: page)
                #expect(frame.rows.contains { $0.kind == .notice && $0.text.contains("Keys") })
            }
            // An entry taller than a page goes on over the next page: read the pages as one text.
            let read = " " + shown.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") + " "
            for entry in entries {
                #expect(read.contains(" \(entry.keys) \(entry.meaning) "), "\(screen) \(size): \(entry)")
            }
        }
    }

    @Test("the box names its page, and its last line says what the next key does")
    func headingAndFooter() throws {
        var composer = try FrameComposer(
            song: Fixtures.song("lantern-river.lrc"), fallbackTitle: "", columns: 30, rows: 8,
            options: FrameOptions())
        let pages = composer.helpPageCount(for: PlayerAction.help)
        #expect(pages > 1)
        let first = composer.frame(FrameInput(time: 18.5, help: PlayerAction.help, helpPage: 0)).rows.map(\.text)
        #expect(first[1].hasPrefix("┌─ Keys 1/\(pages) ─"))
        #expect(first[6].hasPrefix("└─ any key: more ─"))
        let last = composer.frame(FrameInput(time: 18.5, help: PlayerAction.help, helpPage: pages - 1)).rows.map(\.text)
        #expect(last[1].hasPrefix("┌─ Keys \(pages)/\(pages) ─"))
        #expect(last[6].hasPrefix("└─ any key: close ─"))
    }

    @Test("a wide screen puts the keys in columns rather than pages; a tall one keeps one column")
    func columnsBeforePages() {
        #expect(HelpBox(entries: PlayerAction.help, columns: 120, rows: 13).pageCount == 1)
        #expect(HelpBox(entries: PlayerAction.help, columns: 120, rows: 13).pages[0].count == 9)
        #expect(HelpBox(entries: PlayerAction.help, columns: 80, rows: 24).pages[0].count == PlayerAction.help.count)
    }

    /// The text of `page` read column by column: each column's rows in order, blanks folded.
    static func readable(_ box: HelpBox, page: Int) -> String {
        let text = box.columnPages[page].map { $0.joined(separator: " ") }.joined(separator: " ")
        return text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") + " "
    }
}
