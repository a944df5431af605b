/// The card at the end of a queue: what was sung, what was skipped and why; it waits for q (DESIGN §14.2).
///
/// The evening never ends by surprise: the last song's end, `n` on the last card, or an unusable last
/// entry all come here, and `N` goes back to the last song that can be played.
public struct EndCard: Sendable, Equatable {
    /// What a key does on the card.
    public enum Answer: Sendable, Equatable {
        /// Back to the last song that can be played (N).
        case back
        /// End the evening (q, Esc).
        case quit
    }

    /// The titles of the songs sung, in the order first sung, each once.
    public var sung: [String]
    /// The entries skipped, in the order met.
    public var skipped: [SkippedEntry]
    /// Whether there is a song to go back to (not when none could be played).
    public var canGoBack: Bool

    /// The end card of an evening that sang `sung` and skipped `skipped`.
    public init(sung: [String], skipped: [SkippedEntry], canGoBack: Bool) {
        self.sung = sung
        self.skipped = skipped
        self.canGoBack = canGoBack
    }

    /// The first row of the card.
    public static let heading = "the end of the queue"

    /// The keys the status row offers.
    public var hints: String { canGoBack ? "q quit  N back" : "q quit" }

    /// The answer bound to `key`, or nil for keys that do nothing on the card. Space and Enter do nothing, so
    /// that a key pressed to hurry a card on does not end the evening.
    public func answer(to key: Key) -> Answer? {
        switch key {
        case .character("N") where canGoBack: .back
        case .character("q"), .character("Q"), .escape: .quit
        default: nil
        }
    }

    /// The card as a frame of `columns` × `rows`: the heading, the songs sung, and each skipped entry's note
    /// (wrapped), centred; the keys and the counts in the status row.
    ///
    /// The notes say why something is missing, so they keep their rows: when everything does not fit, the
    /// list of songs sung is shortened first (`and 4 more`), then told as a count (`6 songs sung`).
    public func frame(columns: Int, rows: Int, options: FrameOptions) -> Frame {
        let theme = options.theme
        let room = max(0, rows - 1)
        var notes: [CardLayout.Line] = []
        if !skipped.isEmpty {
            notes.append(.blank)
            for entry in skipped {
                notes += CardLayout.wrapped(entry.note, columns: columns, role: .notice, color: theme.foreground)
            }
        }
        let heading = [CardLayout.Line(text: EndCard.heading, role: .title, color: theme.foreground), .blank]
        let songsRoom = room - heading.count - notes.count
        let songs = sungLines(room: songsRoom).map { line in
            CardLayout.Line(text: line.text, role: .notice, color: line.isTitle ? theme.foreground : theme.status)
        }
        // The keys first: the card waits for q, so q is what a narrow screen keeps.
        let status = hints + "  \(sung.count) sung  \(skipped.count) skipped"
        return CardLayout(lines: heading + songs + notes, status: status, statusColor: theme.status)
            .frame(columns: columns, rows: rows)
    }

    /// The lines about the songs sung in at most `room` rows (at least one row, even when there is none).
    private func sungLines(room: Int) -> [(text: String, isTitle: Bool)] {
        guard !sung.isEmpty else { return [("nothing was sung", false)] }
        let titles = sung.map { (text: $0, isTitle: true) }
        if 1 + titles.count <= room { return [("sung", false)] + titles }
        // The heading, as many titles as fit, and a line for the others.
        let shown = room - 2
        if shown >= 1 { return [("sung", false)] + titles.prefix(shown) + [("and \(sung.count - shown) more", false)] }
        return [("\(sung.count) \(sung.count == 1 ? "song" : "songs") sung", false)]
    }
}
