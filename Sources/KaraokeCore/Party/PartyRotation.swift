/// The party's queue: who sings next, kept fair between the guests (DESIGN §20.1).
///
/// The singers take turns in `turns` order, a round at a time: in each round every singer with a song
/// waiting sings one, and a singer who has sung in the current round waits for the next. A singer joins at
/// the end of `turns`, so a latecomer sings after everyone already waiting in the round; a singer with no
/// song left leaves `turns`. The singing order is derived from these alone, never stored, so it cannot
/// drift from the rules.
public struct PartyRotation: Sendable, Equatable {
    /// One song a guest asked for.
    public struct Request: Sendable, Equatable, Identifiable {
        /// The request's number, unique for the evening; guests cancel by it.
        public var id: Int
        /// Who asked, spelled as they did.
        public var singer: SingerName
        /// The song's id in `PartySongs`.
        public var song: String

        /// Creates a request.
        public init(id: Int, singer: SingerName, song: String) {
            self.id = id
            self.singer = singer
            self.song = song
        }
    }

    /// Why the rotation refused a change.
    public enum Refusal: Error, Sendable, Equatable {
        /// The host has paused requests.
        case paused
        /// The singer already has this many songs waiting.
        case limitReached(Int)
        /// No waiting request has this id (the song being sung is no longer waiting).
        case noSuchRequest
        /// The request is another singer's.
        case notYourRequest
        /// The request is already the next to be sung.
        case alreadyFirst
        /// The request is the first of its round: moving it up would have its singer sing twice in a round.
        case firstOfItsRound

        /// What the host's status row says when one of their keys is refused.
        public var hostMessage: String {
            switch self {
            case .paused: "requests are closed"
            case .limitReached(let limit): "that singer already has \(limit) songs waiting"
            case .noSuchRequest: "that request is no longer waiting"
            case .notYourRequest: "that request is another singer's"
            case .alreadyFirst: "that request is already next"
            case .firstOfItsRound: "that request is first in its round: its singer would sing twice in a round"
            }
        }
    }

    /// A request and the round it is sung in: 0 is the current round, 1 the next, and so on.
    public struct Slot: Sendable, Equatable {
        /// The request.
        public var request: Request
        /// Its round, counted from the current one.
        public var round: Int
    }

    /// The most songs one singer may have waiting (`--max-per-singer`); the song being sung does not count.
    public var maximumPerSinger: Int
    /// Whether the host has paused requests: `add` refuses while it is set.
    public var isPaused = false
    /// The song being sung, taken by `next()`; nil between songs.
    public internal(set) var now: Request?
    /// The waiting requests in the order they were asked for.
    public internal(set) var requests: [Request] = []
    /// The singers with a song waiting, in the order they take their turns.
    public internal(set) var turns: [SingerName] = []
    /// The keys of the singers who have sung in the current round, even those who have left `turns` since.
    public internal(set) var sungThisRound: Set<String> = []
    /// The current round, counted from 1 at the first song of the evening; 0 before it.
    public internal(set) var round = 0
    /// The id the next request gets.
    public internal(set) var nextID = 1

    /// The default of `--max-per-singer`.
    public static let defaultMaximumPerSinger = 2

    /// An empty rotation.
    public init(maximumPerSinger: Int = PartyRotation.defaultMaximumPerSinger) {
        self.maximumPerSinger = maximumPerSinger
    }

    /// The waiting requests in singing order: position 1 (index 0) is sung next.
    public var order: [Request] { slots.map(\.request) }

    /// The waiting requests in singing order with their rounds.
    ///
    /// Round `r` holds, in `turns` order, each singer's `r`-th waiting song, counting a singer who has sung
    /// in the current round from round 1 instead of 0.
    public var slots: [Slot] {
        var waiting: [String: [Request]] = [:]
        for request in requests { waiting[request.singer.key, default: []].append(request) }
        var lastRound = -1
        for singer in turns {
            let count = waiting[singer.key]?.count ?? 0
            lastRound = max(lastRound, count - 1 + (sungThisRound.contains(singer.key) ? 1 : 0))
        }
        guard lastRound >= 0 else { return [] }
        var result: [Slot] = []
        result.reserveCapacity(requests.count)
        for round in 0...lastRound {
            for singer in turns {
                let songs = waiting[singer.key] ?? []
                let index = round - (sungThisRound.contains(singer.key) ? 1 : 0)
                if index >= 0, index < songs.count { result.append(Slot(request: songs[index], round: round)) }
            }
        }
        return result
    }

