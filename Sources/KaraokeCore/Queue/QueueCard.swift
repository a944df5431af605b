/// The card shown before each song of a queue: what comes next, who sings it, the queue's own notes, and
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
    /// Notes about the queue itself, on its first card: a playlist's warnings, a FILE with no songs in it.
    /// (An entry that cannot be played has a card of its own, `SkippedCard`.)
    public var notes: [String]
    /// The song's place in the queue, 1-based.
    public var number: Int
    /// The number of songs in the queue.
    public var count: Int
    /// The countdown to the song's start.
    public var countdown: CardCountdown

    /// The monotonic time the card ends and the song starts.
    public var endsAt: Double { countdown.endsAt }

    /// A card for the song `number` of `count`, shown from monotonic time `now`.
    public init(
        title: String, singer: String? = nil, notes: [String] = [], number: Int, count: Int, now: Double
    ) {
        self.title = title
        self.singer = singer
        self.notes = notes
        self.number = number
        self.count = count
        countdown = CardCountdown(duration: QueueCard.duration, from: now)
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
    public func isOver(at now: Double) -> Bool { countdown.isOver(at: now) }

    /// The whole seconds left at `now`, rounded up, as the card counts them down.
    public func secondsLeft(at now: Double) -> Int { countdown.secondsLeft(at: now) }

    /// When the card next changes after `now`: the next whole second of the countdown, or its end.
    public func nextChange(after now: Double) -> Double { countdown.nextChange(after: now) }

    /// The card as a frame of `columns` × `rows`: the lines centred in the middle, the countdown and the
    /// keys in the status row.
    public func frame(at now: Double, columns: Int, rows: Int, options: FrameOptions) -> Frame {
        let theme = options.theme
        var lines = [CardLayout.Line(text: "next: " + title, role: .title, color: theme.foreground)]
        if let singer {
            lines.append(CardLayout.Line(text: "sung by " + singer, role: .title, color: theme.foreground))
        }
        if !notes.isEmpty {
            lines.append(.blank)
            // A note names a file and says why: wrapped rather than cut, so the reason stays readable.
            for note in notes {
                lines += CardLayout.wrapped(note, columns: columns, role: .notice, color: theme.status)
            }
        }
        let status = "\(number)/\(count)  starts in \(secondsLeft(at: now)) s  ␣ start now  n skip  N back  q quit"
        return CardLayout(lines: lines, status: status, statusColor: theme.status).frame(columns: columns, rows: rows)
    }
}
