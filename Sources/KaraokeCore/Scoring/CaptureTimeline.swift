/// When each hop of a capture stream reached the microphone, from the reads' clock times (DESIGN §15.1).
///
/// Each read answers when the stream's first sample was captured: the read's clock time, minus what the sound
/// server says is still buffered, minus the samples read before. A read woken late only makes its answer
/// later, so the earliest answer is the best; hops are then timed by counting samples from it, exactly a hop
/// apart, free of the reads' jitter. Only the last `lookBack` answers count, so a real change (samples the
/// server dropped, a sound card whose clock drifts from ours) is followed within that many hops.
public struct CaptureTimeline: Sendable {
    /// Seconds of audio in one hop.
    public let hopSeconds: Double
    /// How many reads' answers are kept.
    public let lookBack: Int
    /// The kept answers, oldest first.
    private var answers: [Double] = []
    /// How many hops have been read.
    public private(set) var hops = 0

    /// A timeline of hops of `hopSeconds`, keeping the answers of the last `lookBack` reads.
    public init(hopSeconds: Double, lookBack: Int = 16) {
        self.hopSeconds = hopSeconds
        self.lookBack = max(1, lookBack)
        answers.reserveCapacity(self.lookBack)
    }

    /// Takes the next hop, read at monotonic `readTime` with `buffered` seconds still in the server; returns
    /// when its last sample reached the microphone.
    public mutating func hopEnd(readAt readTime: Double, buffered: Double) -> Double {
        hops += 1
        if answers.count == lookBack { answers.removeFirst() }
        let answer = readTime - buffered - Double(hops) * hopSeconds
        answers.append(answer)
        return (answers.min() ?? answer) + Double(hops) * hopSeconds
    }
}
