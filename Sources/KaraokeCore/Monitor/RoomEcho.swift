import Glibc

/// A small room's echo for the monitor (`--reverb`, DESIGN §24.3): Schroeder's reverberator, four feedback comb
/// filters in parallel and two all-pass filters after them, in Float, one sample at a time.
///
/// Each comb repeats the voice every 30 to 44 ms (delays with no common factor, so the repeats do not pile up
/// into a pitch), each repeat quieter by the gain that makes it fall 60 dB in `decaySeconds`, and duller by a
/// one-pole low-pass in its loop, as walls take the highs first. The all-passes smear the repeats into a
/// wash without colouring it. The dry voice passes at full level and the echo is added at `wet`.
///
/// Bounded by construction: every loop gain is below 1, the input is held to full scale (a NaN or ±∞ sample
/// counts as silence) and so is the output, and a state that decays under 1e-20 is set to 0, so a long
/// silence never leaves the processor on subnormal numbers.
public struct RoomEcho: Sendable {
    /// The combs' delays in seconds (Schroeder's proportions, for a room a few metres across).
    public static let combDelays = [0.0297, 0.0371, 0.0411, 0.0437]
    /// The all-passes' delays in seconds, and their gain.
    public static let allPassDelays = [0.005, 0.0017]
    /// The all-passes' gain.
    public static let allPassGain: Float = 0.7

    /// One feedback comb: a delay line whose output, low-passed, is fed back under the input.
    private struct Comb: Sendable {
        var line: [Float]
        var index = 0
        let feedback: Float
        let damping: Float
        var filtered: Float = 0

        mutating func process(_ input: Float) -> Float {
            let output = line[index]
            filtered = RoomEcho.flushed(output * (1 - damping) + filtered * damping)
            line[index] = RoomEcho.flushed(input + filtered * feedback)
            index = index + 1 == line.count ? 0 : index + 1
            return output
        }
    }

    /// One all-pass: flat in loudness, it only spreads the repeats in time.
    private struct AllPass: Sendable {
        var line: [Float]
        var index = 0
        let gain: Float

        mutating func process(_ input: Float) -> Float {
            let delayed = line[index]
            let stored = RoomEcho.flushed(input + delayed * gain)
            line[index] = stored
            index = index + 1 == line.count ? 0 : index + 1
            return delayed - stored * gain
        }
    }

    private var combs: [Comb]
    private var allPasses: [AllPass]
    /// The echo's level beside the dry voice.
    public let wet: Float

    /// An echo for audio at `sampleRate` Hz that falls 60 dB in `decaySeconds`, added at `wet` (0…1), with
    /// `damping` (0…1) of each repeat's highs lost.
    public init(sampleRate: Int, decaySeconds: Double = 0.8, wet: Float = 0.3, damping: Float = 0.25) {
        let rate = Double(max(1, sampleRate))
        let decay = max(0.01, decaySeconds)
        combs = Self.combDelays.map { delay in
            // −60 dB over `decay`: the gain per trip of `delay` seconds is 10^(−3 × delay / decay).
            let feedback = Float(pow(10, -3 * delay / decay))
            return Comb(
                line: [Float](repeating: 0, count: max(1, Int((delay * rate).rounded()))),
                feedback: min(feedback, 0.98), damping: min(max(damping, 0), 0.95))
        }
        allPasses = Self.allPassDelays.map { delay in
            AllPass(line: [Float](repeating: 0, count: max(1, Int((delay * rate).rounded()))), gain: Self.allPassGain)
        }
        self.wet = min(max(wet, 0), 1)
    }

    /// Processes `samples` in place: each becomes the dry sample plus the echo of everything before it.
    public mutating func process(_ samples: UnsafeMutableBufferPointer<Float>) {
        let combScale = 1 / Float(combs.count)
        for position in samples.indices {
            let raw = samples[position]
            let input = raw.isFinite ? min(1, max(-1, raw)) : 0
            var echo: Float = 0
            for index in combs.indices { echo += combs[index].process(input) }
            echo *= combScale
            for index in allPasses.indices { echo = allPasses[index].process(echo) }
            samples[position] = min(1, max(-1, input + echo * wet))
        }
    }

    /// `samples` through the echo, as `process(_:)` makes them.
    public mutating func processed(_ samples: [Float]) -> [Float] {
        var samples = samples
        samples.withUnsafeMutableBufferPointer { process($0) }
        return samples
    }

    /// `value`, or 0 when it has decayed under 1e-20 (subnormal numbers are slow, and inaudible).
    static func flushed(_ value: Float) -> Float { abs(value) < 1e-20 ? 0 : value }
}
