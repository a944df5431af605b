/// The help box over the lyrics, laid out for a screen: the key list in as many columns as fit, in pages
/// when it is taller than the room, each page a box between the title and the status bar (DESIGN §4.2).
///
/// Nothing is cut: an entry too wide for its row wraps (its keys on one row, what they do under them),
/// and what does not fit the box's height goes to the next page. The top border names the box and the page
/// (`Keys 1/3`); the bottom border says what a key does (`any key: more`, on the last `any key: close`).
/// Where the lyric rows are fewer than 6 the box has no borders: its first row names it and the page, and
/// the others hold the keys, so even 12×5 shows two rows of ten cells a page.
public struct HelpBox: Sendable, Equatable {
    /// The rows of text inside the box, page by page; each row holds its columns already joined.
    public let pages: [[String]]
    /// The same text page by page and column by column, each column its rows.
    let columnPages: [[[String]]]
    /// The cells inside the borders and the padding.
    let innerWidth: Int
    /// The rows inside the borders.
    let innerHeight: Int
    /// Cells between the border and the text, on each side: one where the screen has room, else none.
    let padding: Int
    /// Whether the box has borders; without, its first row is the heading (`Keys 1/3`).
    let isBordered: Bool

    /// Cells between two columns of keys.
    static let columnGap = 3
    /// Cells between an entry's keys and what they do.
    static let keyGap = 3

    /// The box for `entries` on a `columns` × `rows` screen (the lyric rows between title and status).
    public init(entries: [HelpEntry], columns: Int, rows: Int) {
        // The lyric rows, between the title and the status bar.
        let area = max(1, rows - 2)
        isBordered = area >= 6
        let height = max(1, isBordered ? area - 2 : area - 1)
        padding = isBordered && columns >= 20 ? 1 : 0
        let room = max(1, columns - (isBordered ? 2 : 0) - 2 * padding)
        let keyWidth = entries.map { DisplayWidth.of($0.keys) }.max() ?? 0
        let lineWidth = entries.map { keyWidth + HelpBox.keyGap + DisplayWidth.of($0.meaning) }.max() ?? 0
        var blocks: [[String]]
        if lineWidth <= room {
            // One row an entry, the meanings lined up.
            blocks = entries.map { entry in
                [
                    entry.keys + String(repeating: " ", count: keyWidth - DisplayWidth.of(entry.keys) + HelpBox.keyGap)
                        + entry.meaning
                ]
            }
        } else {
            // Too narrow for that: an entry on one row where it fits with two spaces after its keys, else its
            // keys on a row and what they do wrapped under them.
            let indent = room >= 12 ? 2 : 0
            blocks = entries.map { entry in
                let line = entry.keys + "  " + entry.meaning
                if DisplayWidth.of(line) <= room { return [line] }
                return HelpBox.wrapped(entry.keys, width: room)
                    + HelpBox.wrapped(entry.meaning, width: room - indent).map {
                        String(repeating: " ", count: indent) + $0
                    }
            }
        }
        let columnWidth = blocks.flatMap { $0 }.map(DisplayWidth.of).max() ?? 0
        let total = blocks.reduce(0) { $0 + $1.count }
        let fitting = max(1, (room + HelpBox.columnGap) / (columnWidth + HelpBox.columnGap))
        // As many columns as it takes to show everything at once, when the width allows; else as many as fit.
        let columnCount = min(fitting, max(1, (total + height - 1) / height))
        var columnsOfRows: [[String]] = []
        var current: [String] = []
        for block in blocks {
            // An entry stays in one column unless it is taller than a column.
            if !current.isEmpty, current.count + block.count > height {
                columnsOfRows.append(current)
                current = []
            }
            for line in block {
                if current.count == height {
                    columnsOfRows.append(current)
                    current = []
                }
                current.append(line)
            }
        }
        if !current.isEmpty { columnsOfRows.append(current) }
        let used = columnsOfRows.map(\.count).max() ?? 1
        var pages: [[String]] = []
        var columnPages: [[[String]]] = []
        var start = 0
        while start < columnsOfRows.count {
            let group = columnsOfRows[start..<min(columnsOfRows.count, start + columnCount)]
            columnPages.append(Array(group))
            pages.append(
                (0..<used).map { row in
                    group.enumerated().map { index, column -> String in
                        let text = row < column.count ? column[row] : ""
                        let isLast = index == group.count - 1
                        return isLast ? text : text + String(repeating: " ", count: columnWidth - DisplayWidth.of(text))
                    }.joined(separator: String(repeating: " ", count: HelpBox.columnGap))
                })
            start += columnCount
        }
        self.pages = pages.isEmpty ? [[]] : pages
        self.columnPages = columnPages.isEmpty ? [[]] : columnPages
        // As wide as the widest row of any page, so the box keeps its size from page to page.
        innerWidth = min(room, pages.flatMap { $0 }.map(DisplayWidth.of).max() ?? 0)
        innerHeight = used
    }

    /// How many pages the box has.
    public var pageCount: Int { pages.count }

    /// The top border's words: `Keys`, and the page when there are several.
    func heading(page: Int) -> String { pageCount > 1 ? "Keys \(page + 1)/\(pageCount)" : "Keys" }

    /// The bottom border's words, in the longest form that fits `width`: what the next key does.
    func footer(page: Int, width: Int) -> String {
        let forms = page + 1 < pageCount ? ["any key: more", "more"] : ["any key: close", "close"]
        return forms.first { DisplayWidth.of($0) <= width } ?? ""
    }

    /// `text` in rows of at most `width` cells, broken after spaces, and inside a word only when the word
    /// alone is wider.
    static func wrapped(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var rows: [String] = []
        var row = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = row.isEmpty ? word : row + " " + word
            if DisplayWidth.of(candidate) <= width {
                row = candidate
                continue
            }
            if !row.isEmpty { rows.append(row) }
            row = ""
            for character in word {
                if DisplayWidth.of(row) + DisplayWidth.of(character) > width {
                    rows.append(row)
                    row = ""
                }
                row.append(character)
            }
        }
        if !row.isEmpty || rows.isEmpty { rows.append(row) }
        return rows
    }
}