    /// The 1-based place of a waiting request in the singing order, or nil when none has that id.
    public func position(of id: Int) -> Int? {
        order.firstIndex { $0.id == id }.map { $0 + 1 }
    }

    /// How many songs `singer` has waiting.
    public func waitingCount(of singer: SingerName) -> Int {
        requests.count { $0.singer == singer }
    }

    /// Adds a request for `song` by `singer` and returns it; a singer not in `turns` joins at its end.
    public mutating func add(song: String, by singer: SingerName) throws(Refusal) -> Request {
        guard !isPaused else { throw .paused }
        guard waitingCount(of: singer) < maximumPerSinger else { throw .limitReached(maximumPerSinger) }
        let request = Request(id: nextID, singer: singer, song: song)
        nextID += 1
        requests.append(request)
        if !turns.contains(singer) { turns.append(singer) }
        return request
    }

    /// Cancels a guest's own waiting request; it must be `singer`'s.
    public mutating func cancel(_ id: Int, by singer: SingerName) throws(Refusal) {
        guard let index = requests.firstIndex(where: { $0.id == id }) else { throw .noSuchRequest }
        guard requests[index].singer == singer else { throw .notYourRequest }
        removeRequest(at: index)
    }

    /// Removes any waiting request: the host's key.
    public mutating func remove(_ id: Int) throws(Refusal) {
        guard let index = requests.firstIndex(where: { $0.id == id }) else { throw .noSuchRequest }
        removeRequest(at: index)
    }

    /// Removes every waiting request `shouldRemove` picks and returns them: a resumed party drops the songs its
    /// folders no longer hold.
    @discardableResult
    public mutating func removeRequests(where shouldRemove: (Request) -> Bool) -> [Request] {
        let removed = requests.filter(shouldRemove)
        for request in removed {
            if let index = requests.firstIndex(where: { $0.id == request.id }) { removeRequest(at: index) }
        }
        return removed
    }

    /// Moves a waiting request one place up in the singing order: the host's key (DESIGN §20.1).
    ///
    /// The singer's turn moves, not the song alone: the singer takes the place just before the singer they
    /// pass, in this round and every later one, so each singer still sings once a round and their own songs
    /// keep their order. The first request of a round cannot pass the end of the round before it.
    public mutating func moveUp(_ id: Int) throws(Refusal) {
        let slots = self.slots
        guard let index = slots.firstIndex(where: { $0.request.id == id }) else { throw .noSuchRequest }
        guard index > 0 else { throw .alreadyFirst }
        let passed = slots[index - 1]
        guard passed.round == slots[index].round else { throw .firstOfItsRound }
        let singer = slots[index].request.singer
        turns.removeAll { $0 == singer }
        let place = turns.firstIndex(of: passed.request.singer) ?? 0
        turns.insert(singer, at: place)
    }

    /// Takes the next request in the singing order as `now` and returns it; nil (and `now` nil) when none waits.
    ///
    /// The song before is over: a new round starts when the request taken belongs to the next one.
    public mutating func next() -> Request? {
        guard let first = slots.first else {
            now = nil
            return nil
        }
        if first.round > 0 || round == 0 {
            round += 1
            sungThisRound = []
        }
        sungThisRound.insert(first.request.singer.key)
        if let index = requests.firstIndex(where: { $0.id == first.request.id }) { removeRequest(at: index) }
        now = first.request
        return first.request
    }

    /// Ends the song being sung without taking another: the host's skip. The singer's turn is spent.
    @discardableResult
    public mutating func skipCurrent() -> Request? {
        defer { now = nil }
        return now
    }

    /// Puts the song that was being sung back at the head of the queue: a resumed party (the host's machine
    /// stopped mid-song) lets its singer sing it again, first, and their turn in this round is not spent.
    public mutating func putBackCurrent() {
        guard let current = now else { return }
        now = nil
        requests.insert(current, at: 0)
        turns.removeAll { $0 == current.singer }
        turns.insert(current.singer, at: 0)
        sungThisRound.remove(current.singer.key)
    }

    /// Carries out one of the host's keys (DESIGN §20.6).
    public mutating func apply(_ action: PartyHostAction) throws(Refusal) {
        switch action {
        case .remove(let id): try remove(id)
        case .moveUp(let id): try moveUp(id)
        case .toggleRequests: isPaused.toggle()
        }
    }

    /// Removes the request at `index` of `requests`; its singer leaves `turns` when nothing of theirs waits.
    mutating func removeRequest(at index: Int) {
        let singer = requests.remove(at: index).singer
        if !requests.contains(where: { $0.singer == singer }) { turns.removeAll { $0 == singer } }
    }
}
