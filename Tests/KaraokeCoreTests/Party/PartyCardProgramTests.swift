import Testing

@testable import KaraokeCore

/// A view of `names` waiting, request ids 1, 2, 3….
private func view(_ names: [String], paused: Bool = false) -> PartyView {
    PartyView(
        upNext: names.map { PartyCard.Entry(singer: $0, song: "Song of \($0)") },
        requestIDs: names.indices.map { $0 + 1 },
        address: "http://192.168.1.20:8737/", code: "4711", qr: nil, paused: paused)
}

/// The status row of the frame `effects` paint.
private func status(_ effects: [PartyCardProgram.Effect]) -> String? {
    effects.compactMap(\.paintedFrame).last?.rows.last?.text.trimmingTrailingSpaces
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}

@Suite("The party's up-next card program")
struct PartyCardProgramTests {
    @Test("with nothing queued the card waits without a deadline, and Enter does not start a song")
    func waitsWhenEmpty() {
        var program = PartyCardProgram(view: view([]), columns: 80, rows: 24)
        let effects = program.start(at: 100)
        #expect(effects.last?.waitDeadline == .some(nil))
        let enter = program.handle(.key(.character("\n")), at: 101)
        #expect(!enter.contains(.sing))
        #expect(status(enter) == "nothing is queued yet")
    }

    @Test("a request arriving starts the countdown; the song starts when it runs out")
    func countdownStartsWithFirstRequest() {
        var program = PartyCardProgram(view: view([]), columns: 80, rows: 24)
        _ = program.start(at: 100)
        let changed = program.handle(.changed(view(["Ada"])), at: 110)
        #expect(status(changed)?.hasPrefix("Ada sings in 15 s") == true)
        #expect(changed.last?.waitDeadline == .some(111))
        #expect(program.handle(.tick, at: 124.5).contains(.sing) == false)
        #expect(program.handle(.tick, at: 125) == [.sing])
    }

    @Test("Enter sings the next request at once")
    func enterSingsNow() {
        var program = PartyCardProgram(view: view(["Ada", "Bo"]), columns: 80, rows: 24)
        _ = program.start(at: 0)
        #expect(program.handle(.key(.character("\n")), at: 1) == [.sing])
    }

    @Test("p holds the next song: no countdown, requests still shown, Enter still sings; p again counts down afresh")
    func hold() {
        var program = PartyCardProgram(view: view(["Ada"]), columns: 120, rows: 24)
        _ = program.start(at: 0)
        let held = program.handle(.key(.character("p")), at: 5)
        #expect(program.isHeld && program.countdown == nil)
        #expect(status(held)?.hasPrefix("held: Enter sings the next song") == true)
        #expect(held.last?.waitDeadline == .some(nil))
        #expect(!program.handle(.tick, at: 100).contains(.sing))
        _ = program.handle(.changed(view(["Ada", "Bo"])), at: 101)
        #expect(program.countdown == nil)
        _ = program.handle(.key(.character("p")), at: 200)
        #expect(program.countdown?.endsAt == 215)
        _ = program.handle(.key(.character("p")), at: 201)
        #expect(program.handle(.key(.character("\n")), at: 202) == [.sing])
    }

    @Test("x and u act on the chosen request, by its id, and only once one is chosen")
    func hostKeysActOnSelection() {
        var program = PartyCardProgram(view: view(["Ada", "Bo", "Cy"]), columns: 80, rows: 24)
        _ = program.start(at: 0)
        let unchosen = program.handle(.key(.character("x")), at: 1)
        #expect(!unchosen.contains { if case .host = $0 { true } else { false } })
        #expect(status(unchosen) == "choose a request with ↑ ↓ first")
        _ = program.handle(.key(.down), at: 2)
        _ = program.handle(.key(.down), at: 3)
        #expect(program.selected == 1)
        #expect(program.handle(.key(.character("u")), at: 4).first == .host(.moveUp(2)))
        #expect(program.handle(.key(.character("x")), at: 5).first == .host(.remove(2)))
        #expect(program.handle(.key(.character("o")), at: 6).first == .host(.toggleRequests))
    }

    @Test("the choice stays on its request when the queue changes around it")
    func selectionFollowsRequest() {
        var program = PartyCardProgram(view: view(["Ada", "Bo", "Cy"]), columns: 80, rows: 24)
        _ = program.start(at: 0)
        _ = program.handle(.key(.down), at: 1)
        _ = program.handle(.key(.down), at: 1)
        _ = program.handle(.key(.down), at: 1)
        #expect(program.selected == 2)
        // Request 1 was sung meanwhile: Cy's request 3 is now second.
        let shifted = PartyView(
            upNext: [.init(singer: "Bo", song: "b"), .init(singer: "Cy", song: "c")], requestIDs: [2, 3],
            address: "a", code: "1", qr: nil)
        _ = program.handle(.changed(shifted), at: 2)
        #expect(program.selected == 1)
        let emptied = PartyView(upNext: [], requestIDs: [], address: "a", code: "1", qr: nil)
        _ = program.handle(.changed(emptied), at: 3)
        #expect(program.selected == nil)
        #expect(program.countdown == nil)
    }

