import Testing
@testable import KaraokeCore

/// A two-line song of whole-second notes: beat = 250 ms (BPM 60), GAP 1 s; C4 E4 | G4 and, in the duet, P2 an
/// octave-free third above.
private let solo = "#TITLE:Clock\n#ARTIST:Me\n#BPM:60\n#GAP:1000\n: 0 4 0 one \n: 4 4 4 two \n- 8\n: 8 4 7 three \nE\n"
private let duet =
    "#TITLE:Two\n#ARTIST:Us\n#BPM:60\n#GAP:1000\nP1\n: 0 4 0 low \n: 4 4 4 low \nP2\n: 0 4 9 high \n: 4 4 11 high \nE\n"

private func song(_ text: String) throws -> Song {
    try #require(UltraStarParser.parse(Array(text.utf8), file: "s.txt").song)
}

/// Readings every 16 ms from monotonic `from` for `seconds`, at `midi`.
private func readings(from: Double, seconds: Double, midi: Double?) -> [MicReading] {
    stride(from: from, to: from + seconds, by: 0.016).map { MicReading(monotonic: $0, midi: midi, level: -20) }
}

@Suite struct ScoringOptionsTests {
    @Test(
        arguments: [
            ("mic.monitor", nil, "mic.monitor"), ("P1=left", Voice.part(0), "left"), ("p2=right", .part(1), "right"),
            ("P2=", .part(1), nil), ("alsa_input.usb-P1=x", nil, "alsa_input.usb-P1=x"),
        ] as [(String, Voice?, String?)])
    func aMicArgumentNamesItsPartAndSource(argument: String, part: Voice?, source: String?) throws {
        let microphone = try #require(ScoringOptions.Microphone(argument: argument))
        #expect(microphone.part == part)
        #expect(microphone.source == source)
    }

    @Test func aPartBeyondNineIsRefused() {
        #expect(ScoringOptions.Microphone(argument: "P10=x") == nil)
        #expect(ScoringOptions.Microphone(argument: "P0=x") == nil)
    }

    @Test func withoutMicrophonesOneSingerSingsEveryLineOnTheDefaultSource() {
        let singers = ScoringOptions().singers(parts: [])
        #expect(singers == [ScoringOptions.Microphone(part: nil, source: nil)])
    }

    @Test func inADuetMicrophonesWithoutPartsTakeThePartsInOrder() {
        var options = ScoringOptions()
        options.microphones = [
            .init(part: nil, source: "a"), .init(part: nil, source: "b"), .init(part: nil, source: "c"),
        ]
        #expect(
            options.singers(parts: [.part(0), .part(1)]) == [
                .init(part: .part(0), source: "a"), .init(part: .part(1), source: "b"),
            ])
    }

    @Test func aNamedPartTheSongDoesNotHaveIsLeftOut() {
        var options = ScoringOptions()
        options.microphones = [.init(part: .part(1), source: "b"), .init(part: .part(2), source: "c")]
        #expect(options.singers(parts: [.part(0), .part(1)]) == [.init(part: .part(1), source: "b")])
    }

    @Test func aSongWithoutPartsHasOneSingerOnTheFirstMicrophone() {
        var options = ScoringOptions()
        options.microphones = [.init(part: .part(1), source: "b"), .init(part: nil, source: "c")]
        #expect(options.singers(parts: []) == [.init(part: nil, source: "b")])
    }
}

