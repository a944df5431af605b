import Testing
@testable import KaraokeCore

/// The monotonic time the fake clock starts at: not 0, so anchoring mistakes show.
private let t0 = 300.0

@Suite("The audio clock play and sync share")
struct AudioClockTests {
    @Test("while mpv starts the clock waits; its first position starts it there")
    func firstPositionStartsTheClock() {
        var clock = AudioClock(audio: .starting, now: t0)
        #expect(clock.position(at: t0 + 5) == 0)
        #expect(clock.time(reaching: 1, after: t0 + 5) == nil)
        #expect(clock.receive(.position(2), at: t0 + 5) == nil)
        #expect(clock.audio == .playing)
        #expect(clock.position(at: t0 + 6) == 3)
    }

    @Test("paused while mpv starts, the first position moves the clock but does not start it")
    func pausedFirstPositionHolds() {
        var clock = AudioClock(audio: .starting, now: t0)
        #expect(clock.togglePause(at: t0) == [.setPaused(true)])
        _ = clock.receive(.position(2), at: t0 + 1)
        #expect(clock.position(at: t0 + 10) == 2)
        #expect(clock.togglePause(at: t0 + 10) == [.setPaused(false)])
        #expect(clock.position(at: t0 + 11) == 3)
    }

    @Test(
        "a length is kept only when it is a real one",
        arguments: [(180.5, Double?.some(180.5)), (0, nil), (-1, nil), (.infinity, nil), (.nan, nil)])
    func lengthIsKeptWhenReal(seconds: Double, kept: Double?) {
        var clock = AudioClock(audio: .playing, now: t0)
        _ = clock.receive(.duration(seconds), at: t0)
        #expect(clock.audioDuration == kept)
    }

    @Test("mpv's failure is handed to the owner, who words the notice; the status is left to its lose")
    func failureIsReported() {
        var clock = AudioClock(audio: .starting, now: t0)
        #expect(clock.receive(.failed("no such file"), at: t0) == "no such file")
        #expect(clock.audio == .starting)
        clock.lose(at: t0 + 1)
        #expect(clock.audio == .lost)
        // Lost before it played: the clock runs on alone from where it waited.
        #expect(clock.position(at: t0 + 3) == 2)
    }

    @Test(
        "the end is reached only from starting or playing",
        arguments: [
            (AudioStatus.starting, AudioStatus.ended), (.playing, .ended), (.none, .none), (.lost, .lost),
        ])
    func endIsReachedFromPlaying(before: AudioStatus, after: AudioStatus) {
        var clock = AudioClock(audio: before, now: t0)
        _ = clock.receive(.reachedEnd, at: t0)
        #expect(clock.audio == after)
    }

    @Test("a suspension pauses a live, unpaused mpv and the resumption unpauses it; otherwise nothing is sent")
    func suspensionCommands() {
        var clock = AudioClock(audio: .playing, now: t0)
        #expect(clock.suspendCommands == [.setPaused(true)])
        #expect(clock.resumeCommands == [.setPaused(false)])
        _ = clock.togglePause(at: t0)
        #expect(clock.suspendCommands.isEmpty && clock.resumeCommands.isEmpty)
        #expect(AudioClock(audio: .none, now: t0).suspendCommands.isEmpty)
    }

    @Test("a seek while paused keeps the clock still at the target")
    func seekWhilePaused() {
        var clock = AudioClock(audio: .playing, now: t0)
        _ = clock.togglePause(at: t0)
        #expect(clock.move(to: 42, at: t0 + 1) == [.seek(to: 42)])
        #expect(clock.position(at: t0 + 9) == 42)
    }
}
