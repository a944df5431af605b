/// `karaoke calibrate`: clicks played through mpv and heard back on the microphone, and the `--mic-delay`
/// their round trip suggests (DESIGN §15.1).
///
/// The clicks are a WAV made here, played like a song; the edge puts every microphone analysis on the song's
/// clock (as play does when scoring) and hands the (song time, level) pairs to `result(frames:)`, which finds
/// each click's onset by its level.
public enum MicCalibration {
    /// How many clicks there are.
    public static let clickCount = 8
    /// When the first click sounds, in seconds of audio: time for the audio and the microphone to settle.
    public static let firstClick = 1.5
    /// Seconds between clicks.
    public static let interval = 0.75
    /// How long one click lasts, in seconds: longer than the microphone's analysis window (32 ms), so a
    /// click's loudest window is all click.
    public static let clickLength = 0.04
    /// The clicks' sample rate.
    static let sampleRate = 16_000
    /// The earliest a click's onset is looked for, in seconds before the click: the clocks disagree a little.
    static let earliest = 0.15
    /// The latest, in seconds after the click: a round trip longer than this is not told from the next click.
    static let latest = 0.6
    /// How far above the quiet frames' level (dB) a click's loudest window must be to count as heard.
    static let heardAbove = 20.0

    /// When each click sounds, in seconds of audio time.
    public static var clickTimes: [Double] { (0..<clickCount).map { firstClick + Double($0) * interval } }

    /// The audio's length in seconds: the clicks and a second after the last.
    public static var length: Double { firstClick + Double(clickCount - 1) * interval + 1 }

    /// A mono 16-bit PCM WAV of the clicks: each a 1 kHz square burst of `clickLength`, flat but for 2 ms
    /// ramps at either end (no trigonometry needed, and it clicks as clearly as a sine).
    public static func wav() -> [UInt8] {
        let samples = Int(length * Double(sampleRate))
        var pcm = [Int16](repeating: 0, count: samples)
        let burst = Int(clickLength * Double(sampleRate))
        let ramp = sampleRate / 500
        let halfPeriod = sampleRate / 2000
        for click in clickTimes {
            let start = Int(click * Double(sampleRate))
            for offset in 0..<burst where start + offset < samples {
                let edge = min(offset, burst - 1 - offset)
                let level = 16_000 * Double(min(edge, ramp)) / Double(ramp)
                pcm[start + offset] = Int16(offset / halfPeriod % 2 == 0 ? level : -level)
            }
        }
        return WaveFile.pcm16(pcm, sampleRate: sampleRate)
    }

    /// What the microphone heard of the clicks.
    public struct Result: Sendable, Equatable {
        /// The median round trip (onset heard − click played, on the song's clock), in milliseconds.
        public var medianMilliseconds: Int
        /// The slowest round trip minus the quickest, in milliseconds.
        public var spreadMilliseconds: Int
        /// How many clicks were heard.
        public var heard: Int

        /// The `--mic-delay` to use: the median round trip.
        public var micDelay: Int { medianMilliseconds }
    }

    /// The round trip of each click heard in `frames` (song time in seconds and level in dBFS of each
    /// analysis, in time order), in seconds; nil for a click not heard.
    ///
    /// A click's onset is where the level first reaches 3 dB under the loudest window near it: the window
    /// half full of click, which is when a window's middle (the time a frame carries) meets the click's start.
    /// The crossing is interpolated between the two frames around it.
    public static func roundTrips(frames: [(time: Double, level: Double)]) -> [Double?] {
        let quiet = quietLevel(frames.map(\.level))
        return clickTimes.map { click in
            let near = frames.filter { $0.time >= click - earliest && $0.time < click + latest }
            guard let loudest = near.map(\.level).max(), loudest >= quiet + heardAbove else { return nil }
            let threshold = loudest - 3
            guard let index = near.firstIndex(where: { $0.level >= threshold }) else { return nil }
            var onset = near[index].time
            if index > 0 {
                let before = near[index - 1]
                let rise = near[index].level - before.level
                if rise > 0 {
                    onset = before.time + (threshold - before.level) / rise * (near[index].time - before.time)
                }
            }
            return onset - click
        }
    }

    /// The result of `frames` (as for `roundTrips`); nil when fewer than half the clicks were heard, too few
    /// for a median to mean much.
    public static func result(frames: [(time: Double, level: Double)]) -> Result? {
        let trips = roundTrips(frames: frames).compactMap { $0 }
        guard trips.count * 2 >= clickCount else { return nil }
        let sorted = trips.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        return Result(
            medianMilliseconds: Int((median * 1000).rounded()),
            spreadMilliseconds: Int(((sorted[sorted.count - 1] - sorted[0]) * 1000).rounded()), heard: trips.count)
    }

    /// The level of the quiet between clicks: the median of all levels, as most windows hold no click.
    static func quietLevel(_ levels: [Double]) -> Double {
        guard !levels.isEmpty else { return 0 }
        return levels.sorted()[levels.count / 2]
    }
}