@Suite struct ScoringSessionTests {
    @Test(arguments: [0, 150, 400])
    func aReadingIsPutOnTheSongAtItsTimeLessTheMicrophoneDelay(delay: Int) throws {
        let song = try song(solo)
        let state = PlayerState(song: song, start: 0, now: 100)
        let session = ScoringSession(
            track: try #require(song.notes), parts: [nil], difficulty: .medium, micDelayMilliseconds: delay)
        // At monotonic 103 the song has played 3 s; the singer was heard `delay` later than they sang.
        #expect(abs(session.fileTime(heardAt: 103, state: state) - (3000 - Double(delay))) < 0.001)
    }

    @Test func theUserOffsetMovesTheNotesAsItMovesTheLyrics() throws {
        let song = try song(solo)
        let state = PlayerState(song: song, start: 0, now: 100, userOffset: 250)
        let session = ScoringSession(
            track: try #require(song.notes), parts: [nil], difficulty: .medium, micDelayMilliseconds: 0)
        #expect(abs(session.fileTime(heardAt: 102, state: state) - 2250) < 0.001)
    }

    @Test func singingTheNotesOnTimeScoresTheWholeSong() throws {
        let song = try song(solo)
        let state = PlayerState(song: song, start: 0, now: 100)
        var session = ScoringSession(
            track: try #require(song.notes), parts: [nil], difficulty: .medium, micDelayMilliseconds: 150)
        // Heard 150 ms after each note's time: exactly what the delay takes back.
        session.hear(readings(from: 101.15, seconds: 1, midi: 60), singer: 0, state: state)
        session.hear(readings(from: 102.15, seconds: 1, midi: 64), singer: 0, state: state)
        session.hear(readings(from: 103.15, seconds: 1, midi: 67), singer: 0, state: state)
        session.judge(at: 104.5, state: state)
        // The clock stops at the song's end, so the last beat waits for `finish`.
        #expect(!session.isFinished)
        session.finish()
        #expect(session.isFinished)
        #expect(session.singers[0].points.total == 10_000)
        let perSecond = try #require(session.readingsPerSecond)
        #expect(abs(perSecond - 62.5) < 1)
    }

    @Test func nothingIsHeardWhileTheSongIsPaused() throws {
        let song = try song(solo)
        var state = PlayerState(song: song, start: 0, now: 100)
        state.apply(.togglePause, at: 101)
        var session = ScoringSession(
            track: try #require(song.notes), parts: [nil], difficulty: .medium, micDelayMilliseconds: 0)
        session.hear(readings(from: 101, seconds: 3, midi: 60), singer: 0, state: state)
        #expect(session.singers[0].trail.isEmpty)
    }

    @Test func eachSingerOfADuetIsScoredOnTheirOwnPart() throws {
        let song = try song(duet)
        let state = PlayerState(song: song, start: 0, now: 100)
        var session = ScoringSession(
            track: try #require(song.notes), parts: [.part(0), .part(1)], difficulty: .hard, micDelayMilliseconds: 0)
        session.hear(
            readings(from: 101, seconds: 1, midi: 60) + readings(from: 102, seconds: 1, midi: 64), singer: 0,
            state: state)
        // The second singer sings the first one's notes: none of them is theirs.
        session.hear(
            readings(from: 101, seconds: 1, midi: 60) + readings(from: 102, seconds: 1, midi: 64), singer: 1,
            state: state)
        session.finish()
        #expect(session.singers.map(\.points.total) == [10_000, 0])
        #expect(session.singers.map(\.part) == [.part(0), .part(1)])
    }
}

@Suite struct PlayLoopScoringTests {
    private func loop(_ text: String = solo) throws -> PlayLoop {
        let song = try song(text)
        var loop = PlayLoop(
            song: song, fallbackTitle: "s.txt", options: FrameOptions(), columns: 80, rows: 24, start: 0,
            framesPerSecond: 30, now: 100)
        loop.startScoring(
            ScoringSession(track: try #require(song.notes), parts: [nil], difficulty: .medium, micDelayMilliseconds: 0))
        return loop
    }

    @Test func theNoteLanesSitAboveTheLyricsWhileScoring() throws {
        var loop = try loop()
        let effects = loop.start(at: 100)
        guard
            case .screen(.paint(let frame))? = effects.first(where: {
                if case .screen(.paint) = $0 { true } else { false }
            })
        else {
            Issue.record("no frame")
            return
        }
        // The lyrics move down under a strip of 4 to 8 rows.
        let lyricRow = try #require(frame.rows.firstIndex { $0.text.contains("one") })
        #expect(lyricRow >= 5)
        #expect(frame.rows.last?.text.contains("♪ 0") == true)
    }

    @Test func heardReadingsScoreAndTheEndIsReachedByItself() throws {
        var loop = try loop()
        _ = loop.start(at: 100)
        _ = loop.handle(.heard(readings(from: 101, seconds: 1, midi: 60), singer: 0), at: 102)
        _ = loop.handle(.heard(readings(from: 102, seconds: 1, midi: 64), singer: 0), at: 103)
        _ = loop.handle(.heard(readings(from: 103, seconds: 1, midi: 67), singer: 0), at: 104)
        // The end waits the scorer's lateness for the last readings, then ends the song.
        #expect(!loop.handle(.tick, at: 104.05).contains(.exit(0)))
        let effects = loop.handle(.tick, at: 104.2)
        #expect(effects.contains(.exit(0)))
        #expect(loop.reachedEnd)
        #expect(loop.scoring?.singers[0].points.total == 10_000)
    }

    @Test func quittingIsNotReachingTheEnd() throws {
        var loop = try loop()
        _ = loop.start(at: 100)
        let effects = loop.handle(.key(.character("q")), at: 101)
        #expect(effects.contains(.exit(0)))
        #expect(!loop.reachedEnd)
        #expect(loop.scoring?.isFinished == false)
    }

    @Test func aLostMicrophoneIsANotice() throws {
        var loop = try loop()
        _ = loop.start(at: 100)
        let effects = loop.handle(.microphoneLost(singer: 0, reason: "the server went away"), at: 101)
        guard
            case .screen(.paint(let frame))? = effects.first(where: {
                if case .screen(.paint) = $0 { true } else { false }
            })
        else {
            Issue.record("no frame")
            return
        }
        #expect(frame.rows.last?.text.contains("the microphone stopped: the server went away") == true)
    }
}
