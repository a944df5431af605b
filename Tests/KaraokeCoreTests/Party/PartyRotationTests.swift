import Testing

@testable import KaraokeCore

/// The singer named `name`; the tests' names are all valid.
func singer(_ name: String) -> SingerName { SingerName(name)! }

/// A rotation after `asks` (singer, song) are added in that order, without a limit in the way.
private func rotation(_ asks: [(String, String)], maximum: Int = 10) throws -> PartyRotation {
    var rotation = PartyRotation(maximumPerSinger: maximum)
    for (name, song) in asks { _ = try rotation.add(song: song, by: singer(name)) }
    return rotation
}

/// The order as `singer:song` strings, to compare at a glance.
private func shown(_ rotation: PartyRotation) -> [String] {
    rotation.order.map { "\($0.singer.shown):\($0.song)" }
}

@Suite("The party's rotation")
struct PartyRotationTests {
    @Test("singers take turns a round at a time, each singer's songs in the order asked")
    func roundRobin() throws {
        let rotation = try rotation([("Ana", "a1"), ("Ana", "a2"), ("Ben", "b1"), ("Cy", "c1"), ("Ben", "b2")])
        #expect(shown(rotation) == ["Ana:a1", "Ben:b1", "Cy:c1", "Ana:a2", "Ben:b2"])
        #expect(rotation.slots.map(\.round) == [0, 0, 0, 1, 1])
        #expect(rotation.position(of: 3) == 2) // Ben's b1
        #expect(rotation.position(of: 99) == nil)
    }

    @Test("a singer who has sung this round waits for the next one, after those still waiting")
    func sungWaitsForNextRound() throws {
        var rotation = try rotation([("Ana", "a1"), ("Ben", "b1")])
        #expect(rotation.next()?.song == "a1")
        _ = try rotation.add(song: "a2", by: singer("Ana"))
        _ = try rotation.add(song: "c1", by: singer("Cy"))
        // Ana rejoined the turns at their end, but she has sung in this round: Ben and Cy first.
        #expect(shown(rotation) == ["Ben:b1", "Cy:c1", "Ana:a2"])
        #expect(rotation.round == 1)
        #expect(rotation.next()?.song == "b1")
        #expect(rotation.next()?.song == "c1")
        #expect(rotation.next()?.song == "a2")
        #expect(rotation.round == 2)
        #expect(rotation.now?.song == "a2")
        #expect(rotation.next() == nil)
        #expect(rotation.now == nil)
    }

    @Test("a latecomer sings after the round's waiting singers, then in join order in later rounds")
    func latecomer() throws {
        var rotation = try rotation([("Ana", "a1"), ("Ana", "a2"), ("Ben", "b1"), ("Ben", "b2")])
        _ = rotation.next() // Ana's a1; Ben waits in round 1
        _ = try rotation.add(song: "c1", by: singer("Cy"))
        #expect(shown(rotation) == ["Ben:b1", "Cy:c1", "Ana:a2", "Ben:b2"])
    }

    @Test(
        "names are one singer whatever their case and spacing",
        arguments: [
            ("Ana", "ana"),
            ("  Ana ", "ANA"),
            ("Mary  Jo", "mary jo"), // runs of spaces count as one
            ("Éva", "éva"),
            ("Ana\u{202E}", "ana"), // a bidi override is removed before comparing
        ])
    func sameSinger(first: String, second: String) throws {
        var rotation = PartyRotation(maximumPerSinger: 2)
        _ = try rotation.add(song: "x", by: singer(first))
        _ = try rotation.add(song: "y", by: singer(second))
        #expect(rotation.turns.count == 1)
        #expect(throws: PartyRotation.Refusal.limitReached(2)) { try rotation.add(song: "z", by: singer(first)) }
    }

    @Test("the limit counts waiting songs only: the song being sung frees a place")
    func limitCountsWaiting() throws {
        var rotation = try rotation([("Ana", "a1"), ("Ana", "a2")], maximum: 2)
        #expect(throws: PartyRotation.Refusal.limitReached(2)) { try rotation.add(song: "a3", by: singer("Ana")) }
        _ = rotation.next()
        let added = try rotation.add(song: "a3", by: singer("Ana"))
        #expect(added.id == 3)
        #expect(rotation.waitingCount(of: singer("ana")) == 2)
    }

