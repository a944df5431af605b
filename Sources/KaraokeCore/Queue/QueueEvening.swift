/// What a queue does next, from the first card to the end card (DESIGN §14.2).
///
/// Pure: the edge reads the song that is up, shows the cards and plays the songs this names, and tells it
/// what came of each; every decision about what follows a song, a skipped entry or the end is made here.
/// The evening ends only on q or a signal, never because of what is next in the queue: its end is a card.
public struct QueueEvening: Sendable, Equatable {
    /// What the edge does next.
    public enum Step: Sendable, Equatable {
        /// Read the lyrics of `entry`, the song that is up; then tell `read(…)` or `unreadable(…)`.
        case read(QueueEntry)
        /// Show the song's card; then tell its answer.
        case card(QueueCard)
        /// Play the song that is up; then tell `nextSong()`, `previousSong()` or `quit(status:)`.
        case play(QueueEntry)
        /// Show the card of an entry that cannot be played; then tell its answer.
        case skipped(SkippedCard)
        /// Show the end card; then tell its answer.
        case end(EndCard)
        /// End the evening with this exit status.
        case exit(Int32)
    }

    /// The songs and the place in them.
    public private(set) var queue: SongQueue
    /// The entries skipped so far, in the order met.
    public private(set) var skipped: [SkippedEntry] = []
    /// The titles of the songs sung so far, in the order first sung, each once.
    public private(set) var sung: [String] = []
    /// The entries (indices into `queue.entries`) already in `sung`.
    private var sungEntries: Set<Int> = []
    /// Notes for the next song's card: the queue's own (a playlist's warnings), on the first card.
    private var notes: [String]
    /// The singer of every song whose entry names none (`--singer`).
    private let singer: String?
    /// Whether any song could be read: an evening of nothing but unusable entries exits 1.
    private var readAny = false
    /// The title of the song that is up, once read.
    private var title = ""

    /// An evening of `queue`, with `notes` for its first card and `singer` for songs whose entry names none.
    public init(queue: SongQueue, notes: [String] = [], singer: String? = nil) {
        self.queue = queue
        self.notes = notes
        self.singer = singer
    }

    /// The first step: read the first song.
    public var firstStep: Step { .read(queue.current) }

    /// The song that is up could be read: its card. `title` is the title row's text when the lyrics name the
    /// song; else the playlist's title is shown, else `fallbackTitle` (the file's name).
    public mutating func read(title: String?, fallbackTitle: String, now: Double) -> Step {
        readAny = true
        let entry = queue.current
        self.title = title ?? entry.title ?? fallbackTitle
        let position = queue.position
        let card = QueueCard(
            title: self.title, singer: entry.singer ?? singer, notes: notes, number: position.number,
            count: position.count, now: now)
        notes = []
        return .card(card)
    }

    /// The song that is up cannot be played, for the reason `skip` gives: its card, and the queue goes on;
    /// when nothing playable follows, the end card at once (it names the entry too).
    public mutating func unreadable(_ skip: SkippedEntry, now: Double) -> Step {
        skipped.append(skip)
        let position = queue.position
        let title = queue.current.title
        guard queue.skipUnreadable() else { return end }
        return .skipped(
            SkippedCard(skipped: skip, title: title, number: position.number, count: position.count, now: now))
    }

    /// What the song's card answered.
    public mutating func answer(_ answer: QueueCard.Answer) -> Step {
        switch answer {
        case .start:
            if sungEntries.insert(queue.order[queue.place]).inserted { sung.append(title) }
            return .play(queue.current)
        case .next: return nextSong()
        case .previous: return previousSong()
        case .quit: return quit()
        }
    }

    /// What the card of a skipped entry answered. The queue has already moved past the entry, so going on
    /// reads the song after it, and going back finds the readable song before it.
    public mutating func answer(_ answer: SkippedCard.Answer) -> Step {
        switch answer {
        case .goOn: return .read(queue.current)
        case .back: return previousSong()
        case .quit: return quit()
        }
    }

    /// What the end card answered: back to the last song that can be played, or the end of the evening.
    public mutating func answer(_ answer: EndCard.Answer) -> Step {
        switch answer {
        case .back: return queue.backToReadable() ? .read(queue.current) : end
        case .quit: return quit()
        }
    }

    /// On to the next song (the song ended, or `n`): its reading, or the end card after the last.
    public mutating func nextSong() -> Step {
        queue.advance() ? .read(queue.current) : end
    }

    /// Back to the song before (`N`); on the first song, that song again.
    public mutating func previousSong() -> Step {
        _ = queue.goBack()
        return .read(queue.current)
    }

    /// The end of the evening, on q (`status` 0) or a signal: exit 1 when no song could be read at all.
    public func quit(status: Int32 = 0) -> Step {
        .exit(readAny || status != 0 ? status : 1)
    }

    /// The end card as things stand.
    private var end: Step {
        var probe = queue
        return .end(EndCard(sung: sung, skipped: skipped, canGoBack: probe.backToReadable()))
    }
}
