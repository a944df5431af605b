import KaraokeCore
import KaraokeDriver
import Testing

/// The monotonic time the fake clock starts at.
private let t0 = 800.0

@Suite("The other screens through the driver: the cards and follow")
struct ProgramsThroughTheDriverTests {
    @Test("the queue's card counts down once a second, repaints only then, and starts the song by itself")
    func queueCardCountsDown() {
        let card = QueueCard(title: "Clockwork — The Gears", number: 2, count: 5, now: t0)
        var program = CardProgram(card: card, options: FrameOptions(), columns: 60, rows: 12)
        let screen = RecordingScreen(columns: 60, rows: 12)
        let waiter = ScriptedWaiter(start: t0, end: t0 + 30, screen: screen, script: [])
        var driver = TerminalDriver<CardProgram<QueueCard>>(screen: screen, waiter: waiter)
        let ending = driver.run(&program) { _, _ in .stop }
        guard case .stopped(.answer(.start)) = ending else {
            Issue.record("expected the card to start the song, got \(ending)")
            return
        }
        #expect(waiter.now() == t0 + QueueCard.duration)
        // One frame at the start and one for each second left: 5, 4, 3, 2, 1.
        #expect(screen.frames.count == Int(QueueCard.duration))
        #expect(driver.wakeUps == Int(QueueCard.duration))
    }

    @Test(
        "a key answers the queue's card at once",
        arguments: [("n" as Character, QueueCard.Answer.next), ("N", .previous), ("q", .quit), (" ", .start)])
    func queueCardKeys(key: Character, answer: QueueCard.Answer) {
        let card = QueueCard(title: "Clockwork", number: 1, count: 2, now: t0)
        var program = CardProgram(card: card, options: FrameOptions(), columns: 60, rows: 12)
        let screen = RecordingScreen(columns: 60, rows: 12)
        let waiter = ScriptedWaiter(
            start: t0, end: t0 + 30, screen: screen, script: [(t0 + 1.5, .input(.key(.character(key))))])
        var driver = TerminalDriver<CardProgram<QueueCard>>(screen: screen, waiter: waiter)
        let ending = driver.run(&program) { _, _ in .stop }
        guard case .stopped(.answer(let given)) = ending else {
            Issue.record("expected an answer, got \(ending)")
            return
        }
        #expect(given == answer)
        #expect(waiter.now() == t0 + 1.5)
    }

