import KaraokeDriver
import Testing

@Suite("The waiter's timeout")
struct PollWaiterTests {
    @Test(
        "the wait in milliseconds is rounded up, never negative, and held within ppoll's range",
        arguments: [
            (after: 0.034, expected: 34 as Int32), // exact
            (after: 0.0101, expected: 11), // a fraction rounds up, so the wake is never early
            (after: 0.0, expected: 0), // due now
            (after: -2.0, expected: 0), // overdue
            (after: 5.0, expected: 5000), // no cap: a still screen sleeps as long as it needs
            (after: 1e12, expected: Int32.max), // beyond ppoll's range
            (after: Double.infinity, expected: Int32.max),
        ])
    func milliseconds(after: Double, expected: Int32) {
        #expect(PollWaiter.milliseconds(until: 1_000 + after, from: 1_000) == expected)
    }
}
