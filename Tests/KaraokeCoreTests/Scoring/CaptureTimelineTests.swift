import Testing
@testable import KaraokeCore

@Suite("Timing the microphone's hops")
struct CaptureTimelineTests {
    /// A capture started at monotonic 100 s, 16 ms hops.
    static let start = 100.0
    static let hop = 0.016

    @Test("the first hop ends when its read says: the read time less what is still buffered")
    func firstHop() {
        var timeline = CaptureTimeline(hopSeconds: Self.hop)
        #expect(abs(timeline.hopEnd(readAt: 100.030, buffered: 0.010) - 100.020) < 1e-9)
    }

    @Test(
        "reads woken late do not move the hops: they stay a hop apart, at the on-time reads' times",
        arguments: [0.0, 0.004, 0.012]) // how late the late reads are, beyond the on-time ones' buffering
    func lateReadsAreIgnored(lateness: Double) {
        var timeline = CaptureTimeline(hopSeconds: Self.hop, lookBack: 16)
        var ends: [Double] = []
        for index in 1...200 {
            let captured = Self.start + Double(index) * Self.hop
            // Every fourth read is on time (5 ms in the server's buffer); the others come late by up to `lateness`.
            let late = index % 4 == 0 ? 0 : lateness * Double(index % 3 + 1) / 3
            ends.append(timeline.hopEnd(readAt: captured + 0.005 + late, buffered: 0.005))
        }
        // Once an on-time read has been seen, every hop ends at its true capture time.
        for (index, end) in ends.enumerated().dropFirst(4) {
            #expect(abs(end - (Self.start + Double(index + 1) * Self.hop)) < 1e-9)
        }
    }

    @Test("samples the server dropped are followed within the look-back, and not before")
    func droppedSamplesAreFollowed() {
        var timeline = CaptureTimeline(hopSeconds: Self.hop, lookBack: 16)
        for index in 1...50 { _ = timeline.hopEnd(readAt: Self.start + Double(index) * Self.hop, buffered: 0) }
        // 0.2 s of audio lost: from now on each hop is captured 0.2 s later than counting says.
        var ends: [Double] = []
        for index in 51...80 {
            ends.append(timeline.hopEnd(readAt: Self.start + 0.2 + Double(index) * Self.hop, buffered: 0))
        }
        #expect(abs(ends[0] - (Self.start + 51 * Self.hop)) < 1e-9) // still counting from the old start
        #expect(abs(ends[14] - (Self.start + 65 * Self.hop)) < 1e-9) // one old answer is left
        #expect(abs(ends[15] - (Self.start + 0.2 + 66 * Self.hop)) < 1e-9) // 16 new ones: the old have left
        #expect(timeline.hops == 80)
    }
}