    @Test("while paused, requests are refused and the queue still plays")
    func paused() throws {
        var rotation = try rotation([("Ana", "a1")])
        rotation.isPaused = true
        #expect(throws: PartyRotation.Refusal.paused) { try rotation.add(song: "b1", by: singer("Ben")) }
        #expect(rotation.next()?.song == "a1")
        rotation.isPaused = false
        #expect(try rotation.add(song: "b1", by: singer("Ben")).id == 2)
    }

    @Test("a cancelled request frees its place; the singer's later songs move up in their order")
    func cancel() throws {
        var rotation = try rotation([("Ana", "a1"), ("Ana", "a2"), ("Ben", "b1"), ("Ben", "b2"), ("Ana", "a3")])
        #expect(shown(rotation) == ["Ana:a1", "Ben:b1", "Ana:a2", "Ben:b2", "Ana:a3"])
        try rotation.cancel(1, by: singer("ANA"))
        #expect(shown(rotation) == ["Ana:a2", "Ben:b1", "Ana:a3", "Ben:b2"])
    }

    @Test("a singer with nothing left leaves the turns and joins at the end when they ask again")
    func leavesAndRejoins() throws {
        var rotation = try rotation([("Ana", "a1"), ("Ben", "b1"), ("Cy", "c1")])
        try rotation.cancel(1, by: singer("Ana"))
        #expect(rotation.turns.map(\.shown) == ["Ben", "Cy"])
        _ = try rotation.add(song: "a2", by: singer("Ana"))
        #expect(shown(rotation) == ["Ben:b1", "Cy:c1", "Ana:a2"])
    }

    @Test("cancelling checks the request and its singer")
    func cancelRefusals() throws {
        var rotation = try rotation([("Ana", "a1"), ("Ben", "b1")])
        #expect(throws: PartyRotation.Refusal.notYourRequest) { try rotation.cancel(1, by: singer("Ben")) }
        #expect(throws: PartyRotation.Refusal.noSuchRequest) { try rotation.cancel(7, by: singer("Ana")) }
        _ = rotation.next()
        // The song being sung is no longer waiting.
        #expect(throws: PartyRotation.Refusal.noSuchRequest) { try rotation.cancel(1, by: singer("Ana")) }
        #expect(rotation.order.map(\.id) == [2])
    }

    @Test("the host removes anyone's request")
    func remove() throws {
        var rotation = try rotation([("Ana", "a1"), ("Ben", "b1")])
        try rotation.remove(1)
        #expect(shown(rotation) == ["Ben:b1"])
        #expect(throws: PartyRotation.Refusal.noSuchRequest) { try rotation.remove(1) }
    }

    @Test("requests for songs gone are dropped, their singers leaving the turns when nothing is left")
    func removeWhere() throws {
        var rotation = try rotation([("Ana", "gone"), ("Ben", "b1"), ("Ana", "a2"), ("Cy", "gone")])
        let removed = rotation.removeRequests { $0.song == "gone" }
        #expect(removed.map(\.id) == [1, 4])
        #expect(shown(rotation) == ["Ana:a2", "Ben:b1"]) // Ana keeps her turn: a2 is still hers
        #expect(rotation.turns.map(\.shown) == ["Ana", "Ben"])
    }

    @Test("moving up passes the singer before, in this round and the later ones")
    func moveUp() throws {
        var rotation = try rotation([("Ana", "a1"), ("Ben", "b1"), ("Cy", "c1"), ("Ben", "b2"), ("Cy", "c2")])
        #expect(shown(rotation) == ["Ana:a1", "Ben:b1", "Cy:c1", "Ben:b2", "Cy:c2"])
        try rotation.moveUp(5) // Cy's c2 passes Ben's b2 in round 2 …
        #expect(shown(rotation) == ["Ana:a1", "Cy:c1", "Ben:b1", "Cy:c2", "Ben:b2"]) // … and c1 passes b1
        try rotation.moveUp(3) // Cy's c1 passes Ana
        #expect(shown(rotation) == ["Cy:c1", "Ana:a1", "Ben:b1", "Cy:c2", "Ben:b2"])
        #expect(throws: PartyRotation.Refusal.alreadyFirst) { try rotation.moveUp(3) }
        #expect(throws: PartyRotation.Refusal.noSuchRequest) { try rotation.moveUp(42) }
    }

    @Test("the first request of a round does not pass the end of the round before")
    func moveUpAtRoundStart() throws {
        var rotation = try rotation([("Ana", "a1"), ("Ana", "a2"), ("Ben", "b1")])
        #expect(shown(rotation) == ["Ana:a1", "Ben:b1", "Ana:a2"])
        #expect(throws: PartyRotation.Refusal.firstOfItsRound) { try rotation.moveUp(2) }
        #expect(shown(rotation) == ["Ana:a1", "Ben:b1", "Ana:a2"])
    }

