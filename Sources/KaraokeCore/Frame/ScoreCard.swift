/// The card shown when a scored song ends: the song, each singer's score and rating, the line grades
/// when known, and the keys (DESIGN §15.4).
///
/// A value like `QueueCard`: the edge paints `frame(columns:rows:options:)` once (and again on a resize)
/// and waits for a key whose `answer(to:)` is not nil.
public struct ScoreCard: Sendable, Equatable {
    /// What a key does while the card is shown.
    public enum Answer: Sendable, Equatable {
        /// Go on: the next song of a queue, or the end of `play` (space, Enter).
        case close
        /// End the evening (q, Esc).
        case quit
    }

    /// One singer's line on the card.
    public struct Entry: Sendable, Equatable {
        /// The part sung (`.part(0)` is P1); nil in a song without parts.
        public var part: Voice?
        /// The singer's name, when the queue or `--singer` says.
        public var name: String?
        /// The points scored.
        public var points: ScorePoints
        /// The grades of the lines sung, when the scorer kept them (counted on the card); may be empty.
        public var grades: [LineGrade]

        /// An entry for the singer of `part` with `points`.
        public init(part: Voice?, name: String? = nil, points: ScorePoints, grades: [LineGrade] = []) {
            self.part = part
            self.name = name
            self.points = points
            self.grades = grades
        }

        /// The entry for a singer's final progress.
        public init(_ progress: SingerProgress, name: String? = nil, grades: [LineGrade] = []) {
            self.init(part: progress.part, name: name, points: progress.points, grades: grades)
        }

        /// The song's rating for this score.
        public var rating: SongRating { SongRating(score: points.total) }

        /// `3 great · 1 good · 2 missed`: the grades sung, best first; empty without grades.
        public var gradeCounts: String {
            LineGrade.allCases.reversed().compactMap { grade in
                let count = grades.filter { $0 == grade }.count
                return count > 0 ? "\(count) \(grade.rawValue)" : nil
            }.joined(separator: " · ")
        }

        /// The label before the score in a duet: the name, else `P1`, `P2`, or `both`.
        var label: String {
            if let name, !name.isEmpty { return ControlCharacters.strip(name) }
            switch part {
            case .part(let n): return "P\(n + 1)"
            case .together: return "both"
            case nil: return ""
            }
        }
    }

    /// The song's title as the player's title row shows it (`TITLE — ARTIST`).
    public var title: String
    /// One entry per singer, in part order.
    public var entries: [Entry]

    /// A card for `title` with `entries`.
    public init(title: String, entries: [Entry]) {
        self.title = title
        self.entries = entries
    }

    /// The card for the singers' final progress: what the play loop shows at the end of a scored song.
    public init(title: String, singers: [SingerProgress]) {
        self.init(title: title, entries: singers.map { Entry($0) })
    }

    /// The keys the status row offers.
    public static let hints = "␣ continue  q quit"

    /// The answer bound to `key`, or nil for keys that do nothing on the card.
    public static func answer(to key: Key) -> Answer? {
        switch key {
        case .character(" "), .character("\n"), .character("\r"): .close
        case .character("q"), .character("Q"), .escape: .quit
        default: nil
        }
    }

    /// The card as a frame of `columns` × `rows`: the lines centred in the middle, the keys in the status row.
    ///
    /// One singer: the score, the rating under it, the grades under that. Several: one row each, `P1  4,210
    /// in tune` in the singer's ink, the columns lined up, and their grades under them.
    public func frame(columns: Int, rows: Int, options: FrameOptions) -> Frame {
        let columns = max(1, columns), rows = max(1, rows)
        let theme = options.theme
        var lines: [(text: String, role: RowKind, color: RGB)] = [
            (ControlCharacters.strip(title), .title, theme.foreground), ("", .blank, theme.status),
        ]
        if entries.count == 1, let entry = entries.first {
            let who = entry.label.isEmpty ? "" : entry.label + "  "
            lines.append((who + StatusBar.grouped(entry.points.total) + " points", .notice, theme.foreground))
            lines.append((entry.rating.rawValue, .notice, theme.gold))
            if !entry.gradeCounts.isEmpty { lines.append((entry.gradeCounts, .status, theme.status)) }
        } else {
            let labelWidth = entries.map { DisplayWidth.of($0.label) }.max() ?? 0
            let scores = entries.map { StatusBar.grouped($0.points.total) }
            let scoreWidth = scores.map(\.count).max() ?? 0
            for (entry, score) in zip(entries, scores) {
                let label = entry.label + String(repeating: " ", count: labelWidth - DisplayWidth.of(entry.label))
                let paddedScore = String(repeating: " ", count: scoreWidth - score.count) + score
                let ink = theme.ink(for: entry.part ?? .part(0))
                lines.append((label + "  " + paddedScore + "  " + entry.rating.rawValue, .notice, ink))
            }
            let counts = entries.map(\.gradeCounts)
            if counts.contains(where: { !$0.isEmpty }) {
                lines.append(("", .blank, theme.status))
                for (entry, count) in zip(entries, counts) where !count.isEmpty {
                    lines.append((entry.label + ": " + count, .status, theme.status))
                }
            }
        }
        var screen = [FrameRow](repeating: .blank, count: rows)
        let room = max(0, rows - 1)
        let top = max(0, (room - lines.count) / 2)
        // The singers' rows start at one column so their scores line up; the title and grades are centred.
        let singerRows = entries.count == 1 ? 0 : entries.count
        let singerWidth = lines.dropFirst(2).prefix(singerRows).map { DisplayWidth.of($0.text) }.max() ?? 0
        let singerLeft = max(0, (columns - singerWidth) / 2)
        for (offset, line) in lines.enumerated() where top + offset < room && line.role != .blank {
            let isSingerRow = offset >= 2 && offset < 2 + singerRows
            let width = DisplayWidth.of(line.text)
            let left = isSingerRow ? singerLeft : max(0, (columns - width) / 2)
            let cells: [FrameCell]
            if line.role == .title {
                cells = FrameComposer.layOutTitle(line.text, columns: columns).cells.map { cell in
                    var cell = cell
                    cell.color = line.color
                    return cell
                }
            } else {
                cells = FrameComposer.cells(
                    of: line.text, from: left, limit: columns, role: line.role, color: line.color)
            }
            screen[top + offset] = FrameRow(
                kind: line.role, cells: cells,
                isRightToLeft: line.role == .title && TextDirection.of(line.text) == .rightToLeft)
        }
        screen[rows - 1] = FrameRow(
            kind: .status,
            cells: FrameComposer.cells(
                of: "song over  " + ScoreCard.hints, from: 0, limit: columns, role: .status, color: theme.status))
        return Frame(time: 0, columns: columns, rows: screen)
    }
}
