/// The bytes of a WAV file: the one audio format karaoke writes, for the clicks it plays itself.
public enum WaveFile {
    /// A mono 16-bit PCM WAV of `samples` at `sampleRate` Hz.
    public static func pcm16(_ samples: [Int16], sampleRate: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + samples.count * 2)
        func append(_ text: String) { bytes += Array(text.utf8) }
        func append32(_ value: Int) {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> shift) & 0xFF)) }
        }
        func append16(_ value: Int) { bytes.append(UInt8(value & 0xFF)); bytes.append(UInt8((value >> 8) & 0xFF)) }
        append("RIFF")
        append32(36 + samples.count * 2)
        append("WAVEfmt ")
        append32(16)
        append16(1) // PCM
        append16(1) // mono
        append32(sampleRate)
        append32(sampleRate * 2)
        append16(2)
        append16(16)
        append("data")
        append32(samples.count * 2)
        for sample in samples { append16(Int(UInt16(bitPattern: sample))) }
        return bytes
    }
}