    @Test("moving up skips singers who already sang this round")
    func moveUpPastSungSinger() throws {
        var rotation = try rotation([("Ana", "a1"), ("Ben", "b1"), ("Cy", "c1"), ("Ben", "b2")])
        _ = rotation.next() // Ana sang; turns are Ben, Cy
        _ = try rotation.add(song: "a2", by: singer("Ana")) // Ana is back at the end, for round 2
        #expect(shown(rotation) == ["Ben:b1", "Cy:c1", "Ben:b2", "Ana:a2"])
        try rotation.moveUp(3)
        #expect(shown(rotation) == ["Cy:c1", "Ben:b1", "Ben:b2", "Ana:a2"])
    }

    @Test("skipping ends the song being sung; the singer's turn is spent")
    func skip() throws {
        var rotation = try rotation([("Ana", "a1"), ("Ana", "a2"), ("Ben", "b1")])
        _ = rotation.next()
        #expect(rotation.skipCurrent()?.song == "a1")
        #expect(rotation.now == nil)
        #expect(rotation.skipCurrent() == nil)
        #expect(rotation.next()?.song == "b1")
    }
}

/// What a property test did to a rotation, step by step, and what the rotation let through.
private struct RotationRun {
    var rotation = PartyRotation(maximumPerSinger: 3)
    var generator: SeededGenerator
    /// Songs sung, in order, with the round the rotation sang them in.
    var sung: [(request: PartyRotation.Request, round: Int)] = []
    /// The ids asked for by each singer key, in the order asked.
    var asked: [String: [Int]] = [:]
    /// The ids cancelled.
    var cancelled: Set<Int> = []
    let names = ["Ana", "ben", "Cy", "Dee", "Eli", "fay", "Gus"]

    init(seed: UInt64) { generator = SeededGenerator(state: seed) }

    /// Keys of the singers who have sung in the current round so far.
    var sungInCurrentRound: Set<String> {
        Set(sung.filter { $0.round == rotation.round }.map(\.request.singer.key))
    }
}

@Suite("The party's rotation, over many arrival orders")
struct PartyRotationPropertyTests {
    /// The seeds: each one is a different evening of adds, cancels and songs.
    static let seeds: [UInt64] = Array(1...200)

