import CFluidSynth
import CSonivox
import Glibc
import KaraokeCore

/// A MIDI song's music rendered by FluidSynth (DESIGN §18.1), or by libsonivox when no SoundFont is installed
/// (§18.5), into WAV files: the whole song and, with a melody channel, the song with that channel turned down,
/// in one pass, sample for sample in step.
public enum MidiSynthesis {
    /// What synthesises a song's music.
    public enum Synthesiser: Sendable, Equatable {
        /// FluidSynth with this SoundFont.
        case fluidSynth(soundfont: String)
        /// libsonivox's EAS synthesiser with its own built-in wavetable: no SoundFont is needed.
        case sonivox

        /// Its name, as the notices say it.
        public var name: String {
            switch self {
            case .fluidSynth: "FluidSynth"
            case .sonivox: "libsonivox"
            }
        }
    }

    /// The files' sample rate with FluidSynth.
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
    /// The Debian package of the synthesiser used when no SoundFont is installed.
    public static let fallbackPackage = "libsonivox3"

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

    /// The synthesiser for a song: FluidSynth with `given` (`--soundfont`) when it is a SoundFont (and a failure
    /// when it is not: what was asked for is not silently replaced), else FluidSynth with the first of
    /// `candidates` there is, else libsonivox when `loadSonivox` (the loader, replaced in tests) says it loads.
    public static func synthesiser(
        given: String?, candidates: [String] = installedSoundfonts,
        loadSonivox: () -> String? = { kk_sonivox_load().map { String(cString: $0) } }
    ) -> Result<Synthesiser, Failure> {
        switch soundfont(given: given, candidates: candidates) {
        case .success(let found): return .success(.fluidSynth(soundfont: found))
        case .failure(let failure) where given != nil: return .failure(failure)
        case .failure: break
        }
        guard loadSonivox() != nil else { return .success(.sonivox) }
        return .failure(
            Failure(
                message: "no General MIDI SoundFont is installed (Debian: \(packages), or \(fallbackPackage)) "
                    + "to play MIDI music"))
    }

    /// The sample rate of `synthesiser`'s files: EAS has its own, fixed when libsonivox was built.
    public static func sampleRate(of synthesiser: Synthesiser) -> Int {
        switch synthesiser {
        case .fluidSynth: sampleRate
        case .sonivox: kk_sonivox_load() == nil ? Int(kk_sonivox_rate()) : sampleRate
        }
    }

