/// The monitor's level applied to the microphone's samples (DESIGN §24): pure, so a test checks every edge.
public enum MonitorGain {
    /// Multiplies every sample of `samples` by `gain` and holds the result to full scale (−1…1), so a level
    /// over 100 % clips rather than wraps; a sample that is not a number (NaN, ±∞ from a broken source) becomes
    /// silence, never noise at full scale.
    public static func apply(_ gain: Float, to samples: UnsafeMutableBufferPointer<Float>) {
        let gain = gain.isFinite ? gain : 0
        for index in samples.indices {
            let value = samples[index] * gain
            samples[index] = value.isNaN ? 0 : min(1, max(-1, value))
        }
    }

    /// `samples` at `gain`, as `apply(_:to:)` makes them.
    public static func applied(_ gain: Float, to samples: [Float]) -> [Float] {
        var samples = samples
        samples.withUnsafeMutableBufferPointer { apply(gain, to: $0) }
        return samples
    }
}