    @Test("a notice shows in the status row for its time, then the keys come back")
    func noticeExpires() {
        var program = PartyCardProgram(view: view([]), columns: 120, rows: 24)
        _ = program.start(at: 0)
        let shown = program.handle(.notice("Ada asked for Song"), at: 10)
        #expect(status(shown) == "Ada asked for Song")
        #expect(shown.last?.waitDeadline == .some(14))
        #expect(status(program.handle(.tick, at: 14)) == PartyHostKeys.cardHelp)
    }

    @Test("q ends the party, Ctrl-C ends it with 130, Ctrl-Z suspends")
    func ending() {
        var program = PartyCardProgram(view: view(["Ada"]), columns: 80, rows: 24)
        _ = program.start(at: 0)
        #expect(program.handle(.key(.character("q")), at: 1) == [.exit(0)])
        #expect(program.handle(.signal(.interrupt), at: 1) == [.exit(130)])
        #expect(program.handle(.signal(.suspend), at: 1) == [.suspend])
    }
}

@Suite("The up-next list over a song")
struct PartySongPanelTests {
    @Test("closed, the frame passes through; l opens the list over the rows above the status bar")
    func overlay() {
        let party = view(["Ada", "Bo <b>"])
        var rows = [FrameRow](repeating: FrameRow(kind: .lyric, cells: []), count: 12)
        rows[11] = FrameRow(kind: .status)
        let frame = Frame(time: 3, columns: 60, rows: rows)
        var panel = PartySongPanel()
        #expect(panel.overlay(on: frame, view: party) == frame)
        #expect(PartyHostKeys.inSong(.character("l"), listOpen: false) == .toggleList)
        _ = panel.handle(.toggleList, view: party)
        let shown = panel.overlay(on: frame, view: party)
        #expect(shown.rows[11] == frame.rows[11])
        #expect(shown.rows[0] == frame.rows[0])
        #expect(shown.rows[10].text.hasPrefix(" ") && shown.rows[10].text.contains("2. Bo <b> — Song of Bo <b>"))
        #expect(shown.rows[9].text.contains("▸ 1. Ada"))
        #expect(shown.rows[8].text.contains("Up next"))
    }

    @Test("while the list is open ↑↓ choose in it; closed, they are the player's")
    func keysDependOnList() {
        #expect(PartyHostKeys.inSong(.down, listOpen: false) == nil)
        #expect(PartyHostKeys.inSong(.down, listOpen: true) == .select(1))
        #expect(PartyHostKeys.inSong(.character("x"), listOpen: false) == nil)
        #expect(PartyHostKeys.inSong(.escape, listOpen: true) == .toggleList)
        #expect(PartyHostKeys.inSong(.escape, listOpen: false) == nil)
        #expect(PartyHostKeys.inSong(.character("o"), listOpen: false) == .toggleRequests)
    }

    @Test("x and u in the list name the chosen request's id")
    func actions() {
        let party = view(["Ada", "Bo", "Cy"])
        var panel = PartySongPanel()
        _ = panel.handle(.toggleList, view: party)
        _ = panel.handle(.select(1), view: party)
        _ = panel.handle(.select(5), view: party)
        #expect(panel.selected == 2)
        #expect(panel.handle(.remove, view: party) == .remove(3))
        #expect(panel.handle(.moveUp, view: party) == .moveUp(3))
        panel.follow(view(["Ada"]))
        #expect(panel.selected == 0)
    }
}

@Suite("The party's songs from their files")
struct PartySongFileTests {
    @Test(
        "a song is named by its lyric file's tags, else an Artist - Title name, else its name",
        arguments: [
            (
                "a/Song.lrc", "[ar:The Band]\n[ti:Our Tune]\n[length:03:05]\n[00:01.00]la\n", "Our Tune", "The Band",
                185.0
            ),
            ("Some One - Other Tune.zip", nil, "Other Tune", "Some One", nil),
            ("plain.kar", nil, "plain", "", nil),
        ] as [(String, String?, String, String, Double?)])
    func named(path: String, head: String?, title: String, artist: String, duration: Double?) {
        let song = PartySongs.Song(folder: "/songs", path: path, head: head.map { Array($0.utf8) })
        #expect(song.title == title)
        #expect(song.artist == artist)
        #expect(song.duration == duration)
    }
}
