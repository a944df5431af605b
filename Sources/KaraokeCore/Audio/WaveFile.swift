/// The bytes of a WAV file: the one audio format karaoke writes, for the clicks it plays itself and the
/// music it synthesises for MIDI songs.
public enum WaveFile {
    /// The size of the header `stereoHeader` makes: the sample data starts there.
    public static let headerSize = 44

    /// The 44-byte header of a 16-bit PCM stereo WAV at `sampleRate` Hz with `dataBytes` bytes of samples;
    /// nil says the length is not known yet: both sizes are then 0xFFFFFFFF, which readers (ffmpeg's, so
    /// mpv's) take as "read to the end of the file" (DESIGN §18).
    public static func stereoHeader(sampleRate: Int, dataBytes: Int?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize)
        func append32(_ value: Int) {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8((value >> shift) & 0xFF)) }
        }
        func append16(_ value: Int) { bytes.append(UInt8(value & 0xFF)); bytes.append(UInt8((value >> 8) & 0xFF)) }
        // Past 4 GB the sizes cannot be written: such a file is read as one of unknown length.
        let unknown = 0xFFFF_FFFF
        let data = dataBytes.map { $0 <= unknown - 36 ? $0 : unknown } ?? unknown
        bytes += Array("RIFF".utf8)
        append32(data == unknown ? unknown : 36 + data)
        bytes += Array("WAVEfmt ".utf8)
        append32(16)
        append16(1) // PCM
        append16(2) // stereo
        append32(sampleRate)
        append32(sampleRate * 4)
        append16(4)
        append16(16)
        bytes += Array("data".utf8)
        append32(data)
        return bytes
    }

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
