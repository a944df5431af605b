/// One song of a queue: where it is and what a playlist said about it (DESIGN §14.2).
public struct QueueEntry: Sendable, Equatable {
    /// The lyric or audio file, as `play FILE` would take it.
    public var path: String
    /// The playlist's title for it (`#EXTINF`), shown when the lyrics name none.
    public var title: String?
    /// Who sings it (`#EXTSINGER:`), shown on the card.
    public var singer: String?

    /// Creates an entry.
    public init(path: String, title: String? = nil, singer: String? = nil) {
        self.path = path
        self.title = title
        self.singer = singer
    }
}

/// The songs of an evening in the order they play, and which one is up (DESIGN §14.2).
///
/// Pure: the order is fixed at creation (shuffled with a seed when asked), and moving through it
/// skips songs marked unreadable, so a broken file is met once and never loops forever.
public struct SongQueue: Sendable, Equatable {
    /// The songs as given.
    public let entries: [QueueEntry]
    /// The playing order: indices into `entries`.
    public let order: [Int]
    /// Whether the queue starts over after its last song (`--loop`).
    public let loops: Bool
    /// The place in `order` of the song that is up.
    public private(set) var place = 0
    /// Entries whose lyrics could not be read: skipped from then on.
    public private(set) var unreadable: Set<Int> = []

    /// A queue of `entries` (at least one), shuffled when `seed` is given, looping when `loops`.
    public init(entries: [QueueEntry], seed: UInt64? = nil, loops: Bool = false) {
        precondition(!entries.isEmpty, "a queue needs a song")
        self.entries = entries
        self.loops = loops
        var order = Array(entries.indices)
        if let seed { SongQueue.shuffle(&order, seed: seed) }
        self.order = order
    }

    /// The song that is up.
    public var current: QueueEntry { entries[order[place]] }

    /// The position shown in the status bar: 1-based place and the number of songs.
    public var position: (number: Int, count: Int) { (place + 1, order.count) }

    /// Moves to the next readable song; false at the end of the queue (never, while looping, unless
    /// every song is unreadable).
    public mutating func advance() -> Bool {
        step(by: 1)
    }

    /// Moves to the previous readable song; at the first it stays there (or, looping, wraps to the
    /// last). False only when no song is readable.
    public mutating func goBack() -> Bool {
        if step(by: -1) { return true }
        // Before the first song: stay on it when it can be played.
        return !unreadable.contains(order[place])
    }

    /// Stays on the song that is up when it is readable, else moves back to the nearest readable song before
    /// it (wrapping when looping): where the end card's `N` goes. False when no song is readable.
    public mutating func backToReadable() -> Bool {
        if !unreadable.contains(order[place]) { return true }
        return step(by: -1)
    }

    /// Marks the song that is up as unreadable and moves on as `advance()` does.
    public mutating func skipUnreadable() -> Bool {
        unreadable.insert(order[place])
        return advance()
    }

    /// Moves `direction` (1 or -1) to the nearest readable song, wrapping when looping.
    private mutating func step(by direction: Int) -> Bool {
        var candidate = place
        for _ in 0..<order.count {
            candidate += direction
            if candidate < 0 || candidate >= order.count {
                guard loops else { return false }
                candidate = (candidate + order.count) % order.count
            }
            if !unreadable.contains(order[candidate]) {
                place = candidate
                return true
            }
        }
        return false
    }

    /// Shuffles `order` in place (Fisher–Yates) with a generator seeded by `seed`, so a seed always
    /// gives the same order, on every machine.
    static func shuffle(_ order: inout [Int], seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        guard order.count > 1 else { return }
        for index in stride(from: order.count - 1, to: 0, by: -1) {
            let other = Int(generator.next() % UInt64(index + 1))
            order.swapAt(index, other)
        }
    }
}

/// SplitMix64: a small, well-mixed generator whose sequence depends only on its seed (the standard
/// library's generator cannot be seeded).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator starting from `seed`.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