    @Test("a skipped entry's card counts down three seconds, repaints only then, and the queue goes on by itself")
    func skippedCardGoesOn() {
        let card = SkippedCard(
            skipped: SkippedEntry(file: "lists/../missing.lrc", reason: "no such file"), number: 2, count: 5, now: t0)
        var program = CardProgram(card: card, options: FrameOptions(), columns: 60, rows: 12)
        let screen = RecordingScreen(columns: 60, rows: 12)
        let waiter = ScriptedWaiter(start: t0, end: t0 + 30, screen: screen, script: [])
        var driver = TerminalDriver<CardProgram<SkippedCard>>(screen: screen, waiter: waiter)
        let ending = driver.run(&program) { _, _ in .stop }
        guard case .stopped(.answer(.goOn)) = ending else {
            Issue.record("expected the queue to go on, got \(ending)")
            return
        }
        #expect(waiter.now() == t0 + SkippedCard.duration)
        // One frame for each second left: 3, 2, 1.
        #expect(
            screen.frames.map { $0.rows.last?.text.prefix(17) } == [
                "2/5  goes on in 3", "2/5  goes on in 2", "2/5  goes on in 1",
            ])
        #expect(screen.frames.first?.rows.contains { $0.text.contains("skipped missing.lrc: no such file") } == true)
    }

    @Test(
        "a key answers a skipped entry's card at once",
        arguments: [("n" as Character, SkippedCard.Answer.goOn), (" ", .goOn), ("N", .back), ("q", .quit)])
    func skippedCardKeys(key: Character, answer: SkippedCard.Answer) {
        let card = SkippedCard(
            skipped: SkippedEntry(file: "x.lrc", reason: "no such file"), number: 1, count: 2, now: t0)
        var program = CardProgram(card: card, options: FrameOptions(), columns: 60, rows: 12)
        let screen = RecordingScreen(columns: 60, rows: 12)
        let waiter = ScriptedWaiter(
            start: t0, end: t0 + 30, screen: screen, script: [(t0 + 0.5, .input(.key(.character(key))))])
        var driver = TerminalDriver<CardProgram<SkippedCard>>(screen: screen, waiter: waiter)
        let ending = driver.run(&program) { _, _ in .stop }
        guard case .stopped(.answer(let given)) = ending else {
            Issue.record("expected an answer, got \(ending)")
            return
        }
        #expect(given == answer)
        #expect(waiter.now() == t0 + 0.5)
    }

    @Test("the end card sleeps with no deadline, space and n do nothing on it, and q ends it; N goes back")
    func endCardWaitsForQ() {
        for (key, answer) in [("q" as Character, EndCard.Answer.quit), ("N", .back)] {
            let card = EndCard(
                sung: ["Clockwork — The Gears"],
                skipped: [SkippedEntry(file: "pl/../tone.wav", reason: "no such file")],
                canGoBack: true)
            var program = CardProgram(card: card, options: FrameOptions(), columns: 60, rows: 12)
            let screen = RecordingScreen(columns: 60, rows: 12)
            let waiter = ScriptedWaiter(
                start: t0, end: t0 + 600, screen: screen,
                script: [
                    (t0 + 10, .input(.key(.character(" ")))), (t0 + 20, .input(.key(.character("n")))),
                    (t0 + 300, .input(.key(.character(key)))),
                ])
            var driver = TerminalDriver<CardProgram<EndCard>>(screen: screen, waiter: waiter)
            let ending = driver.run(&program) { _, _ in .stop }
            guard case .stopped(.answer(let given)) = ending else {
                Issue.record("expected an answer, got \(ending)")
                return
            }
            #expect(given == answer)
            #expect(waiter.now() == t0 + 300)
            #expect(waiter.waits.allSatisfy { $0.until == nil })
            // Painted once: the keys that do nothing do not repaint it.
            #expect(screen.frames.count == 1)
            #expect(screen.frames.first?.rows.contains { $0.text.contains("skipped tone.wav: no such file") } == true)
        }
    }

    @Test("the score card sleeps with no deadline until a key, and Ctrl-Z on it gives the terminal back")
    func scoreCardWaits() {
        let card = ScoreCard(title: "Harbour Bells", entries: [])
        var program = CardProgram(card: card, options: FrameOptions(), columns: 80, rows: 24)
        let screen = RecordingScreen(columns: 80, rows: 24)
        let waiter = ScriptedWaiter(
            start: t0, end: t0 + 600, screen: screen,
            script: [(t0 + 100, .signal(.suspend)), (t0 + 300, .input(.key(.character(" "))))])
        var driver = TerminalDriver<CardProgram<ScoreCard>>(screen: screen, waiter: waiter)
        let ending = driver.run(&program) { _, _ in .stop }
        guard case .stopped(.answer(.close)) = ending else {
            Issue.record("expected the card to be closed, got \(ending)")
            return
        }
        #expect(waiter.waits.allSatisfy { $0.until == nil })
        #expect(waiter.suspensions == 1)
        #expect(screen.calls == ["suspend", "resume"])
        // Painted at the start and once more after the suspension.
        #expect(screen.frames.count == 2)
    }

    @Test("follow: a player's report starts a lookup, and a player that vanishes shows why, at once")
    func followPlayerVanishes() {
        var loop = FollowLoop(options: FrameOptions(), columns: 60, rows: 16, framesPerSecond: 30, now: t0)
        let screen = RecordingScreen(columns: 60, rows: 16)
        let waiter = ScriptedWaiter(
            start: t0, end: t0 + 60, screen: screen,
            script: [(t0 + 1, .post), (t0 + 4, .post), (t0 + 6, .input(.key(.character("q"))))])
        var driver = TerminalDriver<FollowLoop>(screen: screen, waiter: waiter)
        var delivered = 0
        let track = FollowedTrack(id: "1", title: "Clockwork", artist: "The Gears", length: 30)
        driver.sources = [
            {
                // The connection's thread posts a report at 1 s and loses the player at 4 s.
                let due = [t0 + 1, t0 + 4].filter { $0 <= waiter.now() }.count
                guard due > delivered else { return [] }
                delivered += 1
                if delivered == 1 {
                    let report = PlayerReport(player: "mpv", track: track, playback: .playing, position: 3)
                    return [.player(.report(report, at: waiter.now()))]
                }
                return [.player(.gone("mpv went away"))]
            }
        ]
        var lookedUp: [FollowedTrack] = []
        let ending = driver.run(&loop) { effect, _ in
            if case .lookUp(let wanted) = effect { lookedUp.append(wanted) }
            return .done
        }
        guard case .exit(0) = ending else {
            Issue.record("expected exit 0, got \(ending)")
            return
        }
        #expect(lookedUp == [track])
        let gone = screen.frames.first { frame in frame.rows.contains { $0.text.contains("mpv went away") } }
        #expect(gone.map { _ in true } == true)
        #expect(waiter.waits.contains { abs($0.at - (t0 + 4)) < 1e-9 })
    }
}
