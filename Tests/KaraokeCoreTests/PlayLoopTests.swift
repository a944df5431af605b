import Testing
@testable import KaraokeCore

/// The monotonic time the fake clock starts at: not 0, so anchoring mistakes show.
private let t0 = 1_000.0

/// A loop playing `content` (else `Fixtures.clockwork`) on a 60 × 16 screen, started at `t0`.
private func playLoop(
    content: LyricsContent? = nil, start: Double = 0, fps: Int = 30, audio: AudioStatus = .none,
    audioProblem: String? = nil, reduceMotion: Bool = false, logsClock: Bool = false
) throws -> FakeEdge {
    var options = FrameOptions()
    options.reduceMotion = reduceMotion
    let loop = PlayLoop(
        content: try content ?? .timed(Fixtures.song(text: Fixtures.clockwork)), fallbackTitle: "inline.lrc",
        options: options,
        columns: 60, rows: 16, start: start, framesPerSecond: fps, audio: audio, volume: 80,
        audioProblem: audioProblem, logsClock: logsClock, now: t0)
    return FakeEdge(loop: loop)
}

/// The edge on a fake clock: carries out what the loop asks, each wait ending at its deadline.
private struct FakeEdge {
    var loop: PlayLoop
    /// The fake monotonic time.
    private(set) var now = t0
    /// Every effect so far, with the time the loop gave it.
    private(set) var effects: [(at: Double, effect: PlayLoop.Effect)] = []
    /// The deadline of the last wait, until a tick ends it.
    private(set) var deadline: Double?
    /// The status the loop exited with, if it has.
    private(set) var exitStatus: Int32?

    init(loop: PlayLoop) {
        self.loop = loop
        record(self.loop.start(at: t0))
    }

    /// Tells the loop that `event` happened at `time`; returns the effects it answered with.
    @discardableResult
    mutating func send(_ event: PlayLoop.Event, at time: Double) -> [PlayLoop.Effect] {
        now = time
        let answer = loop.handle(event, at: time)
        record(answer)
        return answer
    }

    /// Lets the clock run to `end` (or the exit): each wait ends at its deadline with a tick.
    mutating func run(until end: Double) {
        var ticks = 0
        while exitStatus == nil, let deadline, deadline <= end {
            ticks += 1
            guard ticks < 100_000 else {
                Issue.record("the loop kept waking without the clock moving, at \(now)")
                return
            }
            send(.tick, at: max(now, deadline))
        }
        if exitStatus == nil { now = max(now, end) }
    }

    /// The frames painted, with the time of each.
    var paints: [(at: Double, frame: Frame)] {
        effects.compactMap { if case .screen(.paint(let frame)) = $0.effect { ($0.at, frame) } else { nil } }
    }

    /// The waits asked for: when, and until when (nil: until something happens).
    var waits: [(at: Double, until: Double?)] {
        effects.compactMap { if case .screen(.wait(let until)) = $0.effect { ($0.at, until) } else { nil } }
    }

    /// The clock-log lines written.
    var logLines: [String] {
        effects.compactMap { if case .log(let line) = $0.effect { line } else { nil } }
    }

    /// The status bar of the last frame painted.
    var status: String { paints.last?.frame.rows.last?.text ?? "" }

    private mutating func record(_ answer: [PlayLoop.Effect]) {
        for effect in answer {
            effects.append((now, effect))
            switch effect {
            case .screen(.wait(let until)): deadline = until
            case .screen(.exit(let status)): exitStatus = status; deadline = nil
            case .screen(.suspend), .nextSong, .previousSong: deadline = nil
            case .screen(.paint), .send, .log, .saveOffset, .toggleMonitor: break
            }
        }
    }
}

/// The effects other than paints, logs and waits: what is sent, suspension and exit.
private func actions(_ effects: [PlayLoop.Effect]) -> [PlayLoop.Effect] {
    effects.filter {
        switch $0 {
        case .screen(.paint), .log, .screen(.wait): false
        case .send, .screen(.suspend), .screen(.exit), .saveOffset, .nextSong, .previousSong, .toggleMonitor: true
        }
    }
}

@Suite("The play loop on a fake clock: pacing")
struct PlayLoopPacingTests {
    @Test(
        "the first frame is painted at once, then one at each deadline of the frame rate",
        arguments: [30, 12, 1])
    func framesAtTheRate(fps: Int) throws {
        var edge = try playLoop(fps: fps)
        #expect(edge.paints.first?.at == t0)
        edge.run(until: t0 + 3)
        let times = edge.paints.map(\.at)
        #expect(times.count == 3 * fps + 1)
        for (index, time) in times.enumerated() {
            #expect(abs(time - (t0 + Double(index) / Double(fps))) < 1e-9, "frame \(index)")
        }
    }

