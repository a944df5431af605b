import Testing

@testable import KaraokeCore

@Suite("The party's scoreboard and keys")
struct PartyScoreboardTests {
    @Test("each singer keeps their best score and a count of songs sung")
    func record() {
        var board = PartyScoreboard()
        board.record(songBy: singer("Ana"), score: 6200)
        board.record(songBy: singer("Ben"), score: nil)
        board.record(songBy: singer("ana"), score: 8100)
        board.record(songBy: singer("ANA"), score: 7000)
        board.record(songBy: singer("Ben"), score: 5000)
        #expect(
            board.entries == [
                PartyScoreboard.Entry(singer: singer("Ana"), best: 8100, songsSung: 3),
                PartyScoreboard.Entry(singer: singer("Ben"), best: 5000, songsSung: 2),
            ])
        #expect(board.entries[0].singer.shown == "Ana") // the spelling of the first song
    }

    @Test("the ranking puts the best score first, unscored singers last, ties in the order they first sang")
    func ranking() {
        var board = PartyScoreboard()
        board.record(songBy: singer("Cy"), score: nil)
        board.record(songBy: singer("Ana"), score: 5000)
        board.record(songBy: singer("Ben"), score: 9000)
        board.record(songBy: singer("Dee"), score: 5000)
        board.record(songBy: singer("Eli"), score: nil)
        board.record(songBy: singer("Eli"), score: nil)
        #expect(board.ranking.map(\.singer.shown) == ["Ben", "Ana", "Dee", "Eli", "Cy"])
    }

    @Test("a singer's key is remembered by name and forgotten at 0")
    func keys() {
        var keys = SingerKeys()
        #expect(keys[singer("Ana")] == 0)
        keys[singer("Ana")] = -2
        #expect(keys[singer(" ana ")] == -2)
        keys[singer("ANA")] = 0
        #expect(keys.semitones.isEmpty)
    }
}