    /// The cache's key for `midi` rendered by `synthesiser` with `melodyChannel` turned down: FluidSynth's names
    /// its SoundFont by path, size and modification time, libsonivox's its version and rate (DESIGN §18.2).
    public static func cacheKey(midi: [UInt8], synthesiser: Synthesiser, melodyChannel: Int?) -> String {
        switch synthesiser {
        case .fluidSynth(let soundfont):
            var info = stat()
            _ = stat(soundfont, &info)
            return MusicCachePolicy.key(
                midi: midi, soundfont: soundfont, soundfontSize: Int(info.st_size),
                soundfontModified: Int(info.st_mtim.tv_sec), melodyChannel: melodyChannel, version: version)
        case .sonivox:
            let build = kk_sonivox_load() == nil ? String(cString: kk_sonivox_version()) : "?"
            return MusicCachePolicy.key(
                midi: midi, synthesiser: "libsonivox \(build) at \(sampleRate(of: .sonivox)) Hz",
                melodyChannel: melodyChannel, version: version)
        }
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

    /// Renders `midi` (a Standard MIDI File's bytes) with `synthesiser` into `whole` and, when `melodyChannel`
    /// (0…15) is given, `accompaniment`, two files open for writing at their start. Each gets a header of
    /// unknown length first (so a player can read the file while it grows) and its true sizes at the end.
    /// `progress` hears how far the song is (0…1) after each block of about a tenth of a second and stops the
    /// rendering by returning false. Returns the frames rendered into each file.
    public static func render(
        midi: [UInt8], synthesiser: Synthesiser, melodyChannel: Int?, whole: Int32, accompaniment: Int32?,
        progress: (Double) -> Bool
    ) -> Result<Int, Failure> {
        switch synthesiser {
        case .fluidSynth(let soundfont):
            render(
                midi: midi, soundfont: soundfont, melodyChannel: melodyChannel, whole: whole,
                accompaniment: accompaniment, progress: progress)
        case .sonivox:
            renderWithSonivox(
                midi: midi, melodyChannel: melodyChannel, whole: whole, accompaniment: accompaniment,
                progress: progress)
        }
    }

    /// Renders `midi` with FluidSynth and `soundfont`, as `render(midi:synthesiser:…)` says.
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
            let text = ControlCharacters.strip(text(reason))
            return .failure(Failure(message: "FluidSynth cannot play this MIDI file: \(text)"))
        }
        defer { kk_fluidsynth_close(renderer) }
        // About a tenth of a second a block: progress often enough, writes large enough.
        return writeWaves(
            rate: sampleRate, frames: Int(KK_FLUIDSYNTH_BLOCK) * 64, whole: whole,
            accompaniment: channel >= 0 ? accompaniment : nil, rendersAccompaniment: channel >= 0,
            position: { kk_fluidsynth_progress(renderer) }, progress: progress
        ) { wholeSamples, otherSamples, frames in
            Int(kk_fluidsynth_render(renderer, wholeSamples, otherSamples, Int32(frames)))
        }
    }

    /// The melody's velocity in the accompaniment libsonivox renders, in percent: EAS's gain grows with the
    /// square of the velocity, so √(melodyPercent / 100) of it gives the melody at `melodyPercent` of its level.
    static var sonivoxVelocityPercent: Int { Int((Double(melodyPercent) / 100).squareRoot() * 100 + 0.5) }

    /// Renders `midi` with libsonivox, as `render(midi:synthesiser:…)` says. EAS cannot split channels, so the
    /// accompaniment is a second EAS playing a copy of the file with the melody's velocities lowered, in step.
    static func renderWithSonivox(
        midi: [UInt8], melodyChannel: Int?, whole: Int32, accompaniment: Int32?, progress: (Double) -> Bool
    ) -> Result<Int, Failure> {
        guard midi.starts(with: Array("MThd".utf8)) else {
            return .failure(Failure(message: "not a Standard MIDI File"))
        }
        if let message = kk_sonivox_load() {
            return .failure(Failure(message: ControlCharacters.strip(String(cString: message))))
        }
        // The core's reader gives the length (for the progress) and the accompaniment's copy.
        let music: MIDIMusic
        switch MIDIMusic.read(midi) {
        case .success(let read): music = read
        case .failure(let error):
            return .failure(Failure(message: "libsonivox cannot play this MIDI file: \(error.message)"))
        }
        // Without a file to write it to, no accompaniment is rendered.
        let channel = accompaniment == nil ? nil : melodyChannel.flatMap { (0...15).contains($0) ? $0 : nil }
        let softened = channel.map { music.softening(channel: $0, velocityPercent: sonivoxVelocityPercent) }
        var reason = [CChar](repeating: 0, count: 512)
        let opened = midi.withUnsafeBytes { bytes in
            if let softened {
                return softened.withUnsafeBytes { other in
                    kk_sonivox_open(
                        bytes.baseAddress, bytes.count, other.baseAddress, other.count, &reason, reason.count)
                }
            }
            return kk_sonivox_open(bytes.baseAddress, bytes.count, nil, 0, &reason, reason.count)
        }
        guard let renderer = opened else {
            let text = ControlCharacters.strip(text(reason))
            return .failure(Failure(message: "libsonivox cannot play this MIDI file: \(text)"))
        }
        defer { kk_sonivox_close(renderer) }
        let length = Double(max(1, music.milliseconds))
        let block = Int(kk_sonivox_block())
        var failure = ""
        let result = writeWaves(
            rate: Int(kk_sonivox_rate()), frames: block * max(1, 2048 / block), whole: whole,
            accompaniment: channel != nil ? accompaniment : nil, rendersAccompaniment: channel != nil,
            position: { min(1, Double(kk_sonivox_position(renderer)) / length) }, progress: progress
        ) { wholeSamples, otherSamples, frames in
            var text = [CChar](repeating: 0, count: 256)
            let rendered = Int(
                kk_sonivox_render(renderer, wholeSamples, otherSamples, Int32(frames), &text, text.count))
            if rendered < 0 { failure = MidiSynthesis.text(text) }
            return rendered
        }
        if case .failure(let error) = result, !failure.isEmpty, !error.wasCancelled {
            return .failure(Failure(message: "libsonivox stopped: \(ControlCharacters.strip(failure))"))
        }
        return result
    }

    /// Writes the WAVs of one rendering at `rate` Hz into `whole` and `accompaniment` (if any): `block` renders
    /// up to `frames` frames into the two buffers (the second nil unless `rendersAccompaniment`, and then
    /// written only when there is a file for it) and says how many (fewer at the end, -1 on a failure);
    /// `position` says how far the song is, 0…1, for `progress`.
    private static func writeWaves(
        rate: Int, frames: Int, whole: Int32, accompaniment: Int32?, rendersAccompaniment: Bool,
        position: () -> Double, progress: (Double) -> Bool,
        block: (UnsafeMutablePointer<Int16>?, UnsafeMutablePointer<Int16>?, Int) -> Int
    ) -> Result<Int, Failure> {
        let outputs = [whole] + (accompaniment.map { [$0] } ?? [])
        let header = WaveFile.stereoHeader(sampleRate: rate, dataBytes: nil)
        for fd in outputs where !writeAll(header, to: fd) { return .failure(writeFailure()) }
        var wholeSamples = [Int16](repeating: 0, count: 2 * frames)
        var otherSamples = [Int16](repeating: 0, count: rendersAccompaniment ? 2 * frames : 0)
        var total = 0
        while true {
            let rendered = wholeSamples.withUnsafeMutableBufferPointer { wholeBuffer in
                otherSamples.withUnsafeMutableBufferPointer { otherBuffer in
                    block(wholeBuffer.baseAddress, rendersAccompaniment ? otherBuffer.baseAddress : nil, frames)
                }
            }
            if rendered < 0 { return .failure(Failure(message: "the synthesiser failed")) }
            total += rendered
            if !writeAll(wholeSamples, count: 2 * rendered, to: outputs[0]) { return .failure(writeFailure()) }
            if rendersAccompaniment, outputs.count > 1, !writeAll(otherSamples, count: 2 * rendered, to: outputs[1]) {
                return .failure(writeFailure())
            }
            if rendered < frames { break }
            if !progress(position()) {
                return .failure(Failure(message: "the synthesis was stopped", wasCancelled: true))
            }
        }
        let finished = WaveFile.stereoHeader(sampleRate: rate, dataBytes: total * 4)
        for fd in outputs {
            let written = finished.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
            if written != finished.count { return .failure(writeFailure()) }
        }
        return .success(total)
    }

    /// The C string a shim wrote into `buffer`.
    private static func text(_ buffer: [CChar]) -> String {
        buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
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
