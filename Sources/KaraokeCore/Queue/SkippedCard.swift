/// The card of a queue's entry that cannot be played: which file and why, for a few seconds, and then the
/// queue goes on (DESIGN §14.2).
///
/// A value like `QueueCard`: the countdown is shown in the status row, and a key may go on at once, go
/// back, or end the evening.
public struct SkippedCard: Sendable, Equatable {
    /// How long the card stays before the queue goes on by itself, in seconds.
    public static let duration = 3.0

    /// What a key, or the countdown's end, does.
    public enum Answer: Sendable, Equatable {
        /// On to the next entry (space, Enter, n, or the countdown's end).
        case goOn
        /// Back to the song before (N).
        case back
        /// End the evening (q, Esc).
        case quit
    }

    /// The entry skipped, and why.
    public var skipped: SkippedEntry
    /// The playlist's title for the entry (`#EXTINF`), when it gave one.
    public var title: String?
    /// The entry's place in the queue, 1-based.
    public var number: Int
    /// The number of songs in the queue.
    public var count: Int
    /// The countdown to going on.
    public var countdown: CardCountdown

    /// The card of the entry `number` of `count`, shown from monotonic time `now`.
    public init(skipped: SkippedEntry, title: String? = nil, number: Int, count: Int, now: Double) {
        self.skipped = skipped
        self.title = title
        self.number = number
        self.count = count
        countdown = CardCountdown(duration: SkippedCard.duration, from: now)
    }

    /// The keys the status row offers.
    public static let hints = "␣ go on  N back  q quit"

    /// The answer bound to `key`, or nil for keys that do nothing on the card.
    public static func answer(to key: Key) -> Answer? {
        switch key {
        case .character(" "), .character("\n"), .character("\r"), .character("n"): .goOn
        case .character("N"): .back
        case .character("q"), .character("Q"), .escape: .quit
        default: nil
        }
    }

    /// The card as a frame of `columns` × `rows`: the playlist's title for the entry, then the note (wrapped,
    /// so the reason stays readable), centred; the place, the countdown and the keys in the status row.
    public func frame(at now: Double, columns: Int, rows: Int, options: FrameOptions) -> Frame {
        let theme = options.theme
        var lines: [CardLayout.Line] = []
        if let title { lines.append(CardLayout.Line(text: title, role: .title, color: theme.foreground)) }
        lines += CardLayout.wrapped(skipped.note, columns: columns, role: .notice, color: theme.foreground)
        let status = "\(number)/\(count)  goes on in \(countdown.secondsLeft(at: now)) s  " + SkippedCard.hints
        return CardLayout(lines: lines, status: status, statusColor: theme.status).frame(columns: columns, rows: rows)
    }
}
