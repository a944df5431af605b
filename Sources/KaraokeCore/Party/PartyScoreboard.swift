/// The evening's scoreboard for the up-next card: each singer's best score and songs sung (DESIGN §20.5).
public struct PartyScoreboard: Sendable, Equatable {
    /// One singer's evening.
    public struct Entry: Sendable, Equatable {
        /// The singer, spelled as at their first song.
        public var singer: SingerName
        /// Their best score (0…10,000, as `play --score` counts), nil while no song of theirs was scored.
        public var best: Int?
        /// How many songs they have sung, scored or not.
        public var songsSung: Int

        /// Creates an entry.
        public init(singer: SingerName, best: Int?, songsSung: Int) {
            self.singer = singer
            self.best = best
            self.songsSung = songsSung
        }
    }

    /// The singers in the order they first sang.
    public internal(set) var entries: [Entry] = []

    /// An empty scoreboard.
    public init() {}

    /// A scoreboard of `entries`, as a journal kept them.
    public init(entries: [Entry]) { self.entries = entries }

    /// Records a song sung by `singer`, with its score when it was scored.
    public mutating func record(songBy singer: SingerName, score: Int?) {
        guard let index = entries.firstIndex(where: { $0.singer == singer }) else {
            entries.append(Entry(singer: singer, best: score, songsSung: 1))
            return
        }
        entries[index].songsSung += 1
        if let score { entries[index].best = max(entries[index].best ?? score, score) }
    }

    /// The entries as the card lists them: best score first, unscored singers last, then more songs sung,
    /// then the order they first sang (a stable sort, so ties do not swap between two paints).
    public var ranking: [Entry] {
        entries.enumerated().sorted { lhs, rhs in
            let left = (lhs.element.best ?? -1, lhs.element.songsSung, -lhs.offset)
            let right = (rhs.element.best ?? -1, rhs.element.songsSung, -rhs.offset)
            return left > right
        }.map(\.element)
    }
}

/// The key each singer last chose, in semitones, applied when their next song starts (DESIGN §20.5).
public struct SingerKeys: Sendable, Equatable {
    /// The semitones by singer key; a singer not here sings in the song's own key.
    public internal(set) var semitones: [String: Int] = [:]

    /// No key remembered.
    public init() {}

    /// The key `singer` chose, 0 when none.
    public subscript(singer: SingerName) -> Int {
        get { semitones[singer.key] ?? 0 }
        // A singer back at 0 is forgotten, so the journal holds only real choices.
        set { semitones[singer.key] = newValue == 0 ? nil : newValue }
    }
}
