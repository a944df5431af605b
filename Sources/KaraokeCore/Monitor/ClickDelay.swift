/// How late clicks heard at one place arrive at another (DESIGN §24.4): the monitor's latency, measured by
/// playing clicks into the microphone and finding them at the speakers.
///
/// Each recording is a list of hops of samples, each hop stamped with the monotonic time its last sample was
/// heard (`CaptureTimeline`), so the two recordings share one clock.
public enum ClickDelay {
    /// A recording: its sample rate and its hops, each with the time its last sample was heard.
    public struct Recording: Sendable {
        /// Samples a second.
        public var sampleRate: Int
        /// The hops in order: when the last sample was heard, and the samples.
        public var hops: [(end: Double, samples: [Float])]

        /// An empty recording at `sampleRate`.
        public init(sampleRate: Int, hops: [(end: Double, samples: [Float])] = []) {
            self.sampleRate = sampleRate
            self.hops = hops
        }

        /// The times at which the level first reaches `threshold` (absolute sample value), at least `gap`
        /// seconds after the previous such time: one a click.
        public func onsets(threshold: Float, gap: Double) -> [Double] {
            var found: [Double] = []
            let period = 1 / Double(max(1, sampleRate))
            for hop in hops {
                let last = hop.samples.count - 1
                for (index, sample) in hop.samples.enumerated() where abs(sample) >= threshold {
                    let time = hop.end - Double(last - index) * period
                    if let previous = found.last, time - previous < gap { continue }
                    found.append(time)
                }
            }
            return found
        }
    }

    /// For each click in `sent` (a sample at `threshold` or louder, clicks at least `gap` apart), how many
    /// seconds later `heard` has one, looking at most `within` seconds on and never past the next click sent
    /// (which would take its echo for this one's); nil for a click not heard.
    public static func delays(
        sent: Recording, heard: Recording, threshold: Float, gap: Double = 0.25, within: Double = 1
    ) -> [Double?] {
        let arrivals = heard.onsets(threshold: threshold, gap: gap)
        let starts = sent.onsets(threshold: threshold, gap: gap)
        return starts.indices.map { index in
            let start = starts[index]
            let end = min(start + within, index + 1 < starts.count ? starts[index + 1] : .infinity)
            // Two milliseconds of grace before: the two recordings' clocks each err by about a millisecond.
            return arrivals.first { $0 >= start - 0.002 && $0 < end }.map { $0 - start }
        }
    }

    /// The median of `values`; nil when there are none.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
