/// When the monitor's copying thread should drop what waits unread in its record stream (DESIGN §24.2).
///
/// The thread reads a block and writes it, and the write waits while the speakers' queue is full, so the
/// two streams run at one pace: whatever piled up in the record stream before the speakers started (their
/// prebuffering, the first scheduling) would stay there for the whole song, added to the latency, as would a
/// pile-up after the thread was held up, or a microphone whose clock runs a little fast. So once the
/// speakers are going (`settleReads` reads in) the backlog is dropped, and from then on the record stream's
/// latency is watched against the least it has been since: more than `slack` seconds over it for
/// `patience` reads in a row drops the backlog again. A microphone's own latency, however large, is part of
/// that least value, so it is never taken for a backlog.
public struct MonitorBacklog: Sendable {
    /// Reads before the first drop: the speakers have started by then.
    public let settleReads: Int
    /// Seconds over the least latency that count as a backlog.
    public let slack: Double
    /// Reads in a row over the slack before the backlog is dropped.
    public let patience: Int

    private var reads = 0
    private var least = Double.infinity
    private var over = 0

    /// A watch that first drops after `settleReads` reads, then when the latency stays `slack` seconds over
    /// its least for `patience` reads.
    public init(settleReads: Int = 50, slack: Double = 0.008, patience: Int = 25) {
        self.settleReads = settleReads
        self.slack = slack
        self.patience = patience
    }

    /// Takes the record stream's latency after a read (seconds; nil when the server could not say); returns
    /// whether to drop the backlog now.
    public mutating func shouldDrop(latency: Double?) -> Bool {
        reads += 1
        if reads == settleReads { return restart() }
        guard reads > settleReads, let latency else { return false }
        least = min(least, latency)
        over = latency > least + slack ? over + 1 : 0
        return over >= patience ? restart() : false
    }

    /// A drop: the least latency is measured afresh from the next read.
    private mutating func restart() -> Bool {
        least = .infinity
        over = 0
        return true
    }
}
