import Testing
@testable import KaraokeCore

/// The monotonic time the fake clock starts at.
private let t0 = 2_000.0

/// A silent loop over six lines on a 60 × 16 screen, started at `t0`.
private func syncLoop(stamps: [SyncSession.Stamp] = [], reduceMotion: Bool = false) -> SyncLoop {
    let script = SyncScript.plain("one\ntwo\nthree\nfour\nfive\nsix\n")
    let session = SyncSession(script: script, wordMode: false, stamps: stamps, now: t0)
    var options = FrameOptions()
    options.reduceMotion = reduceMotion
    return SyncLoop(
        session: session, fallbackTitle: "six.txt", outputName: "six.lrc", options: options, columns: 60,
        rows: 16, framesPerSecond: 30, now: t0)
}

/// The deadline of the last wait in `effects`; `.some(nil)` for a wait without end, nil when none waits.
private func lastWait(_ effects: [SyncLoop.Effect]) -> Double?? {
    effects.compactMap(\.waitDeadline).last
}

/// Whether `effects` hold an autosave.
private func autosaves(_ effects: [SyncLoop.Effect]) -> Bool {
    effects.contains { if case .autosave = $0 { true } else { false } }
}

@Suite("The sync loop")
struct SyncLoopTests {
    @Test("a stamp shows at once: the frame after the key has the line lit, the next one below it")
    func stampPaintsAtOnce() throws {
        var loop = syncLoop()
        _ = loop.start(at: t0)
        let effects = loop.handle(.key(.character(" ")), at: t0 + 1.5)
        let frame = try #require(
            effects.compactMap { effect -> Frame? in if case .screen(.paint(let frame)) = effect { frame } else { nil }
            }.last)
        let text = frame.rows.map { String($0.cells.map(\.glyph).joined()) }
        let one = try #require(text.firstIndex { $0.contains("one") })
        let two = try #require(text.firstIndex { $0.contains("two") })
        #expect(one < two)
        #expect(text.last?.contains("1/6 lines") == true)
    }

    @Test("the selected line is marked ▸ … ◂ in gold; ↑ moves the mark to the line the nudge keys move")
    func selectedLineIsMarked() throws {
        var loop = syncLoop()
        _ = loop.start(at: t0)
        _ = loop.handle(.key(.character(" ")), at: t0 + 1)
        func rows(_ effects: [SyncLoop.Effect]) throws -> [FrameRow] {
            try #require(
                effects.compactMap { effect -> Frame? in
                    if case .screen(.paint(let frame)) = effect { frame } else { nil }
                }.last
            ).rows
        }
        var shown = try rows(loop.handle(.key(.character(" ")), at: t0 + 2))
        #expect(shown.first { $0.line == 1 }?.text.trimmingSpaces() == "▸ two ◂", "the line stamped last")
        #expect(shown.first { $0.line == 0 }?.text.trimmingSpaces() == "one")
        shown = try rows(loop.handle(.key(.up), at: t0 + 2.5))
        let one = try #require(shown.first { $0.line == 0 })
        #expect(one.text.trimmingSpaces() == "▸ one ◂")
        #expect(shown.first { $0.line == 1 }?.text.trimmingSpaces() == "two")
        let marks = one.cells.filter { $0.glyph == "▸" || $0.glyph == "◂" }
        #expect(marks.count == 2 && marks.allSatisfy { $0.color == Theme.dark.gold && $0.accent == Theme.dark.gold })
        #expect(marks[1].column - (one.cells[one.cells.count - 2].column + 1) == 1, "one blank between text and mark")
    }

    @Test("a session resumed from an autosave starts 2 s before its last stamp, as Backspace seeks")
    func resumeStartsBeforeTheLastStamp() {
        let loop = syncLoop(stamps: [SyncSession.Stamp(.line(0), at: 10_000), SyncSession.Stamp(.line(1), at: 14_500)])
        #expect(loop.session.position(at: t0) == 12.5)
        #expect(SyncSession.startPosition(resuming: [], latency: 80) == 0)
        #expect(
            SyncSession.startPosition(resuming: [SyncSession.Stamp(.line(0), at: 1_000)], latency: 80) == 0,
            "never before the start")
        #expect(
            SyncSession.startPosition(resuming: [SyncSession.Stamp(.line(0), at: 30_000)], latency: 250) == 28.25,
            "in audio time: the latency taken off each tap is added back")
    }

    @Test("changes are autosaved once 10 s have passed, not before, and not again without a change")
    func autosaveEveryTenSeconds() {
        var loop = syncLoop()
        _ = loop.start(at: t0)
        #expect(!autosaves(loop.handle(.key(.character(" ")), at: t0 + 1)))
        #expect(!autosaves(loop.handle(.tick, at: t0 + 9)))
        #expect(autosaves(loop.handle(.tick, at: t0 + 10)))
        #expect(!autosaves(loop.handle(.tick, at: t0 + 25)))
    }

    @Test("s saves the LRC; once it is written the autosave goes and q quits at once")
    func saveThenQuit() {
        var loop = syncLoop()
        _ = loop.start(at: t0)
        loop.handle(.key(.character(" ")), at: t0 + 1)
        let effects = loop.handle(.key(.character("s")), at: t0 + 2)
        #expect(effects.contains(.save("[00:01.00]one\n")))
        #expect(loop.handle(.saved(failure: nil), at: t0 + 2).contains(.discardAutosave))
        #expect(loop.handle(.key(.character("q")), at: t0 + 3).last == .exit(0))
    }

    @Test(
        "the terminal going away autosaves what is unsaved and exits 128 + N",
        arguments: [
            (TerminalSignal.hangup, Int32(129)), (.interrupt, 130), (.terminate, 143),
        ])
    func signalAutosaves(signal: TerminalSignal, status: Int32) {
        var loop = syncLoop()
        _ = loop.start(at: t0)
        loop.handle(.key(.character(" ")), at: t0 + 1)
        let effects = loop.handle(.signal(signal), at: t0 + 2)
        #expect(effects == [.autosave("[00:01.00]one\n"), .exit(status)])
    }

    @Test("stamps autosaved and then undone leave no autosave behind when q quits")
    func undoneStampsLeaveNoAutosave() {
        var loop = syncLoop()
        _ = loop.start(at: t0)
        loop.handle(.key(.character(" ")), at: t0 + 1)
        #expect(autosaves(loop.handle(.tick, at: t0 + 10)))
        loop.handle(.key(.backspace), at: t0 + 11)
        #expect(loop.handle(.key(.character("q")), at: t0 + 12).suffix(2) == [.discardAutosave, .exit(0)])
    }

    @Test("resumed stamps are unsaved: q asks, and dropping them removes the autosave")
    func resumedStampsAreUnsaved() {
        var loop = syncLoop(stamps: [.init(.line(0), at: 1000)])
        _ = loop.start(at: t0)
        #expect(loop.handle(.key(.character("q")), at: t0 + 1).contains { $0 == .exit(0) } == false)
        let effects = loop.handle(.key(.character("q")), at: t0 + 2)
        #expect(effects.suffix(2) == [.discardAutosave, .exit(0)])
    }

    @Test("paused under reduce motion, nothing is due: the loop waits without a deadline")
    func pausedUnderReduceMotionSleeps() {
        var loop = syncLoop(reduceMotion: true)
        _ = loop.start(at: t0)
        #expect(lastWait(loop.handle(.key(.character("p")), at: t0 + 1)) == .some(nil))
    }

    @Test("paused with the title drifting, the loop wakes only for the title's next step")
    func pausedWakesForTheTitle() throws {
        var loop = syncLoop()
        _ = loop.start(at: t0)
        let wait = try #require(lastWait(loop.handle(.key(.character("p")), at: t0 + 1.05)))
        #expect(wait == t0 + 1.1)
        // The wake for the title's step paints; a tick before it does not.
        #expect(!loop.handle(.tick, at: t0 + 1.08).contains { $0.paintedFrame != nil })
        #expect(loop.handle(.tick, at: t0 + 1.1).contains { $0.paintedFrame != nil })
    }

    @Test("paused with unsaved stamps under reduce motion, the only wake is the autosave's")
    func pausedWakesForTheAutosave() {
        var loop = syncLoop(reduceMotion: true)
        _ = loop.start(at: t0)
        loop.handle(.key(.character(" ")), at: t0 + 1)
        #expect(lastWait(loop.handle(.key(.character("p")), at: t0 + 2)) == .some(t0 + 10))
    }

    @Test("a suspension stops the clock of the stamps: after it the audio's time goes on from where it was")
    func suspensionHoldsTheClock() {
        var loop = syncLoop()
        _ = loop.start(at: t0)
        #expect(loop.handle(.signal(.suspend), at: t0 + 2) == [.suspend])
        let resumed = loop.handle(.signal(.resumed), at: t0 + 60)
        #expect(resumed.contains { $0.paintedFrame != nil })
        #expect(loop.session.position(at: t0 + 61) == 3)
    }

    @Test("a resumption without a suspension of its own changes nothing")
    func strayResumptionIsIgnored() {
        var loop = syncLoop()
        _ = loop.start(at: t0)
        let effects = loop.handle(.signal(.resumed), at: t0 + 5)
        #expect(!effects.contains { $0.paintedFrame != nil })
        #expect(loop.session.position(at: t0 + 5) == 5)
    }
}
