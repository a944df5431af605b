/// The card shown before each song of a queue: what comes next, who sings it, what was skipped, and
/// how long until it starts (DESIGN §14.2).
///
/// A value: the edge paints `frame(at:…)` whenever `nextChange(after:)` comes, or a key's `answer`
/// arrives, and starts the song once `isOver(at:)`.
public struct QueueCard: Sendable, Equatable {
    /// How long the card stays before the song starts by itself, in seconds.
    public static let duration = 5.0

    /// What a key does while the card is shown.
    public enum Answer: Sendable, Equatable {
        /// Start the song now (space, Enter).
        case start
        /// Skip this song: the card of the one after (n).
        case next
        /// Back to the song before (N).
        case previous
        /// End the evening (q, Esc).
        case quit
    }

    /// The song's title as the player's title row shows it (`TITLE — ARTIST`).
    public var title: String
    /// Who sings it, when the playlist or `--singer` says.
    public var singer: String?
    /// Notes about songs skipped since the last card (lyrics that could not be read).
    public var notes: [String]
    /// The song's place in the queue, 1-based.
    public var number: Int
    /// The number of songs in the queue.
    public var count: Int
    /// The monotonic time the card ends and the song starts.
    public var endsAt: Double

    /// A card for the song `number` of `count`, shown from monotonic time `now`.
    public init(
        title: String, singer: String? = nil, notes: [String] = [], number: Int, count: Int, now: Double
    ) {
        self.title = title
        self.singer = singer
        self.notes = notes
        self.number = number
        self.count = count
        endsAt = now + QueueCard.duration
    }

    /// The answer bound to `key`, or nil for keys that do nothing on the card.
    public static func answer(to key: Key) -> Answer? {
        switch key {
        case .character(" "), .character("\n"), .character("\r"): .start
        case .character("n"): .next
        case .character("N"): .previous
        case .character("q"), .character("Q"), .escape: .quit
        default: nil
        }
    }

    /// Whether the card's time is up at `now`.
    public func isOver(at now: Double) -> Bool { now >= endsAt }

    /// The whole seconds left at `now`, rounded up, as the card counts them down.
    public func secondsLeft(at now: Double) -> Int {
        let left = (endsAt - now).rounded(.up)
        return left.isFinite ? Int(max(0, min(left, QueueCard.duration))) : 0
    }

    /// When the card next changes after `now`: the next whole second of the countdown, or its end.
    public func nextChange(after now: Double) -> Double {
        let left = endsAt - now
        guard left > 0 else { return now }
        let fraction = left - left.rounded(.down)
        return now + (fraction > 0 ? fraction : 1)
    }

    /// The card as a frame of `columns` × `rows`: the lines centred in the middle, the countdown and the
    /// keys in the status row.
    public func frame(at now: Double, columns: Int, rows: Int, options: FrameOptions) -> Frame {
        let columns = max(1, columns), rows = max(1, rows)
        var lines: [(text: String, kind: RowKind, color: RGB)] = [
            ("next: " + ControlCharacters.strip(title), .title, options.theme.foreground)
        ]
        if let singer { lines.append(("sung by " + ControlCharacters.strip(singer), .title, options.theme.foreground)) }
        if !notes.isEmpty {
            lines.append(("", .blank, options.theme.status))
            // A note names a file and says why: wrapped rather than cut, so the reason stays readable.
            for note in notes {
                let graphemes = Array(ControlCharacters.strip(note))
                let widths = graphemes.map { DisplayWidth.glyph($0).width }
                for row in LineWrapping.wrap(graphemes, widths: widths, maxWidth: max(1, columns - 4)) {
                    lines.append((String(graphemes[row.range]), .notice, options.theme.status))
                }
            }
        }
        var screen = [FrameRow](repeating: .blank, count: rows)
        let room = max(0, rows - 1)
        let top = max(0, (room - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < room && line.kind != .blank {
            screen[top + offset] = centred(line.text, columns: columns, role: line.kind, color: line.color)
        }
        let status = "\(number)/\(count)  starts in \(secondsLeft(at: now)) s  ␣ start now  n skip  N back  q quit"
        screen[rows - 1] = FrameRow(
            kind: .status,
            cells: FrameComposer.cells(of: status, from: 0, limit: columns, role: .status, color: options.theme.status))
        return Frame(time: 0, columns: columns, rows: screen)
    }

    /// `text` centred on a row of `columns` in visual order (a Hebrew title reads right to left), cut
    /// with "…" when it is wider, as the title row is laid out.
    private func centred(_ text: String, columns: Int, role: RowKind, color: RGB) -> FrameRow {
        let cells = FrameComposer.layOutTitle(text, columns: columns).cells.map { cell in
            var cell = cell
            cell.role = role
            cell.color = color
            return cell
        }
        return FrameRow(kind: role, cells: cells, isRightToLeft: TextDirection.of(text) == .rightToLeft)
    }
}
