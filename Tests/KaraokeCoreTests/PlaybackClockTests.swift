import Testing
@testable import KaraokeCore

/// The clock that follows mpv: extrapolates between reports, absorbs small errors smoothly, follows jumps.
@Suite("The playback clock following the audio")
struct PlaybackClockTests {
    let t0 = 500.0

    @Test("between reports it runs at one second a second")
    func extrapolates() {
        var clock = PlaybackClock(position: 10, at: t0)
        clock.synchronize(toAudio: 10, at: t0)
        #expect(clock.position(at: t0 + 0.25) == 10.25)
        #expect(clock.position(at: t0 + 2) == 12)
    }

    @Test(
        "a small disagreement is absorbed at no more than the slew rate, without a jump",
        arguments: [0.05, -0.05, 0.2, -0.2, 0.29, -0.29])
    func absorbsSmallErrors(error: Double) {
        var clock = PlaybackClock(position: 10, at: t0)
        clock.synchronize(toAudio: 11 + error, at: t0 + 1)
        // At the report the clock has not moved yet…
        #expect(abs(clock.position(at: t0 + 1) - 11) < 1e-9)
        // …then drifts toward the audio at most 0.1 s per second, never backwards…
        var previous = clock.position(at: t0 + 1)
        for step in 1...100 {
            let now = t0 + 1 + Double(step) * 0.05
            let position = clock.position(at: now)
            #expect(position > previous)
            let audio = 11 + error + Double(step) * 0.05
            #expect(abs(position - audio) <= abs(error) + 1e-9)
            previous = position
        }
        // …until it agrees with the audio, after |error| / 0.1 seconds.
        let settled = t0 + 1 + abs(error) / PlaybackClock.maximumSlew + 0.01
        #expect(abs(clock.position(at: settled) - (11 + error + settled - (t0 + 1))) < 1e-9)
    }

    @Test("a jump beyond the threshold (a seek, a stall) is followed at once", arguments: [0.31, -0.31, 5, -5, 60])
    func followsJumps(jump: Double) {
        var clock = PlaybackClock(position: 10, at: t0)
        clock.synchronize(toAudio: 11 + jump, at: t0 + 1)
        #expect(clock.position(at: t0 + 1) == 11 + jump)
        #expect(clock.position(at: t0 + 2) == 12 + jump)
    }

    @Test("regular reports with jitter keep the clock within the jitter of the audio")
    func jitteryReports() {
        var clock = PlaybackClock(position: 0, at: t0)
        // mpv reports about every 100 ms, each late by 0–20 ms (a fixed pseudo-random pattern).
        let lateness = [0.004, 0.017, 0.0, 0.011, 0.019, 0.002, 0.008, 0.015, 0.006, 0.013]
        var worst = 0.0
        for k in 1...600 {
            let sentAt = Double(k) * 0.1
            let arrives = t0 + sentAt + lateness[k % lateness.count]
            clock.synchronize(toAudio: sentAt, at: arrives)
            let truth = arrives - t0
            worst = max(worst, abs(clock.position(at: arrives) - truth))
        }
        #expect(worst < 0.03, "worst gap \(worst)")
    }

    @Test("paused, it stands still; small reports do not move it, a jump does")
    func pausedIgnoresSmallReports() {
        var clock = PlaybackClock(position: 3, at: t0)
        clock.pause(at: t0 + 1)
        #expect(clock.position(at: t0 + 10) == 4)
        clock.synchronize(toAudio: 4.02, at: t0 + 11)
        #expect(clock.position(at: t0 + 12) == 4)
        clock.synchronize(toAudio: 30, at: t0 + 12)
        #expect(clock.position(at: t0 + 20) == 30)
        clock.resume(at: t0 + 20)
        #expect(clock.position(at: t0 + 21) == 31)
    }

    @Test("skipping holds the position over a suspension")
    func skipHoldsPosition() {
        var clock = PlaybackClock(position: 0, at: t0)
        clock.skip(by: 5)
        #expect(clock.position(at: t0 + 6) == 1)
    }

    @Test(arguments: [0.5, 1.25, 2.0])
    func aRateChangeKeepsThePositionAndChangesTheSpeed(rate: Double) {
        var clock = PlaybackClock(position: 10, at: 100)
        clock.setRate(rate, at: 102)
        #expect(abs(clock.position(at: 102) - 12) < 1e-9)
        #expect(abs(clock.position(at: 104) - (12 + 2 * rate)) < 1e-9)
    }

    @Test func aRateChangeKeepsTheCorrectionStillToAbsorb() {
        var clock = PlaybackClock(position: 10, at: 100)
        clock.synchronize(toAudio: 10.2, at: 100) // 0.2 s behind, absorbed at 0.1 s a second
        clock.setRate(2, at: 101) // 0.1 absorbed so far, 0.1 to go
        #expect(abs(clock.position(at: 101) - 11.1) < 1e-9)
        #expect(abs(clock.position(at: 102) - (11.1 + 2 + 0.1)) < 1e-9)
    }

    @Test(arguments: [0.0, -1.0, Double.nan, Double.infinity])
    func aRateThatIsNotAPositiveNumberIsIgnored(rate: Double) {
        var clock = PlaybackClock(position: 10, at: 100)
        clock.setRate(rate, at: 101)
        #expect(clock.rate == 1)
        #expect(abs(clock.position(at: 103) - 13) < 1e-9)
    }

    @Test func aRateChangeWhilePausedHoldsThePosition() {
        var clock = PlaybackClock(position: 10, at: 100)
        clock.pause(at: 101)
        clock.setRate(2, at: 105)
        #expect(clock.position(at: 106) == 11)
        clock.resume(at: 110)
        #expect(abs(clock.position(at: 111) - 13) < 1e-9)
    }
}