    @Test("a wake before the deadline paints nothing and waits for the same deadline")
    func earlyWake() throws {
        var edge = try playLoop()
        let deadline = try #require(edge.deadline)
        let answer = edge.send(.tick, at: deadline - 0.01)
        #expect(answer == [.wait(until: deadline)])
    }

    @Test(
        "what moves: the sweep and the title while playing; paused, only the title; paused under reduce motion, nothing",
        arguments: [
            (paused: false, reduceMotion: false, sweeps: true, drifts: true),
            (paused: true, reduceMotion: false, sweeps: false, drifts: true),
            (paused: true, reduceMotion: true, sweeps: false, drifts: false),
        ])
    func motion(paused: Bool, reduceMotion: Bool, sweeps: Bool, drifts: Bool) throws {
        var edge = try playLoop(start: 2.5, reduceMotion: reduceMotion)
        if paused { edge.send(.key(.character(" ")), at: t0 + 0.5) }
        let motion = edge.loop.motion(at: t0 + 0.6)
        #expect(motion.sweeps == sweeps)
        #expect(motion.titleDrifts == drifts)
        if paused && reduceMotion { #expect(motion.nextChange == nil || motion.nextChange! > t0 + 0.6) }
    }

    @Test("paused, frames come only at the title's colour steps, 10 a second; resumed, 30 again while it sweeps")
    func pausedPacing() throws {
        var edge = try playLoop(start: 2.5)
        edge.send(.key(.character(" ")), at: t0 + 1.01)
        let pausedFrom = edge.paints.count
        edge.run(until: t0 + 3)
        let paused = edge.paints[pausedFrom...].map(\.at)
        #expect(paused.count >= 19 && paused.count <= 21)
        for (a, b) in zip(paused.dropFirst(), paused.dropFirst(2)) { #expect(abs(b - a - 1.0 / 10) < 1e-9) }
        edge.send(.key(.character(" ")), at: t0 + 3.001)
        let playingFrom = edge.paints.count
        edge.run(until: t0 + 3.5)
        let playing = edge.paints[playingFrom...].map(\.at)
        #expect(playing.count >= 14)
        for (a, b) in zip(playing.dropFirst(), playing.dropFirst(2)) { #expect(abs(b - a - 1.0 / 30) < 1e-9) }
    }

    @Test("paused under reduce motion, the loop waits with no deadline: nothing wakes it but a key or a signal")
    func idleWaitsForever() throws {
        var edge = try playLoop(reduceMotion: true)
        edge.send(.key(.character("p")), at: t0 + 2)
        // The pause's notice, if any, ends first; then nothing is due.
        edge.run(until: t0 + 30)
        let painted = edge.paints.count
        #expect(edge.deadline == nil)
        #expect(edge.waits.last?.until == nil)
        edge.run(until: t0 + 60)
        #expect(edge.paints.count == painted)
    }

    @Test(
        "under reduce motion the loop wakes only for changes: at most four a second, nearly every frame a new one",
        arguments: [30, 120])
    func reducedMotionWakesOnlyForChanges(fps: Int) throws {
        var edge = try playLoop(fps: fps, reduceMotion: true)
        edge.run(until: t0 + 25)
        let frames = edge.paints.map(\.frame)
        #expect(frames.count <= 4 * 25 + 1)
        #expect(frames.count >= 25)
        // A wake may find the frame unchanged (a row that starts where another change was due), but rarely.
        let repeated = zip(frames, frames.dropFirst()).filter { $0.rows == $1.rows }.count
        #expect(repeated * 10 <= frames.count)
    }

    @Test(
        "the song's end is not overslept: the last wait ends at the end, where the loop exits",
        arguments: [30, 1])
    func endNotOverslept(fps: Int) throws {
        // 10 ms left, less than a frame's period.
        var edge = try playLoop(start: 29.99, fps: fps)
        let until = try #require(edge.waits.last?.until)
        #expect(abs(until - (t0 + 0.01)) < 1e-6)
        edge.run(until: t0 + 1)
        #expect(edge.exitStatus == 0)
        #expect(abs(edge.now - (t0 + 0.01)) < 1e-6)
    }

    @Test("once the lyrics are over and the audio plays on, frames keep their rate")
    func noSpinAfterTheLyrics() throws {
        var edge = try playLoop(audio: .starting)
        edge.send(.audio(.position(0), at: t0), at: t0)
        edge.run(until: t0 + 32)
        #expect(edge.exitStatus == nil)
        let late = edge.waits.filter { $0.at > t0 + 30.1 }
        #expect(!late.isEmpty)
        #expect(late.allSatisfy { ($0.until ?? .infinity) - $0.at > 0.01 })
    }
}

@Suite("The play loop on a fake clock: the end, rebuilds, keys")
struct PlayLoopBehaviourTests {
    @Test("without audio the loop exits 0 at the song's end, not before")
    func endsAtTheEnd() throws {
        var edge = try playLoop(start: 25)
        edge.run(until: t0 + 4.99)
        #expect(edge.exitStatus == nil)
        edge.run(until: t0 + 6)
        #expect(edge.exitStatus == 0)
        #expect(abs(edge.now - (t0 + 5)) < 1e-9)
    }

    @Test(
        "with audio the loop exits 0 only when the lyrics and the audio have both ended",
        arguments: [
            (audioEnds: 40.0, exitsAt: 40.0), // the audio runs on after the lyrics
            (audioEnds: 10.0, exitsAt: 30.0), // the lyrics go on after the audio
        ])
    func endsWhenBothEnded(audioEnds: Double, exitsAt: Double) throws {
        var edge = try playLoop(audio: .starting)
        edge.send(.audio(.position(0), at: t0), at: t0)
        edge.run(until: t0 + audioEnds)
        #expect(edge.exitStatus == nil)
        edge.send(.audio(.reachedEnd, at: t0 + audioEnds), at: t0 + audioEnds)
        edge.run(until: t0 + exitsAt + 1)
        #expect(edge.exitStatus == 0)
        #expect(abs(edge.now - (t0 + exitsAt)) < 1e-9)
    }

    @Test("a paused song does not end")
    func pausedDoesNotEnd() throws {
        var edge = try playLoop(start: 29.5)
        edge.send(.key(.character(" ")), at: t0 + 0.1)
        edge.run(until: t0 + 60)
        #expect(edge.exitStatus == nil)
    }

    @Test("on a 30×8 screen the help turns its pages with any key, the last page's key closes it, and Esc closes it")
    func helpPages() throws {
        var edge = try playLoop()
        edge.send(.resize(columns: 30, rows: 8), at: t0 + 0.1)
        let pages = edge.loop.composer.helpPageCount(for: PlayerAction.help)
        #expect(pages > 2)
        func heading() -> String? {
            edge.paints.last?.frame.rows.first { $0.kind == .notice && $0.text.contains("Keys") }?.text
        }
        edge.send(.key(.character("?")), at: t0 + 0.2)
        #expect(heading()?.hasPrefix("┌─ Keys 1/\(pages) ─") == true)
        // A key that turns the page does nothing else: space does not pause.
        edge.send(.key(.character(" ")), at: t0 + 0.3)
        #expect(heading()?.hasPrefix("┌─ Keys 2/\(pages) ─") == true)
        #expect(!edge.loop.state.isPaused)
        for page in 3...pages {
            edge.send(.key(.right), at: t0 + 0.4)
            #expect(heading()?.hasPrefix("┌─ Keys \(page)/\(pages) ─") == true)
        }
        #expect(edge.paints.last?.frame.rows.contains { $0.text.hasPrefix("└─ any key: close") } == true)
        edge.send(.key(.character("x")), at: t0 + 0.5)
        #expect(!edge.loop.state.showsHelp)
        #expect(heading() == nil)
        #expect(abs(edge.loop.state.position(at: t0 + 0.5) - 0.5) < 1e-9, "no key seeked while the help was open")
        // Opened again it starts at its first page; Esc closes it at any page, and q still quits.
        edge.send(.key(.character("?")), at: t0 + 0.6)
        edge.send(.key(.character("j")), at: t0 + 0.6)
        edge.send(.key(.escape), at: t0 + 0.7)
        #expect(!edge.loop.state.showsHelp)
        edge.send(.key(.character("?")), at: t0 + 0.8)
        #expect(heading()?.hasPrefix("┌─ Keys 1/") == true)
        edge.send(.key(.character("q")), at: t0 + 0.9)
        #expect(edge.exitStatus == 0)
    }

    @Test("keys a command adds (the party's) follow play's in the help, on its pages")
    func extraHelp() throws {
        var edge = try playLoop()
        edge.loop.extraHelp = [("l", "show / hide the up-next list")]
        edge.send(.resize(columns: 200, rows: 40), at: t0 + 0.1)
        edge.send(.key(.character("?")), at: t0 + 0.2)
        let text = edge.paints.last?.frame.rows.map(\.text).joined(separator: "\n") ?? ""
        #expect(text.contains("show / hide the up-next list"))
        #expect(text.contains("pause / resume"))
    }

    @Test("a resize rebuilds the composer: the frame painted at once, and the next ones, have the new size")
    func resizeRebuilds() throws {
        var edge = try playLoop()
        #expect(edge.paints.last?.frame.columns == 60)
        let answer = edge.send(.resize(columns: 100, rows: 30), at: t0 + 0.5)
        let frame = try #require(answer.compactMap { if case .screen(.paint(let f)) = $0 { f } else { nil } }.first)
        #expect(frame.columns == 100)
        #expect(frame.rows.count == 30)
        edge.run(until: t0 + 1)
        #expect(edge.paints.last?.frame.rows.count == 30)
        #expect(edge.loop.composer.columns == 100)
    }

    @Test("a longer audio duration rebuilds the composer: the next frame's total is the audio's")
    func longerAudioRebuilds() throws {
        var edge = try playLoop(audio: .starting)
        edge.send(.audio(.position(0), at: t0), at: t0)
        edge.run(until: t0 + 0.1)
        #expect(edge.status.contains("/ 0:30"))
        edge.send(.audio(.duration(100), at: t0 + 0.11), at: t0 + 0.11)
        edge.run(until: t0 + 0.2)
        #expect(edge.status.contains("/ 1:40"))
        // Shorter audio leaves the lyrics' length alone.
        edge.send(.audio(.duration(12), at: t0 + 0.21), at: t0 + 0.21)
        edge.run(until: t0 + 0.3)
        #expect(edge.status.contains("/ 1:40"))
    }

    @Test("an offset key shows in the frame painted at once")
    func offsetShowsAtOnce() throws {
        var edge = try playLoop()
        let answer = edge.send(.key(.character("+")), at: t0 + 3.01)
        #expect(answer.first.map { if case .screen(.paint) = $0 { true } else { false } } == true)
        #expect(edge.status.contains("offset +0.1s"))
        edge.send(.key(.character("-")), at: t0 + 3.02)
        #expect(!edge.status.contains("offset"))
    }

    @Test("r turns the sweep into whole units in the frame painted at once, and back")
    func reduceMotionShowsAtOnce() throws {
        var edge = try playLoop()
        // 3.5 s: "one" (2 s, swept over 3 s) is half sung, its middle cell partly lit.
        edge.run(until: t0 + 3.5)
        func fills(_ frame: Frame) -> [Double] {
            frame.rows.filter { $0.kind == .lyric && $0.line == 0 }.flatMap(\.cells).map(\.fill)
        }
        let swept = try #require(edge.paints.last?.frame)
        #expect(fills(swept).contains { $0 > 0 && $0 < 1 })
        edge.send(.key(.character("r")), at: t0 + 3.5)
        let whole = try #require(edge.paints.last?.frame)
        #expect(!fills(whole).isEmpty)
        #expect(fills(whole).allSatisfy { $0 == 0 || $0 == 1 })
        edge.send(.key(.character("r")), at: t0 + 3.5)
        #expect(fills(try #require(edge.paints.last?.frame)) == fills(swept))
    }

    @Test("a key paints at once, between deadlines; a key that does nothing paints nothing")
    func keysPaintAtOnce() throws {
        var edge = try playLoop()
        let deadline = try #require(edge.deadline)
        let answer = edge.send(.key(.right), at: t0 + 0.01)
        let frame = try #require(answer.compactMap { if case .screen(.paint(let f)) = $0 { f } else { nil } }.first)
        #expect(abs(frame.time - 5.01) < 1e-9)
        #expect(answer.last == .wait(until: deadline))
        #expect(edge.send(.key(.character("x")), at: t0 + 0.02) == [.wait(until: deadline)])
    }

    @Test("keys that concern mpv are sent to it before the frame")
    func keysSendToMpv() throws {
        var edge = try playLoop(audio: .starting)
        edge.send(.audio(.position(0), at: t0), at: t0)
        let answer = edge.send(.key(.character(" ")), at: t0 + 1)
        #expect(answer.first == .send(.setPaused(true)))
        #expect(
            actions(edge.send(.key(.character("0")), at: t0 + 2)) == [.send(.setMuted(false)), .send(.setVolume(85))])
    }

    @Test("q exits 0 at once", arguments: [Key.character("q"), .character("Q"), .escape])
    func quit(key: Key) throws {
        var edge = try playLoop()
        #expect(edge.send(.key(key), at: t0 + 1) == [.exit(0)])
    }

    @Test("with the help shown, Esc closes it instead of quitting")
    func escClosesHelp() throws {
        var edge = try playLoop()
        edge.send(.key(.character("?")), at: t0 + 1)
        #expect(edge.loop.state.showsHelp)
        let answer = edge.send(.key(.escape), at: t0 + 1.1)
        #expect(!answer.contains(.exit(0)))
        #expect(!edge.loop.state.showsHelp)
    }
}

@Suite("The play loop on a fake clock: notices, signals, the clock log")
struct PlayLoopEdgeEventTests {
    @Test("mpv gone: the notice shows at once, the lyrics go on, and the notice goes after its time")
    func audioGoneNotice() throws {
        var edge = try playLoop(audio: .starting)
        edge.run(until: t0 + 1)
        edge.send(.audioGone("mpv died; playing without sound"), at: t0 + 1)
        edge.run(until: t0 + 1.1)
        #expect(edge.status.contains("mpv died"))
        edge.run(until: t0 + 1 + 3 * PlayerState.noticeDuration - 0.1)
        #expect(edge.status.contains("mpv died"))
        #expect(edge.status.contains("0:11"))
        edge.run(until: t0 + 1 + 3 * PlayerState.noticeDuration + 0.1)
        #expect(!edge.status.contains("mpv died"))
    }

    @Test("an audio problem at the start shows in the first frame")
    func audioProblemAtStart() throws {
        let edge = try playLoop(audio: .starting, audioProblem: "mpv is not installed")
        #expect(edge.status.contains("mpv is not installed"))
        #expect(edge.loop.state.audio == .lost)
    }

    @Test("a volume key's notice goes after its time")
    func volumeNotice() throws {
        var edge = try playLoop()
        edge.send(.key(.character("9")), at: t0 + 1)
        #expect(edge.status.contains("no audio"))
        edge.run(until: t0 + 1 + PlayerState.noticeDuration + 0.1)
        #expect(!edge.status.contains("no audio"))
    }

    @Test(
        "a signal that ends the player exits 128 + its number",
        arguments: [
            (signal: TerminalSignal.hangup, status: Int32(129)),
            (signal: .interrupt, status: 130),
            (signal: .terminate, status: 143),
        ])
    func signalsExit(signal: TerminalSignal, status: Int32) throws {
        var edge = try playLoop()
        #expect(edge.send(.signal(signal), at: t0 + 1) == [.exit(status)])
    }

    @Test("suspending pauses mpv and stops; continued, mpv plays and the song skips the stopped time")
    func suspendWithAudio() throws {
        var edge = try playLoop(audio: .starting)
        edge.send(.audio(.position(0), at: t0), at: t0)
        #expect(edge.send(.signal(.suspend), at: t0 + 5) == [.send(.setPaused(true)), .suspend])
        let answer = edge.send(.signal(.resumed), at: t0 + 65)
        #expect(actions(answer) == [.send(.setPaused(false))])
        let frame = try #require(answer.compactMap { if case .screen(.paint(let f)) = $0 { f } else { nil } }.first)
        #expect(abs(frame.time - 5) < 1e-9)
        #expect(abs(edge.loop.state.position(at: t0 + 66) - 6) < 1e-9)
    }

    @Test(
        "suspending while paused or without audio sends nothing to mpv",
        arguments: [
            (audio: AudioStatus.none, paused: false),
            (audio: .starting, paused: true),
        ])
    func suspendSendsNothing(audio: AudioStatus, paused: Bool) throws {
        var edge = try playLoop(start: 4, audio: audio)
        if audio == .starting { edge.send(.audio(.position(4), at: t0), at: t0) }
        if paused { edge.send(.key(.character(" ")), at: t0 + 1) }
        #expect(edge.send(.signal(.suspend), at: t0 + 2) == [.suspend])
        #expect(actions(edge.send(.signal(.resumed), at: t0 + 30)) == [])
        let expected = paused ? 5.0 : 6.0
        #expect(abs(edge.loop.state.position(at: t0 + 30) - expected) < 1e-9)
    }

    @Test("with the clock log on, each frame and each audio position writes its line, the frame's first")
    func clockLog() throws {
        var edge = try playLoop(audio: .starting, logsClock: true)
        #expect(edge.effects.first.map { $0.effect == .log("frame \(t0) 0.0") } == true)
        edge.send(.audio(.position(1.5), at: t0 + 0.25), at: t0 + 0.26)
        #expect(edge.logLines.last == "audio \(t0 + 0.25) 1.5")
        edge.run(until: t0 + 0.3)
        let paintCount = edge.paints.count
        #expect(edge.logLines.filter { $0.hasPrefix("frame ") }.count == paintCount)
        let last = try #require(edge.paints.last)
        #expect(edge.logLines.last == "frame \(last.at) \(last.frame.time)")
    }

    @Test("without the clock log nothing is logged")
    func noClockLog() throws {
        var edge = try playLoop(audio: .starting)
        edge.send(.audio(.position(1.5), at: t0 + 0.25), at: t0 + 0.26)
        edge.run(until: t0 + 1)
        #expect(edge.logLines.isEmpty)
    }

    @Test("the title drifts in steps of a tenth of a second, on the loop's clock")
    func titleSteps() throws {
        var edge = try playLoop()
        edge.run(until: t0 + 1)
        // Frames a hair from a step's boundary could fall in either step: leave them out.
        let titles = edge.paints.map { (phase: ($0.at - t0) * 10, row: $0.frame.rows[0]) }
            .filter { abs($0.phase - $0.phase.rounded()) > 1e-6 }
            .map { (step: Int($0.phase.rounded(.down)), row: $0.row) }
        for (a, b) in zip(titles, titles.dropFirst()) {
            if a.step == b.step { #expect(a.row == b.row, "within step \(a.step)") }
        }
        #expect(Set(titles.map(\.step)).count >= 10)
        #expect(titles.first?.row != titles.last?.row)
    }
}

@Suite("The play loop on a fake clock: changing what is shown")
struct PlayLoopContentTests {
    /// Plain lyrics of 36 one-row lines: pages of 13 rows on the 60 × 16 screen (13, 13 and 10 lines).
    static let plain = PlainLyrics(lines: (1...36).map { "line \($0)" })

    @Test("a message with no audio and no length waits for q instead of ending at once")
    func messageWithoutAudioWaits() throws {
        var edge = try playLoop(content: .message("looking up A — T on lrclib.net…"))
        edge.run(until: t0 + 120)
        #expect(edge.exitStatus == nil)
        #expect(edge.paints.last?.frame.rows.contains { $0.text.contains("looking up A — T") } == true)
        edge.send(.key(.character("q")), at: t0 + 121)
        #expect(edge.exitStatus == 0)
    }

    @Test("a message plays on while the audio plays, and ends when the audio has ended")
    func messageFollowsTheAudio() throws {
        var edge = try playLoop(content: .message("looking up"), audio: .starting)
        edge.send(.audio(.position(0), at: t0), at: t0)
        edge.send(.audio(.duration(60), at: t0 + 0.1), at: t0 + 0.1)
        edge.run(until: t0 + 59)
        #expect(edge.exitStatus == nil)
        #expect(edge.status.contains("0:59"))
        #expect(edge.status.contains("1:00"))
        edge.send(.audio(.reachedEnd, at: t0 + 60), at: t0 + 60)
        edge.run(until: t0 + 62)
        #expect(edge.exitStatus == 0)
    }

    @Test("content swapped mid-song keeps the position, and the new content is painted at once")
    func swapKeepsThePosition() throws {
        var edge = try playLoop(content: .message("looking up"), audio: .starting)
        edge.send(.audio(.position(0), at: t0), at: t0)
        edge.send(.audio(.duration(90), at: t0 + 0.1), at: t0 + 0.1)
        edge.run(until: t0 + 40)
        let positionBefore = edge.loop.state.position(at: t0 + 40)
        let painted = edge.loop.show(.plain(Self.plain), fallbackTitle: "song.mp3", at: t0 + 40)
        #expect(edge.loop.state.position(at: t0 + 40) == positionBefore)
        #expect(abs(positionBefore - 40) < 0.01)
        guard case .screen(.paint(let frame)) = painted.first else {
            Issue.record("no frame painted at once: \(painted)")
            return
        }
        // 40 s of 90 s: the second of three pages.
        #expect(frame.rows.contains { $0.text.contains("page 2/3") })
        #expect(frame.rows.contains { $0.text.trimmingSpaces() == "line 14" })
        #expect(frame.rows.last?.text.contains("0:40") == true)
        #expect(frame.rows.last?.text.contains("1:30") == true)
        #expect(painted.contains { if case .screen(.wait) = $0 { true } else { false } })
    }

    @Test("a timed song shown mid-song is sung from where the audio is, and lasts as long as the audio")
    func swapToTimed() throws {
        var edge = try playLoop(content: .message("looking up"), audio: .starting)
        edge.send(.audio(.position(0), at: t0), at: t0)
        edge.send(.audio(.duration(45), at: t0 + 0.1), at: t0 + 0.1)
        edge.run(until: t0 + 10)
        let song = try Fixtures.song(text: Fixtures.clockwork)
        _ = edge.loop.show(.timed(song), fallbackTitle: "song.mp3", notice: "from lrclib.net", at: t0 + 10)
        #expect(edge.loop.state.duration == 45)
        #expect(edge.loop.state.currentLine(at: edge.loop.state.position(at: t0 + 10)) == 2) // "three", from 9 s
        var composer = edge.loop.composer
        #expect(
            composer.frame(edge.loop.state.frameInput(at: t0 + 10, titleTime: 0)).rows.last?.text
                .contains("from lrclib.net") == true)
    }

    @Test("a failed LRCLIB lookup stays on screen with its reason long after the notices end; 'no lyrics' never shows")
    func failedLookupStays() throws {
        var edge = try playLoop(content: .message("looking up Test Artist — song on lrclib.net…"))
        let answer = LRCLIBAnswer(
            failure: "cannot connect to lrclib.net: Connection refused",
            query: LRCLIBQuery(artist: "Test Artist", title: "song"))
        edge.send(.lyricsArrived(answer.content, fallbackTitle: "song.mp3", notice: answer.notice), at: t0 + 1)
        // Past the longest notice (3 × 4 s): what is left is the lyric area's.
        edge.run(until: t0 + 60)
        let rows = try #require(edge.paints.last?.frame.rows)
        let text = rows.map { $0.text.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: " ")
        #expect(text.contains("could not look up Test Artist — song: cannot connect to lrclib.net: Connection refused"))
        #expect(!edge.paints.contains { $0.frame.rows.contains { $0.text.contains("no lyrics") } })
    }

    @Test("plain lyrics with no audio but a length end at their length")
    func plainWithLengthEnds() throws {
        var lyrics = Self.plain
        lyrics.metadata.length = 30_000
        var edge = try playLoop(content: .plain(lyrics))
        edge.run(until: t0 + 29)
        #expect(edge.exitStatus == nil)
        edge.run(until: t0 + 31)
        #expect(edge.exitStatus == 0)
    }
}

@Suite("The play loop on a fake clock: saving the offset")
struct PlayLoopOffsetSaveTests {
    /// `Fixtures.clockwork` with `milliseconds` saved into its `[offset:]` tag, read back.
    static func savedClockwork(_ milliseconds: Int) throws -> Song {
        let rewritten = try LRCOffsetRewrite.rewrite(
            Array(Fixtures.clockwork.utf8), adding: milliseconds, mode: .tag
        ).get()
        return try #require(LRCParser.parse(rewritten.bytes, file: "inline.lrc").song)
    }

    @Test("s asks the edge to save the user offset of the moment", arguments: [0, 100, 200, -300])
    func sAsksToSave(milliseconds: Int) throws {
        var edge = try playLoop()
        for _ in 0..<abs(milliseconds / 100) {
            edge.send(.key(.character(milliseconds > 0 ? "+" : "-")), at: t0 + 1)
        }
        let answer = edge.send(.key(.character("s")), at: t0 + 1.5)
        #expect(actions(answer) == [.saveOffset(milliseconds)])
        #expect(PlayerAction.bound(to: .character("S")) == .saveOffset)
        #expect(PlayerAction.help.contains { $0.keys == "s" })
    }

    @Test("a saved offset becomes the file's: the user offset is 0 again and no line moves")
    func savedOffsetKeepsTheLyricsStill() throws {
        var edge = try playLoop()
        edge.send(.key(.character("+")), at: t0 + 1)
        edge.send(.key(.character("+")), at: t0 + 1)
        edge.run(until: t0 + 4)
        let before = edge.loop.state
        let saved = try Self.savedClockwork(200)
        edge.send(.offsetSaved(.saved(saved, notice: "offset +0.2s saved to inline.lrc")), at: t0 + 4)
        let after = edge.loop.state
        #expect(after.userOffset == 0)
        #expect(after.song.metadata.offset == 200)
        #expect(edge.status.contains("offset +0.2s saved to inline.lrc"))
        // Every moment of the song, before and after the save, sings the same line.
        for tenth in 0..<300 {
            let position = Double(tenth) / 10
            #expect(after.currentLine(at: position) == before.currentLine(at: position), "at \(position) s")
        }
        #expect(abs(after.position(at: t0 + 4) - before.position(at: t0 + 4)) < 0.000_001)
    }

    @Test(
        "a save that wrote nothing shows why and keeps the user offset; a refusal's notice stays longer",
        arguments: [
            (outcome: OffsetSave.unchanged(file: "inline.lrc"), staysAt8: false),
            (outcome: OffsetSave.refused(notice: "cannot save the offset into SRT"), staysAt8: true),
        ])
    func nothingWritten(outcome: OffsetSave, staysAt8: Bool) throws {
        var edge = try playLoop()
        edge.send(.key(.character("+")), at: t0 + 1)
        edge.send(.offsetSaved(outcome), at: t0 + 1)
        #expect(edge.loop.state.userOffset == 100)
        let notice = outcome.notice(savedBefore: false)
        #expect(edge.loop.state.noticeText(at: t0 + 1) == notice)
        #expect(edge.status.contains("offset +0.1s  " + notice.prefix(12)), "the offset stays beside the notice")
        #expect(edge.loop.state.noticeText(at: t0 + 1 + 8) == (staysAt8 ? notice : nil))
        #expect(edge.loop.state.noticeText(at: t0 + 1 + 13) == nil)
    }

    @Test("r says in the status bar that reduce motion is on, then off, as the other toggles do")
    func reduceMotionNotice() throws {
        var edge = try playLoop()
        edge.send(.key(.character("r")), at: t0 + 1)
        #expect(edge.loop.state.reduceMotion)
        #expect(edge.status.hasSuffix("reduce motion on"))
        edge.send(.key(.character("r")), at: t0 + 2)
        #expect(!edge.loop.state.reduceMotion)
        #expect(edge.status.hasSuffix("reduce motion off"))
        #expect(edge.loop.state.noticeText(at: t0 + 2 + PlayerState.noticeDuration) == nil)
    }

    @Test("s with nothing to save says there is no offset to save; after a save, that it is saved already")
    func nothingToSave() throws {
        var edge = try playLoop()
        #expect(actions(edge.send(.key(.character("s")), at: t0 + 1)) == [.saveOffset(0)])
        edge.send(.offsetSaved(.unchanged(file: "inline.lrc")), at: t0 + 1)
        #expect(edge.status.hasSuffix("no offset to save"))
        edge.send(.key(.character("+")), at: t0 + 2)
        edge.send(.key(.character("s")), at: t0 + 2)
        let saved = try Self.savedClockwork(100)
        edge.send(.offsetSaved(.saved(saved, notice: "offset +0.1s saved to inline.lrc")), at: t0 + 2)
        edge.send(.key(.character("s")), at: t0 + 3)
        edge.send(.offsetSaved(.unchanged(file: "inline.lrc")), at: t0 + 3)
        #expect(edge.loop.state.noticeText(at: t0 + 3) == "offset already saved in inline.lrc; nothing written")
        #expect(edge.status.contains("  offset already saved in inline."), "cut to the room a 60-column row has")
    }

    @Test(
        "the notices name the offset saved, how, and the backup made",
        arguments: [
            (
                ms: 200, mode: LRCOffsetRewrite.Mode.tag, clamped: 0, backup: nil as String?,
                notice: "offset +0.2s saved to song.lrc"
            ),
            (
                ms: -1250, mode: .tag, clamped: 0, backup: "song.lrc.bak",
                notice: "offset -1.25s saved to song.lrc (backup song.lrc.bak)"
            ),
            (
                ms: 300, mode: .stamps, clamped: 2, backup: nil,
                notice: "offset +0.3s saved to song.lrc (stamps moved; 2 stamps held at 0:00)"
            ),
        ])
    func savedNotices(ms: Int, mode: LRCOffsetRewrite.Mode, clamped: Int, backup: String?, notice: String) {
        #expect(
            OffsetSave.savedNotice(ms, to: "song.lrc", mode: mode, clampedStamps: clamped, backup: backup) == notice)
    }

    @Test("the convert hint quotes a path the shell would split")
    func convertHintQuotes() {
        #expect(
            OffsetSave.formatRefusedNotice("SRT", path: "songs/a.srt")
                == "cannot save into SRT; karaoke convert songs/a.srt --to lrc -o songs/a.lrc")
        #expect(OffsetSave.quotedPath("My Song's.srt") == "'My Song'\\''s.srt'")
    }
}