    @Test(
        "nobody sings twice in a round, a round ends only when everyone waiting has sung, latecomers wait",
        arguments: seeds)
    func fairness(seed: UInt64) throws {
        var run = RotationRun(seed: seed)
        // For a singer who joined during a round: the round and who was waiting ahead of them.
        var ahead: [String: (round: Int, singers: Set<String>)] = [:]
        for _ in 0..<120 {
            let roll = Int.random(in: 0..<10, using: &run.generator)
            if roll < 5 {
                let name = run.names.randomElement(using: &run.generator)!
                let key = singer(name).key
                let joining = !run.rotation.turns.contains(singer(name))
                let waitingNotSung = Set(run.rotation.turns.map(\.key)).subtracting(run.sungInCurrentRound)
                guard let request = try? run.rotation.add(song: "s", by: singer(name)) else { continue }
                run.asked[key, default: []].append(request.id)
                if joining, !run.sungInCurrentRound.contains(key) {
                    ahead[key] = (run.rotation.round, waitingNotSung)
                }
            } else if roll < 7, let victim = run.rotation.requests.randomElement(using: &run.generator) {
                try run.rotation.cancel(victim.id, by: victim.singer)
                run.cancelled.insert(victim.id)
                // A singer who left the turns is no longer ahead of anyone: asking again puts them at the end.
                let inTurns = Set(run.rotation.turns.map(\.key))
                for key in ahead.keys { ahead[key]?.singers.formIntersection(inTurns) }
            } else {
                let waitingBefore = Set(run.rotation.requests.map(\.singer.key))
                let roundBefore = run.rotation.round
                let sungBefore = run.sungInCurrentRound
                guard let request = run.rotation.next() else { continue }
                if run.rotation.round != roundBefore, roundBefore > 0 {
                    // Everyone who was waiting has sung in the round that ended.
                    #expect(waitingBefore.isSubset(of: sungBefore), "seed \(seed)")
                }
                #expect(
                    !run.sungInCurrentRound.contains(request.singer.key),
                    "seed \(seed): \(request.singer.shown) twice in round \(run.rotation.round)")
                if let (round, singers) = ahead[request.singer.key], round == run.rotation.round {
                    // Those waiting ahead of the latecomer have sung, or have nothing left to sing.
                    let stillWaiting = Set(run.rotation.requests.map(\.singer.key))
                    #expect(
                        singers.subtracting(run.sungInCurrentRound).isDisjoint(with: stillWaiting),
                        "seed \(seed): \(request.singer.shown) sang before someone waiting ahead")
                }
                ahead[request.singer.key] = nil
                run.sung.append((request, run.rotation.round))
            }
        }
        #expect(run.sung.count > 10, "seed \(seed) sang too little to test anything")
    }

    @Test("each singer's songs are sung in the order asked, cancelled ones left out", arguments: seeds)
    func ownOrder(seed: UInt64) throws {
        var run = RotationRun(seed: seed)
        for _ in 0..<120 {
            let roll = Int.random(in: 0..<10, using: &run.generator)
            if roll < 5 {
                let name = run.names.randomElement(using: &run.generator)!
                if let request = try? run.rotation.add(song: "s", by: singer(name)) {
                    run.asked[request.singer.key, default: []].append(request.id)
                }
            } else if roll < 7, let victim = run.rotation.requests.randomElement(using: &run.generator) {
                try run.rotation.cancel(victim.id, by: victim.singer)
                run.cancelled.insert(victim.id)
            } else if let request = run.rotation.next() {
                run.sung.append((request, run.rotation.round))
            }
            for (key, ids) in run.asked {
                let expected = ids.filter { !run.cancelled.contains($0) }
                let done = run.sung.filter { $0.request.singer.key == key }.map(\.request.id)
                let waiting = run.rotation.order.filter { $0.singer.key == key }.map(\.id)
                #expect(done + waiting == expected, "seed \(seed), singer \(key)")
            }
        }
    }

    @Test("a cancel keeps everyone else's relative order, and the singer's own", arguments: seeds)
    func cancelKeepsOrder(seed: UInt64) throws {
        var run = RotationRun(seed: seed)
        var checked = 0
        for _ in 0..<120 {
            let roll = Int.random(in: 0..<10, using: &run.generator)
            if roll < 6 {
                let name = run.names.randomElement(using: &run.generator)!
                _ = try? run.rotation.add(song: "s", by: singer(name))
            } else if roll < 8, let victim = run.rotation.requests.randomElement(using: &run.generator) {
                let before = run.rotation.order
                try run.rotation.cancel(victim.id, by: victim.singer)
                let after = run.rotation.order
                #expect(
                    after.filter { $0.singer != victim.singer }.map(\.id)
                        == before.filter { $0.singer != victim.singer }.map(\.id), "seed \(seed)")
                #expect(
                    after.filter { $0.singer == victim.singer }.map(\.id)
                        == before.filter { $0.singer == victim.singer && $0.id != victim.id }.map(\.id),
                    "seed \(seed)")
                checked += 1
            } else {
                _ = run.rotation.next()
            }
        }
        #expect(checked > 5)
    }

    @Test("moving up takes a request exactly one place up, or refuses and changes nothing", arguments: seeds)
    func moveUpOnePlace(seed: UInt64) throws {
        var run = RotationRun(seed: seed)
        var moved = 0
        for _ in 0..<120 {
            let roll = Int.random(in: 0..<10, using: &run.generator)
            if roll < 5 {
                _ = try? run.rotation.add(song: "s", by: singer(run.names.randomElement(using: &run.generator)!))
            } else if roll < 8, let chosen = run.rotation.requests.randomElement(using: &run.generator) {
                let before = run.rotation
                let place = try #require(before.position(of: chosen.id))
                do {
                    try run.rotation.moveUp(chosen.id)
                    moved += 1
                    #expect(run.rotation.position(of: chosen.id) == place - 1, "seed \(seed)")
                } catch {
                    #expect(run.rotation == before, "seed \(seed)")
                }
                // Whatever moved, each round still has each singer once, and each singer's songs keep their order.
                for round in Set(run.rotation.slots.map(\.round)) {
                    let singers = run.rotation.slots.filter { $0.round == round }.map(\.request.singer.key)
                    #expect(singers.count == Set(singers).count, "seed \(seed)")
                }
                for name in run.names {
                    let ids = run.rotation.order.filter { $0.singer == singer(name) }.map(\.id)
                    #expect(ids == ids.sorted(), "seed \(seed)")
                }
            } else {
                _ = run.rotation.next()
            }
        }
        #expect(moved > 5, "seed \(seed) moved too little to test anything")
    }
}
