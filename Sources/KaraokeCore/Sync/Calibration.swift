/// `karaoke sync --calibrate`: clicks to tap along to, and the `--latency` the taps suggest (DESIGN §13.1).
///
/// The clicks are a WAV made here (no file shipped, no sound from elsewhere), played through mpv like any
/// song; the taps are a sync session's stamps on that audio, taken with no latency.
public enum Calibration {
    /// How many clicks there are.
    public static let clickCount = 16
    /// When the first click sounds, in milliseconds: time to get ready.
    public static let firstClick = 2000
    /// Milliseconds between clicks (80 a minute: a singing pace).
    public static let interval = 750
    /// The clicks' sample rate.
    static let sampleRate = 8000
    /// How long one click lasts, in milliseconds.
    static let clickLength = 30

    /// When each click sounds, in milliseconds of audio time.
    public static var clickTimes: [Int] { (0..<clickCount).map { firstClick + $0 * interval } }

    /// The audio's length in milliseconds: the clicks and a second and a half after the last.
    public static var length: Int { firstClick + (clickCount - 1) * interval + 1500 }

    /// The lines shown while calibrating, one a click, lit as each is tapped.
    public static var script: SyncScript {
        SyncScript(
            metadata: SongMetadata(title: "Calibration: tap space on each click"),
            lines: (1...clickCount).map { SyncScript.Line("click \($0) of \(clickCount)") })
    }

    /// A mono 16-bit PCM WAV of the clicks: each a 1 kHz square burst that fades out over `clickLength`.
    ///
    /// A square wave needs no trigonometry and clicks as clearly as a sine.
    public static func wav() -> [UInt8] {
        let samples = length * sampleRate / 1000
        var pcm = [Int16](repeating: 0, count: samples)
        let burst = clickLength * sampleRate / 1000
        let halfPeriod = sampleRate / 2000
        for click in clickTimes {
            let start = click * sampleRate / 1000
            for offset in 0..<burst where start + offset < samples {
                let level = Double(burst - offset) / Double(burst) * 16_000
                pcm[start + offset] = Int16(offset / halfPeriod % 2 == 0 ? level : -level)
            }
        }
        return WaveFile.pcm16(pcm, sampleRate: sampleRate)
    }

    /// What the taps say: how late they were on the median, over how many taps.
    public struct Result: Sendable, Equatable {
        /// The median of tap − click, in milliseconds (positive: late).
        public var medianError: Int
        /// How many taps fell within half an interval of a click.
        public var taps: Int

        /// The `--latency` to use: the median lateness, never below 0.
        public var suggestedLatency: Int { max(0, min(2000, medianError)) }
    }

    /// The result of `taps` (milliseconds of audio time), each matched to its nearest click; nil when
    /// fewer than half the clicks were tapped, too few for a median to mean much.
    public static func result(taps: [Int]) -> Result? {
        var errors: [Int] = []
        for tap in taps {
            guard let nearest = clickTimes.min(by: { abs($0 - tap) < abs($1 - tap) }) else { continue }
            if abs(tap - nearest) < interval / 2 { errors.append(tap - nearest) }
        }
        guard errors.count >= clickCount / 2 else { return nil }
        let sorted = errors.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return Result(medianError: median, taps: errors.count)
    }
}
