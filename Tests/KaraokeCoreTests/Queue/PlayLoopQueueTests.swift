import Testing
@testable import KaraokeCore

/// A silent loop over the clockwork song on a 60 × 16 screen from monotonic time 1000, in a queue or not.
private func loop(queued: Bool, position: String? = nil) throws -> PlayLoop {
    var options = FrameOptions()
    options.queuePosition = position
    var loop = PlayLoop(
        content: .timed(try Fixtures.song(text: Fixtures.clockwork)), fallbackTitle: "inline.lrc", options: options,
        columns: 60, rows: 16, start: 0, framesPerSecond: 30, now: 1_000)
    loop.isQueued = queued
    return loop
}

@Suite("The play loop in a queue")
struct PlayLoopQueueTests {
    @Test("in a queue n asks for the next song and N for the previous, at once")
    func keysInQueue() throws {
        var queued = try loop(queued: true)
        _ = queued.start(at: 1_000)
        #expect(queued.handle(.key(.character("n")), at: 1_001) == [.nextSong])
        #expect(queued.handle(.key(.character("N")), at: 1_001) == [.previousSong])
    }

    @Test(
        "outside a queue n and N change no song and say why at once",
        arguments: [
            (key: "n", notice: "no next song: not in a queue"),
            (key: "N", notice: "no previous song: not in a queue"),
        ])
    func keysAlone(key: Character, notice: String) throws {
        var alone = try loop(queued: false)
        _ = alone.start(at: 1_000)
        let effects = alone.handle(.key(.character(key)), at: 1_001)
        #expect(!effects.contains(.nextSong) && !effects.contains(.previousSong) && !effects.contains(.exit(0)))
        let painted = effects.compactMap { if case .screen(.paint(let frame)) = $0 { frame } else { nil } }
        #expect(painted.last?.rows.last?.text.hasSuffix(notice) == true, "\(painted.last?.rows.last?.text ?? "")")
        #expect(alone.state.noticeText(at: 1_001 + PlayerState.noticeDuration) == nil, "it goes as other notices do")
    }

    @Test("the end of a queued song asks for the next song instead of exiting")
    func endOfSong() throws {
        var queued = try loop(queued: true)
        _ = queued.start(at: 1_000)
        let end = 1_000 + queued.state.duration + 0.01
        let effects = queued.handle(.tick, at: end)
        #expect(effects.last == .nextSong)
        #expect(!effects.contains(.exit(0)))
    }

    @Test("q in a queue still exits 0: it ends the evening, not the song")
    func quit() throws {
        var queued = try loop(queued: true)
        _ = queued.start(at: 1_000)
        #expect(queued.handle(.key(.character("q")), at: 1_001).last == .exit(0))
    }

    @Test("the status bar shows the song's place in the queue after the time")
    func statusBar() throws {
        var queued = try loop(queued: true, position: "2/7")
        let effects = queued.start(at: 1_000)
        let frame = try #require(
            effects.compactMap { if case .screen(.paint(let frame)) = $0 { frame } else { nil } }.first)
        #expect(frame.rows.last?.text.hasPrefix("▶ 0:00 / ") == true)
        #expect(frame.rows.last?.text.contains("  2/7  ") == true)
    }

    @Test("with the queue's place the status text still never exceeds the width", arguments: 1...90)
    func statusFits(width: Int) {
        let text = StatusBar.text(
            elapsed: 61, total: 200, paused: false, userOffset: 300, width: width, notice: nil,
            queuePosition: "12/140")
        #expect(text.count <= width)
    }
}
