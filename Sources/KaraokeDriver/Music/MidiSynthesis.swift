import CFluidSynth
import Glibc
import KaraokeCore

/// A MIDI song's music rendered by FluidSynth into WAV files (DESIGN §18.1): the whole song and, with a
/// melody channel, the song with that channel turned down, in one pass, sample for sample in step.
public enum MidiSynthesis {
    /// The files' sample rate.
    public static let sampleRate = 44_100
    /// Changes whenever what is rendered changes (the settings, the tail, the melody's level), so the cache
    /// renders afresh rather than play an old rendering.
    public static let version = 2
    /// The melody's level in the accompaniment, in percent of its level in the whole song: a faint guide
    /// rather than nothing, 20 dB down.
    public static let melodyPercent = 10
    /// Where Debian's General MIDI SoundFonts are, in the order they are preferred: the small one first.
    public static let installedSoundfonts = [
        "/usr/share/sounds/sf2/TimGM6mb.sf2", "/usr/share/sounds/sf2/FluidR3_GM.sf2",
        "/usr/share/sounds/sf2/default-GM.sf2",
    ]
    /// The Debian packages that bring what synthesis needs, as the messages name them.
    public static let packages = "libfluidsynth3 timgm6mb-soundfont"

    /// Why the music could not be rendered, in the user's words.
    public struct Failure: Error, Equatable {
        /// What went wrong, lower case, without a full stop.
        public var message: String
        /// Whether it was asked to stop (the song was left) rather than failed.
        public var wasCancelled = false
    }

    /// The SoundFont to render with: `given` (`--soundfont`) when it is one, else the first of
    /// `installedSoundfonts` there is (`candidates` in tests).
    public static func soundfont(
        given: String?, candidates: [String] = installedSoundfonts
    ) -> Result<String, Failure> {
        if let given {
            let shown = ControlCharacters.strip(given)
            guard let problem = soundfontProblem(given) else { return .success(given) }
            return .failure(Failure(message: "\(shown): \(problem)"))
        }
        if let found = candidates.first(where: { soundfontProblem($0) == nil }) { return .success(found) }
        return .failure(
            Failure(message: "no General MIDI SoundFont is installed (Debian: \(packages)) to play MIDI music"))
    }

    /// Why `path` is not a SoundFont karaoke can read, or nil: FluidSynth's own loader prints to stderr over
    /// the screen for some files that are not, so the RIFF form type is checked first.
    static func soundfontProblem(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return String(cString: strerror(errno)).lowercased() }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 12)
        let count = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, 12) }
        guard count == 12, head[0..<4] == Array("RIFF".utf8)[...], head[8..<12] == Array("sfbk".utf8)[...] else {
            return "not a SoundFont (.sf2) file"
        }
        return nil
    }

    /// Renders `midi` (a Standard MIDI File's bytes) with `soundfont` into `whole` and, when `melodyChannel`
    /// (0…15) is given, `accompaniment`, two files open for writing at their start. Each gets a header of
    /// unknown length first (so a player can read the file while it grows) and its true sizes at the end.
    /// `progress` hears how far the song is (0…1) after each block of about a tenth of a second and stops the
    /// rendering by returning false. Returns the frames rendered into each file.
    public static func render(
        midi: [UInt8], soundfont: String, melodyChannel: Int?, whole: Int32, accompaniment: Int32?,
        progress: (Double) -> Bool
    ) -> Result<Int, Failure> {
        // FluidSynth takes any bytes and plays nothing: the header's tag is checked first (the reader checks
        // the rest).
        guard midi.starts(with: Array("MThd".utf8)) else {
            return .failure(Failure(message: "not a Standard MIDI File"))
        }
        if let message = kk_fluidsynth_load() {
            return .failure(Failure(message: ControlCharacters.strip(String(cString: message))))
        }
        let channel = melodyChannel.map { (0...15).contains($0) ? $0 : -1 } ?? -1
        var reason = [CChar](repeating: 0, count: 512)
        let opened = midi.withUnsafeBytes { bytes in
            kk_fluidsynth_open(
                soundfont, bytes.baseAddress, bytes.count, Int32(channel), Int32(melodyPercent), Int32(sampleRate),
                &reason, reason.count)
        }
        guard let renderer = opened else {
            let text = ControlCharacters.strip(String(cString: reason))
            return .failure(Failure(message: "FluidSynth cannot play this MIDI file: \(text)"))
        }
        defer { kk_fluidsynth_close(renderer) }
        let outputs = channel >= 0 ? [whole] + (accompaniment.map { [$0] } ?? []) : [whole]
        let header = WaveFile.stereoHeader(sampleRate: sampleRate, dataBytes: nil)
        for fd in outputs where !writeAll(header, to: fd) { return .failure(writeFailure()) }
        // About a tenth of a second a block: progress often enough, writes large enough.
        let frames = Int(KK_FLUIDSYNTH_BLOCK) * 64
        var wholeSamples = [Int16](repeating: 0, count: 2 * frames)
        var otherSamples = [Int16](repeating: 0, count: channel >= 0 ? 2 * frames : 2)
        var total = 0
        while true {
            let rendered = Int(
                wholeSamples.withUnsafeMutableBufferPointer { wholeBuffer in
                    otherSamples.withUnsafeMutableBufferPointer { otherBuffer in
                        kk_fluidsynth_render(
                            renderer, wholeBuffer.baseAddress, channel >= 0 ? otherBuffer.baseAddress : nil,
                            Int32(frames))
                    }
                })
            total += rendered
            if !writeAll(wholeSamples, count: 2 * rendered, to: whole) { return .failure(writeFailure()) }
            if outputs.count > 1, !writeAll(otherSamples, count: 2 * rendered, to: outputs[1]) {
                return .failure(writeFailure())
            }
            if rendered < frames { break }
            if !progress(kk_fluidsynth_progress(renderer)) {
                return .failure(Failure(message: "the synthesis was stopped", wasCancelled: true))
            }
        }
        let finished = WaveFile.stereoHeader(sampleRate: sampleRate, dataBytes: total * 4)
        for fd in outputs {
            let written = finished.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            if written != finished.count { return .failure(writeFailure()) }
        }
        return .success(total)
    }

    /// The words for the write that just failed.
    private static func writeFailure() -> Failure {
        Failure(message: "cannot write the music: \(String(cString: strerror(errno)).lowercased())")
    }

    /// Writes the first `count` samples of `samples` as little-endian 16-bit (the machine's order on every
    /// platform Swift on Linux runs on).
    private static func writeAll(_ samples: [Int16], count: Int, to fd: Int32) -> Bool {
        samples.withUnsafeBytes { writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<(2 * count)]), to: fd) }
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Bool {
        bytes.withUnsafeBytes { writeAll($0, to: fd) }
    }

    private static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}
