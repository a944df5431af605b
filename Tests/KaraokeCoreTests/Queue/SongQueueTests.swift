import Testing
@testable import KaraokeCore

/// Entries named a, b, c… for queue tests.
private func entries(_ count: Int) -> [QueueEntry] {
    (0..<count).map { QueueEntry(path: String(UnicodeScalar(UInt8(97 + $0)))) }
}

/// The paths a queue plays, from its current song on, until it ends (at most `limit` songs).
private func playOrder(_ queue: SongQueue, limit: Int = 20) -> [String] {
    var queue = queue
    var played = [queue.current.path]
    while played.count < limit, queue.advance() { played.append(queue.current.path) }
    return played
}

/// Moves `queue` with `move` and says whether it moved (a mutating call cannot sit inside `#expect`).
private func moved(_ queue: inout SongQueue, _ move: (inout SongQueue) -> Bool) -> Bool {
    move(&queue)
}

@Suite("The queue of songs")
struct SongQueueTests {
    @Test("without shuffle the songs play in the order given and the queue ends after the last")
    func inOrder() {
        let queue = SongQueue(entries: entries(4))
        #expect(playOrder(queue) == ["a", "b", "c", "d"])
        #expect(queue.position == (1, 4))
    }

    @Test(
        "a seed gives the same order every time, and every song exactly once",
        arguments: [0, 1, 42, 2_026, UInt64.max])
    func seededShuffle(seed: UInt64) {
        let first = playOrder(SongQueue(entries: entries(9), seed: seed))
        let again = playOrder(SongQueue(entries: entries(9), seed: seed))
        #expect(first == again)
        #expect(first.sorted() == ["a", "b", "c", "d", "e", "f", "g", "h", "i"])
    }

    @Test("different seeds give different orders")
    func seedsDiffer() {
        let orders = Set((0..<10).map { playOrder(SongQueue(entries: entries(9), seed: UInt64($0))) })
        #expect(orders.count > 5)
    }

    @Test("with loop the queue starts over after its last song")
    func loops() {
        let queue = SongQueue(entries: entries(3), loops: true)
        #expect(playOrder(queue, limit: 7) == ["a", "b", "c", "a", "b", "c", "a"])
    }

    @Test("previous goes back one song and stays on the first")
    func previous() {
        var queue = SongQueue(entries: entries(3))
        #expect(moved(&queue) { $0.advance() })
        #expect(moved(&queue) { $0.advance() })
        #expect(moved(&queue) { $0.goBack() })
        #expect(queue.current.path == "b")
        #expect(moved(&queue) { $0.goBack() })
        #expect(moved(&queue) { $0.goBack() })
        #expect(queue.current.path == "a")
        #expect(queue.position.number == 1)
    }

    @Test("previous from the first song wraps to the last when looping")
    func previousWraps() {
        var queue = SongQueue(entries: entries(3), loops: true)
        #expect(moved(&queue) { $0.goBack() })
        #expect(queue.current.path == "c")
    }

    @Test("an unreadable song is skipped, and left out when the queue comes round again")
    func unreadableSkipped() {
        var queue = SongQueue(entries: entries(3), loops: true)
        #expect(moved(&queue) { $0.advance() })
        #expect(moved(&queue) { $0.skipUnreadable() })
        #expect(queue.current.path == "c")
        #expect(playOrder(queue, limit: 5) == ["c", "a", "c", "a", "c"])
        #expect(moved(&queue) { $0.goBack() })
        #expect(queue.current.path == "a")
    }

    @Test("a looping queue of unreadable songs ends instead of going round for ever")
    func allUnreadable() {
        var queue = SongQueue(entries: entries(3), loops: true)
        #expect(moved(&queue) { $0.skipUnreadable() })
        #expect(moved(&queue) { $0.skipUnreadable() })
        #expect(!moved(&queue) { $0.skipUnreadable() })
        #expect(!moved(&queue) { $0.goBack() })
    }

    @Test("the last song being unreadable ends the queue")
    func lastUnreadable() {
        var queue = SongQueue(entries: entries(2))
        #expect(moved(&queue) { $0.advance() })
        #expect(!moved(&queue) { $0.skipUnreadable() })
    }

    @Test("back to a readable song stays on the song that is up, or after an unusable one, finds the one before")
    func backToReadable() {
        var queue = SongQueue(entries: entries(3))
        #expect(moved(&queue) { $0.advance() })
        #expect(moved(&queue) { $0.advance() })
        var stay = queue
        #expect(moved(&stay) { $0.backToReadable() })
        #expect(stay.current.path == "c")
        #expect(!moved(&queue) { $0.skipUnreadable() })
        #expect(moved(&queue) { $0.backToReadable() })
        #expect(queue.current.path == "b")
    }

    @Test("back to a readable song fails when none is, even looping")
    func backToReadableNone() {
        var queue = SongQueue(entries: entries(2), loops: true)
        #expect(moved(&queue) { $0.skipUnreadable() })
        #expect(!moved(&queue) { $0.skipUnreadable() })
        #expect(!moved(&queue) { $0.backToReadable() })
    }
}
