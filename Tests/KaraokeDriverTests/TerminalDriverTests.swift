import KaraokeCore
import KaraokeDriver
import Testing

/// The monotonic time the fake clock starts at.
private let t0 = 500.0

/// The bundled-style song the tests play: a count-in, four lines, 30 s.
private let clockwork = """
    [ti:Clockwork]
    [length:00:30]
    [00:02.00]one
    [00:05.00]two
    [00:09.00]three
    [00:14.00]four
    """

private func song() throws -> Song {
    try #require(LRCParser.parse(Array(clockwork.utf8), file: "clockwork.lrc").song)
}

private func playLoop(reduceMotion: Bool = false, fps: Int = 30) throws -> PlayLoop {
    var options = FrameOptions()
    options.reduceMotion = reduceMotion
    return PlayLoop(
        song: try song(), fallbackTitle: "clockwork.lrc", options: options, columns: 60, rows: 16, start: 0,
        framesPerSecond: fps, now: t0)
}

/// Runs `loop` through the driver on a recording screen with `script`; returns the screen, the waiter,
/// the ending, the loop's own effects carried out and the driver's wake-ups.
private func drive(
    _ loop: inout PlayLoop, until end: Double, script: [(at: Double, happening: ScriptedWaiter.Happening)],
    sources: [() -> [PlayLoop.Event]] = []
) -> (RecordingScreen, ScriptedWaiter, TerminalDriver<PlayLoop>.Ending, [PlayLoop.Effect], Int) {
    let screen = RecordingScreen(columns: 60, rows: 16)
    let waiter = ScriptedWaiter(start: t0, end: end, screen: screen, script: script)
    var driver = TerminalDriver<PlayLoop>(screen: screen, waiter: waiter)
    driver.sources = sources
    var own: [PlayLoop.Effect] = []
    let ending = driver.run(&loop) { effect, _ in
        own.append(effect)
        return .done
    }
    return (screen, waiter, ending, own, driver.wakeUps)
}

@Suite("The driver runs a program in-process: recording screen, scripted clock, fake sources")
struct TerminalDriverTests {
    @Test("play without audio runs to the song's end and exits 0, painting at the frame rate while it sweeps")
    func playRunsToTheEnd() throws {
        var loop = try playLoop()
        let (screen, waiter, ending, _, _) = drive(&loop, until: t0 + 40, script: [])
        guard case .exit(0) = ending else {
            Issue.record("expected exit 0, got \(ending)")
            return
        }
        #expect(abs(waiter.now() - (t0 + 30)) < 0.01)
        // The first line sweeps from 2 s to 5 s at 30 frames a second.
        let sweeping = screen.frames.filter { $0.time >= 2.1 && $0.time < 4.9 }
        #expect(sweeping.count >= 80 && sweeping.count <= 86)
    }

    @Test("q read from the terminal exits 0 at once")
    func quitKey() throws {
        var loop = try playLoop()
        let (_, waiter, ending, _, _) = drive(
            &loop, until: t0 + 40, script: [(t0 + 3, .input(.key(.character("q"))))])
        guard case .exit(0) = ending else {
            Issue.record("expected exit 0, got \(ending)")
            return
        }
        #expect(waiter.now() == t0 + 3)
    }

    @Test("paused under reduce motion, the driver sleeps with no deadline until a key comes")
    func pausedUnderReduceMotionSleeps() throws {
        var loop = try playLoop(reduceMotion: true)
        let (screen, waiter, ending, _, _) = drive(
            &loop, until: t0 + 100,
            script: [(t0 + 1, .input(.key(.character(" ")))), (t0 + 60, .input(.key(.character("q"))))])
        guard case .exit(0) = ending else {
            Issue.record("expected exit 0, got \(ending)")
            return
        }
        let paused = waiter.waits.filter { $0.at > t0 + 1 && $0.at < t0 + 60 }
        // The pause's notice may end once; then one wait with no deadline lasts until the key.
        #expect(paused.count <= 2)
        #expect(paused.last?.until == nil)
        #expect(screen.frames.filter { $0.time > 1.5 }.allSatisfy { $0.rows.last?.text.hasPrefix("⏸") == true })
    }

    @Test("under reduce motion the driver wakes a few times a second, not at the frame rate")
    func reduceMotionWakesRarely() throws {
        var loop = try playLoop(reduceMotion: true, fps: 120)
        let (screen, _, _, _, wakeUps) = drive(&loop, until: t0 + 40, script: [])
        #expect(wakeUps <= 4 * 30)
        #expect(screen.frames.count <= 4 * 30 + 2)
    }

    @Test("Ctrl-Z gives the terminal back, stops, takes it back and repaints; the song waited meanwhile")
    func suspendAndResume() throws {
        var loop = try playLoop()
        let (screen, waiter, _, _, _) = drive(
            &loop, until: t0 + 60,
            script: [(t0 + 3, .signal(.suspend)), (t0 + 4, .input(.key(.character("q"))))])
        #expect(waiter.suspensions == 1)
        #expect(screen.calls == ["suspend", "resume"])
        // The frame painted on resuming is where the song was when it stopped.
        #expect(screen.frames.contains { abs($0.time - 3) < 0.05 })
    }

    @Test("a resize repaints at the new size at once", arguments: [(80, 24), (20, 6)])
    func resize(columns: Int, rows: Int) throws {
        var loop = try playLoop()
        let screen = RecordingScreen(columns: 60, rows: 16)
        let waiter = ScriptedWaiter(
            start: t0, end: t0 + 60, screen: screen,
            script: [(t0 + 2, .input(.resize)), (t0 + 2.5, .input(.key(.character("q"))))])
        var driver = TerminalDriver<PlayLoop>(screen: screen, waiter: waiter)
        // The terminal has its new size by the time the resize is read.
        screen.size = (columns, rows)
        _ = driver.run(&loop) { _, _ in .done }
        #expect(screen.calls.contains("invalidate"))
        #expect(screen.frames.last?.columns == columns)
        #expect(screen.frames.last?.rows.count == rows)
    }

    @Test(
        "SIGTERM, SIGINT and SIGHUP end the run with 128 + N",
        arguments: [
            (TerminalSignal.terminate, 143 as Int32), (.interrupt, 130), (.hangup, 129),
        ])
    func signalsEnd(signal: TerminalSignal, status: Int32) throws {
        var loop = try playLoop()
        let (_, _, ending, _, _) = drive(&loop, until: t0 + 60, script: [(t0 + 1, .signal(signal))])
        guard case .exit(let code) = ending else {
            Issue.record("expected an exit, got \(ending)")
            return
        }
        #expect(code == status)
    }

    @Test("a source's events reach the program as soon as it posts: mpv gone shows its notice at once")
    func sourceEventsArriveAtOnce() throws {
        var loop = try playLoop()
        let screen = RecordingScreen(columns: 60, rows: 16)
        let waiter = ScriptedWaiter(
            start: t0, end: t0 + 60, screen: screen,
            script: [(t0 + 7.25, .post), (t0 + 8, .input(.key(.character("q"))))])
        var driver = TerminalDriver<PlayLoop>(screen: screen, waiter: waiter)
        var posted = false
        driver.sources = [
            {
                // The thread posts at 7.25 s; before that the mailbox is empty.
                guard !posted, waiter.now() >= t0 + 7.25 else { return [] }
                posted = true
                return [.audioGone("mpv died; playing without sound")]
            }
        ]
        _ = driver.run(&loop) { _, _ in .done }
        let atPost = try #require(screen.frames.first { $0.rows.last?.text.contains("mpv died") == true })
        #expect(abs(atPost.time - 7.25) < 1e-6)
    }
}
