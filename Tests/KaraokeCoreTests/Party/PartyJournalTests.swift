import Testing

@testable import KaraokeCore

/// A journal of an evening under way: a song being sung, a round half done, scores and keys.
private func evening() throws -> PartyJournal {
    var rotation = PartyRotation(maximumPerSinger: 3)
    for (name, song) in [("Ana", "a1"), ("Ben", "b1"), ("Ana", "a2"), ("Cy \"the voice\"", "c1"), ("Dee", "d1")] {
        _ = try rotation.add(song: song, by: singer(name))
    }
    _ = rotation.next()
    _ = rotation.next()
    try rotation.remove(5)
    rotation.isPaused = true
    var scoreboard = PartyScoreboard()
    scoreboard.record(songBy: singer("Ana"), score: 7300)
    scoreboard.record(songBy: singer("Ben"), score: nil)
    var keys = SingerKeys()
    keys[singer("Ana")] = -2
    keys[singer("Ben")] = 3
    return PartyJournal(day: "2026-12-02", code: "4711", rotation: rotation, scoreboard: scoreboard, keys: keys)
}

@Suite("The party's journal")
struct PartyJournalTests {
    @Test("a journal reads back as it was written")
    func roundTrip() throws {
        let journal = try evening()
        let decoded = try PartyJournal(decoding: Array(journal.encoded().utf8))
        #expect(decoded == journal)
        #expect(decoded.rotation.order.map(\.song) == ["c1", "a2"])
        #expect(decoded.rotation.now?.song == "b1")
        #expect(decoded.rotation.sungThisRound == ["ana", "ben"])
        #expect(decoded.rotation.turns.map(\.shown) == ["Ana", "Cy \"the voice\""])
        #expect(decoded.rotation.isPaused)
        #expect(decoded.keys[singer("ana")] == -2)
        #expect(decoded.encoded() == journal.encoded())
        #expect(decoded.code == "4711")
    }

    @Test("a song cut short by a stop is sung again first, its singer's turn not spent")
    func putBackCurrent() throws {
        var rotation = PartyRotation(maximumPerSinger: 3)
        for (name, song) in [("Ana", "a1"), ("Ben", "b1"), ("Ana", "a2"), ("Cy", "c1")] {
            _ = try rotation.add(song: song, by: singer(name))
        }
        _ = rotation.next()
        _ = rotation.next()
        #expect(rotation.now?.song == "b1")
        rotation.putBackCurrent()
        #expect(rotation.now == nil)
        #expect(rotation.order.map(\.song) == ["b1", "c1", "a2"])
        try PartyJournal.check(rotation)
        #expect(rotation.next()?.song == "b1")
        #expect(rotation.next()?.song == "c1")
    }

    @Test("a resumed rotation goes on as the first would have")
    func resumedRotationContinues() throws {
        let journal = try evening()
        var original = journal.rotation
        var resumed = try PartyJournal(decoding: Array(journal.encoded().utf8)).rotation
        original.isPaused = false
        resumed.isPaused = false
        #expect(try resumed.add(song: "e1", by: singer("Eli")) == original.add(song: "e1", by: singer("Eli")))
        while let next = original.next() {
            #expect(resumed.next() == next)
        }
        #expect(resumed.next() == nil)
    }

    @Test("the journal's text names its parts")
    func text() throws {
        var rotation = PartyRotation()
        _ = try rotation.add(song: "s1", by: singer("Ana"))
        let text = PartyJournal(day: "2026-12-02", code: "4711", rotation: rotation, scoreboard: .init(), keys: .init())
            .encoded()
        #expect(
            text == """
                {
                  "code": "4711",
                  "day": "2026-12-02",
                  "keys": [],
                  "rotation": {
                    "maximumPerSinger": 2,
                    "nextID": 2,
                    "now": null,
                    "paused": false,
                    "requests": [
                      {
                        "id": 1,
                        "singer": "Ana",
                        "song": "s1"
                      }
                    ],
                    "round": 0,
                    "sungThisRound": [],
                    "turns": [
                      "Ana"
                    ]
                  },
                  "scoreboard": [],
                  "version": 1
                }

                """)
    }

    @Test("every cut of a journal is refused with a reason, never a crash")
    func truncated() throws {
        let bytes = Array(try evening().encoded().utf8)
        // The last byte is the newline after the value; without it the journal is still whole.
        for length in 0..<(bytes.count - 1) {
            #expect(throws: PartyJournal.Damage.self) { try PartyJournal(decoding: Array(bytes[..<length])) }
        }
    }

    @Test(
        "a damaged journal says what is wrong",
        arguments: [
            ("", "not JSON: expected a value, found the end at byte 0"),
            ("[]", "expected an object holding 'version'"),
            (#"{"version":2}"#, "version is not 1"),
            (#"{"version":1,"day":3}"#, "'day' is not a string"),
            (#"{"version":1,"day":"d"}"#, "missing 'code'"),
            (#"{"version":1,"day":"d","code":"1"}"#, "missing 'rotation'"),
        ])
    func damaged(text: String, reason: String) {
        #expect(throws: PartyJournal.Damage(reason: reason)) { try PartyJournal(decoding: Array(text.utf8)) }
    }

    @Test(
        "a journal whose rotation breaks the rules is refused",
        arguments: [
            // A request id repeated.
            (
                #""requests":[{"id":1,"singer":"A","song":"s"},{"id":1,"singer":"A","song":"t"}],"turns":["A"]"#,
                "request 1 is repeated or beyond nextID"
            ),
            // An id the rotation has not handed out yet.
            (#""requests":[{"id":9,"singer":"A","song":"s"}],"turns":["A"]"#, "request 9 is repeated or beyond nextID"),
            // A singer waiting but not in the turns.
            (
                #""requests":[{"id":1,"singer":"A","song":"s"}],"turns":[]"#,
                "the turns do not match the singers waiting"
            ),
            // A singer in the turns twice.
            (
                #""requests":[{"id":1,"singer":"A","song":"s"}],"turns":["A","a"]"#,
                "the turns do not match the singers waiting"
            ),
            // A name no guest could have given.
            (#""requests":[{"id":1,"singer":"\u0007","song":"s"}],"turns":[]"#, "'singer' is not a singer's name"),
        ])
    func brokenRotation(fields: String, reason: String) {
        let text =
            #"{"version":1,"day":"d","code":"1","scoreboard":[],"keys":[],"rotation":{"maximumPerSinger":2,"paused":false,"#
            + #""round":1,"nextID":3,"now":null,"sungThisRound":[],"# + fields + "}}"
        #expect(throws: PartyJournal.Damage(reason: reason)) { try PartyJournal(decoding: Array(text.utf8)) }
    }

    @Test("a journal with bytes flipped is read or refused, never a crash")
    func flipped() throws {
        let bytes = Array(try evening().encoded().utf8)
        var generator = SeededGenerator(state: 22)
        var refused = 0
        for _ in 0..<500 {
            var damaged = bytes
            for _ in 0..<3 {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            do {
                _ = try PartyJournal(decoding: damaged)
            } catch {
                refused += 1
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(refused > 250)
    }
}