@Suite("The play loop on a fake clock: CD+G pictures")
struct PlayLoopGraphicsTests {
    @Test("under reduce motion a still picture wakes nothing; each packet that draws is painted when it starts")
    func wakesForPackets() throws {
        var writer = CDGWriter()
        writer.colorTable(
            high: false, [(0, 0, 0), (15, 0, 0), (0, 0, 15), (15, 15, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])
        writer.nothing(29)
        writer.memoryPreset(color: 2) // packet 30: 0.1 s
        writer.nothing(269)
        writer.tile(color0: 1, color1: 3, row: 4, column: 9, rows: [UInt8](repeating: 0x2A, count: 12)) // 1.0 s
        writer.nothing(600) // to 3.0 s
        var options = FrameOptions()
        options.reduceMotion = true
        var metadata = SongMetadata()
        metadata.length = 3000
        let loop = PlayLoop(
            content: .graphics(metadata), fallbackTitle: "song.cdg", options: options, columns: 60, rows: 16,
            start: 0, framesPerSecond: 30, now: t0)
        // The same screen without a picture wakes for the status bar only: its clock and progress cells.
        var plain = FakeEdge(loop: loop)
        plain.run(until: t0 + 4)
        var pictured = loop
        pictured.showGraphics(CDGTrack(bytes: writer.bytes, renderer: HalfBlockRenderer(), depth: .indexed256))
        var edge = FakeEdge(loop: pictured)
        edge.run(until: t0 + 4)
        #expect(edge.exitStatus == 0)
        // With the picture, two wakes more: the preset's packet and the tile's, each at its start.
        let times = edge.paints.map { (($0.at - t0) * 1e6).rounded() / 1e6 }
        let plainTimes = plain.paints.map { (($0.at - t0) * 1e6).rounded() / 1e6 }
        // (The status clock's wake at 1.000001 s is then already painted by the tile's frame.)
        #expect(Set(times).isSubset(of: Set(plainTimes).union([0.1, 1.0])), "\(times)")
        #expect(times.contains(0.1) && times.contains(1.0) && times.count <= plainTimes.count + 2)
        // Every frame shows the picture, and the tile's frame differs from the one before it.
        #expect(edge.paints.allSatisfy { $0.frame.rows.contains { $0.kind == .picture } })
        let tiled = try #require(edge.paints.firstIndex { abs($0.at - t0 - 1.0) < 1e-6 })
        let changed =
            edge.paints[tiled].frame.rows.filter { $0.kind == .picture }
            != edge.paints[tiled - 1].frame.rows.filter { $0.kind == .picture }
        #expect(changed)
    }
}
