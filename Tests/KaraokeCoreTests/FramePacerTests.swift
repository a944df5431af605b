import Testing
@testable import KaraokeCore

@Suite("Frame pacer")
struct FramePacerTests {
    @Test(
        "the first frame is due at once, one period apart after that",
        arguments: [
            (fps: 30, period: 1.0 / 30), // the default
            (fps: 1, period: 1.0), // the slowest --fps
            (fps: 120, period: 1.0 / 120), // the fastest
            (fps: 0, period: 1.0), // nonsense is treated as 1
        ])
    func firstDeadline(fps: Int, period: Double) {
        var pacer = FramePacer(framesPerSecond: fps, now: 500)
        #expect(pacer.period == period)
        #expect(pacer.deadline == 500)
        pacer.advance(after: 500)
        #expect(abs(pacer.deadline - (500 + period)) < 1e-9)
    }

    @Test("deadlines advance by whole periods without drift over many frames")
    func noDrift() {
        let start = 12_345.678
        var pacer = FramePacer(framesPerSecond: 30, now: start)
        // Frames painted a little late each time (never a whole period): the grid stays put.
        for frame in 1...10_000 {
            let lateness = Double(frame % 7) * 0.004
            pacer.advance(after: pacer.deadline + lateness)
        }
        #expect(abs(pacer.deadline - (start + 10_000.0 / 30)) < 1e-6)
    }

    @Test("a frame painted late but within its period keeps the next deadline on the grid")
    func lateWithinPeriod() {
        var pacer = FramePacer(framesPerSecond: 10, now: 0)
        pacer.advance(after: 0)
        #expect(abs(pacer.deadline - 0.1) < 1e-12)
        pacer.advance(after: 0.19) // painted 90 ms late
        #expect(abs(pacer.deadline - 0.2) < 1e-12)
    }

    @Test(
        "after a stall the missed deadlines are skipped: the next is the first one still ahead",
        arguments: [2.5, 3.0, 7.25, 40.0, 41.999, 1_000.0])
    func stallSkips(periodsLate: Double) {
        let start = 77.7
        var pacer = FramePacer(framesPerSecond: 30, now: start)
        let period = pacer.period
        let now = start + periodsLate * period
        pacer.advance(after: now)
        // One deadline, strictly ahead, at most a period away, and still on the original grid.
        #expect(pacer.deadline > now)
        #expect(pacer.deadline <= now + period + 1e-9)
        let periods = (pacer.deadline - start) / period
        #expect(abs(periods - periods.rounded()) < 1e-6)
        #expect(periods.rounded() == (periodsLate + 1).rounded(.down))
    }

    @Test(
        "a stall ending exactly on a missed deadline waits a whole period, not a sliver",
        arguments: Array(2...60))
    func stallOnTheGrid(periodsLate: Int) {
        let start = 1_234.5
        var pacer = FramePacer(framesPerSecond: 30, now: start)
        let period = pacer.period
        let now = start + Double(periodsLate) * period
        pacer.advance(after: now)
        // A deadline a hair after `now` would paint a second frame at once: a burst.
        #expect(pacer.deadline - now > period / 2)
        #expect(abs(pacer.deadline - (start + Double(periodsLate + 1) * period)) < 1e-9)
    }

    @Test("frames painted back to back after a stall are never due at once")
    func noBurstAfterStall() {
        var pacer = FramePacer(framesPerSecond: 60, now: 0)
        var now = 0.0
        pacer.advance(after: now)
        now = 2.0 // a two-second stall
        var immediate = 0
        for _ in 0..<10 {
            if pacer.millisecondsUntilDeadline(from: now) == 0 { immediate += 1 }
            now = max(now, pacer.deadline)
            pacer.advance(after: now)
        }
        #expect(immediate <= 1)
    }

    @Test(
        "the wait is in whole milliseconds, rounded up so a wake is never early",
        arguments: [
            (deadlineAfter: 0.25, expected: 250), // exact
            (deadlineAfter: 0.0101, expected: 11), // a fraction rounds up
            (deadlineAfter: 0.000_2, expected: 1), // a sliver still waits a millisecond
            (deadlineAfter: 0.0, expected: 0), // due now
            (deadlineAfter: -0.5, expected: 0), // overdue
        ])
    func milliseconds(deadlineAfter: Double, expected: Int) {
        let pacer = FramePacer(framesPerSecond: 4, now: 100)
        #expect(pacer.millisecondsUntilDeadline(from: 100 - deadlineAfter) == expected)
    }

    @Test("a 30 fps period waits 34 ms, never 33")
    func thirtyFramesASecond() {
        var pacer = FramePacer(framesPerSecond: 30, now: 10)
        pacer.advance(after: 10)
        #expect(pacer.millisecondsUntilDeadline(from: 10) == 34)
    }
}
