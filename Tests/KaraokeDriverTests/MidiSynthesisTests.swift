import Foundation
import KaraokeCore
import KaraokeDriver
import Testing

/// Whether FluidSynth and a General MIDI SoundFont are installed (`make deps`).
private let canSynthesise =
    FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libfluidsynth.so.3")
    || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libfluidsynth.so.3")

/// A temporary folder for one test, removed by `remove()`.
struct SynthesisScratch {
    let path: String

    init() throws {
        var template = Array("\(NSTemporaryDirectory())/karaoke-synth-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// A file open for writing at `name` in the folder.
    func create(_ name: String) -> Int32 { open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o600) }

    /// Renders `midi` with `synthesiser` into this folder, with `melodyChannel` apart, checking the progress
    /// and the frames reported; the WAVs read back (the accompaniment nil without a melody channel).
    func render(_ midi: TestMidi, synthesiser: MidiSynthesis.Synthesiser, melodyChannel: Int?) throws -> (
        whole: TestWave, accompaniment: TestWave?
    ) {
        let whole = create("whole.wav"), other = create("other.wav")
        defer {
            close(whole)
            close(other)
        }
        var fractions: [Double] = []
        let result = MidiSynthesis.render(
            midi: midi.bytes, synthesiser: synthesiser, melodyChannel: melodyChannel, whole: whole, accompaniment: other
        ) { fraction in
            fractions.append(fraction)
            return true
        }
        let frames = try result.get()
        #expect(fractions == fractions.sorted(), "progress never goes back")
        #expect((fractions.last ?? 0) > 0.9, "progress reaches the end: \(fractions.last ?? 0)")
        let wave = try #require(TestWave(path: path + "/whole.wav"))
        #expect(wave.samples.count == frames * 2)
        let accompaniment = melodyChannel == nil ? nil : TestWave(path: path + "/other.wav")
        if melodyChannel != nil { #expect(accompaniment?.samples.count == frames * 2, "both files are one length") }
        return (wave, accompaniment)
    }
}

@Suite(
    "FluidSynth renders a MIDI song into WAV files",
    .enabled(if: canSynthesise, "needs libfluidsynth3 and timgm6mb-soundfont (make deps)"))
struct MidiSynthesisTests {
    /// The installed SoundFont.
    func soundfont() throws -> String {
        guard case .success(let found) = MidiSynthesis.soundfont(given: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return found
    }

    /// Renders `midi` with the melody on channel 0 into `scratch`; the two WAVs read back.
    func render(_ midi: TestMidi, in scratch: SynthesisScratch) throws -> (whole: TestWave, accompaniment: TestWave) {
        let rendered = try scratch.render(midi, synthesiser: .fluidSynth(soundfont: try soundfont()), melodyChannel: 0)
        return (rendered.whole, try #require(rendered.accompaniment))
    }

    @Test("the whole song is 44.1 kHz stereo, as long as the MIDI plus a tail of at most 3.5 s, and not silent")
    func lengthAndLevel() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let midi = TestMidi.twoChannels
        let (whole, _) = try render(midi, in: scratch)
        #expect(whole.sampleRate == 44_100 && whole.channels == 2)
        #expect(whole.dataSize == whole.samples.count * 2, "the header's size is fixed at the end")
        let tail = whole.seconds - midi.length
        // FluidSynth's release and reverb tail, bounded by the renderer (KK_FLUIDSYNTH_TAIL) plus the player's
        // own end, a few blocks after the last event.
        #expect(tail > 0.2 && tail < 3.5, "the WAV lasts \(whole.seconds) s for a MIDI of \(midi.length) s")
        #expect(whole.rms(from: 0, to: midi.length) > 0.01, "the music is heard")
    }

    @Test("the accompaniment has the melody far down where it plays alone, and the bass as loud where it does")
    func accompanimentLowersTheMelody() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let (whole, accompaniment) = try render(.twoChannels, in: scratch)
        // 0…2 s: the melody alone. 4.4…5.8 s: the bass alone, after the melody's last note has died away.
        let melody = (whole.rms(from: 0.1, to: 1.9), accompaniment.rms(from: 0.1, to: 1.9))
        let bass = (whole.rms(from: 4.4, to: 5.8), accompaniment.rms(from: 4.4, to: 5.8))
        #expect(melody.1 < melody.0 * 0.3, "melody: whole \(melody.0), accompaniment \(melody.1)")
        #expect(melody.1 > 0, "a faint guide is left")
        #expect(bass.0 > 0.005, "the bass plays: \(bass.0)")
        #expect(abs(bass.1 - bass.0) < bass.0 * 0.1, "bass: whole \(bass.0), accompaniment \(bass.1)")
    }

    @Test("a synthesis that is stopped says so and writes no more")
    func stopping() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let whole = scratch.create("whole.wav")
        defer { close(whole) }
        let result = MidiSynthesis.render(
            midi: TestMidi.twoChannels.bytes, soundfont: try soundfont(), melodyChannel: nil, whole: whole,
            accompaniment: nil
        ) { _ in false }
        #expect(throws: MidiSynthesis.Failure.self) { try result.get() }
        if case .failure(let failure) = result { #expect(failure.wasCancelled) }
    }

    @Test("bytes that are not a Standard MIDI File are refused")
    func notMidi() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let whole = scratch.create("whole.wav")
        defer { close(whole) }
        let result = MidiSynthesis.render(
            midi: Array("not a midi file".utf8), soundfont: try soundfont(), melodyChannel: 0, whole: whole,
            accompaniment: nil
        ) { _ in true }
        guard case .failure(let failure) = result else {
            Issue.record("rendered random bytes")
            return
        }
        #expect(failure.message == "not a Standard MIDI File")
    }
}

@Suite("The SoundFont is the one asked for or the first installed, and a missing one is named")
struct SoundfontChoiceTests {
    /// The message of a failed choice; nil when a SoundFont was chosen.
    func failure(_ result: Result<String, MidiSynthesis.Failure>) -> String? {
        if case .failure(let failure) = result { failure.message } else { nil }
    }

    @Test("without any SoundFont the message names the Debian packages")
    func noneInstalled() {
        let result = MidiSynthesis.soundfont(given: nil, candidates: ["/nonexistent/a.sf2", "/nonexistent/b.sf2"])
        #expect(
            failure(result)
                == "no General MIDI SoundFont is installed (Debian: libfluidsynth3 timgm6mb-soundfont) to play MIDI music"
        )
    }

    @Test("--soundfont naming a file that is not one is refused, naming it")
    func givenIsNotASoundfont() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let path = scratch.path + "/fake.sf2"
        FileManager.default.createFile(atPath: path, contents: Data("RIFF\0\0\0\0WAVE".utf8))
        #expect(failure(MidiSynthesis.soundfont(given: path)) == "\(path): not a SoundFont (.sf2) file")
        #expect(
            failure(MidiSynthesis.soundfont(given: scratch.path + "/none.sf2"))
                == "\(scratch.path)/none.sf2: no such file or directory")
    }

    @Test("the first installed SoundFont is taken, the later ones only when it is missing")
    func firstInstalled() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let second = scratch.path + "/second.sf2"
        FileManager.default.createFile(atPath: second, contents: Data("RIFF\0\0\0\0sfbk".utf8))
        #expect(
            MidiSynthesis.soundfont(given: nil, candidates: [scratch.path + "/first.sf2", second]) == .success(second))
    }
}

@Suite(
    "Synthesised music is kept in the cache, reused and bounded",
    .enabled(if: canSynthesise, "needs libfluidsynth3 and timgm6mb-soundfont (make deps)"))
struct MusicCacheTests {
    /// Runs a job to its end; its messages.
    func synthesise(_ midi: TestMidi, into cache: MusicCache, key: String) throws -> [MusicSynthesisJob.Message] {
        guard case .success(let soundfont) = MidiSynthesis.soundfont(given: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        let job = MusicSynthesisJob.start(
            midi: midi.bytes, synthesiser: .fluidSynth(soundfont: soundfont), melodyChannel: 0, cache: cache, key: key,
            wake: nil)
        var messages: [MusicSynthesisJob.Message] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            messages += job.take()
            if messages.contains(where: {
                if case .finished = $0 { true } else if case .failed = $0 { true } else { false }
            }) {
                break
            }
            usleep(20_000)
        }
        job.stop()
        return messages
    }

    @Test("a finished synthesis lands under its key, leaves no temporary file, and is found on the next play")
    func storesAndReuses() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let cache = MusicCache(folder: scratch.path + "/music")
        #expect(cache.lookup("0123456789abcdef", withAccompaniment: true) == nil)
        let messages = try synthesise(.twoChannels, into: cache, key: "0123456789abcdef")
        let expected = cache.rendering("0123456789abcdef", withAccompaniment: true)
        #expect(messages.last == .finished(expected))
        guard case .writing(let temporary) = messages.first else {
            Issue.record("no writing message first: \(messages)")
            return
        }
        #expect(temporary.whole.hasPrefix(expected.whole + ".partial-"), "written under a temporary name")
        #expect(
            messages.contains { if case .progress(let percent) = $0 { (40...60).contains(percent) } else { false } })
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.folder).sorted()
        #expect(names == ["0123456789abcdef-accompaniment.wav", "0123456789abcdef.wav"])
        // Reused: the files are found and marked used, not written again.
        let before = try FileManager.default.attributesOfItem(atPath: expected.whole)[.size] as? Int
        #expect(cache.lookup("0123456789abcdef", withAccompaniment: true) == expected)
        let after = try FileManager.default.attributesOfItem(atPath: expected.whole)[.size] as? Int
        #expect(before == after)
    }

    @Test("past its limit the cache removes the least recently used songs, never the one just made")
    func bounded() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        // The size of the new song's two files, from a synthesis of it elsewhere (it renders the same each time).
        let measure = MusicCache(folder: scratch.path + "/measure")
        _ = try synthesise(.twoChannels, into: measure, key: "cccccccccccccccc")
        let size = measure.entries().reduce(0) { $0 + $1.size }
        #expect(size > 1_000_000)
        let folder = scratch.path + "/music"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // Two old songs of 1 MB each, the older first.
        for (index, name) in ["aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"].enumerated() {
            let path = folder + "/" + name + ".wav"
            FileManager.default.createFile(atPath: path, contents: Data(count: 1_000_000))
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: Double(-3600 + index * 60))], ofItemAtPath: path)
        }
        // Room for the new song and one old one and a half: only the older must go.
        let cache = MusicCache(folder: folder, limit: size + 1_500_000)
        let messages = try synthesise(.twoChannels, into: cache, key: "cccccccccccccccc")
        #expect(messages.last == .finished(cache.rendering("cccccccccccccccc", withAccompaniment: true)))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["bbbbbbbbbbbbbbbb.wav", "cccccccccccccccc-accompaniment.wav", "cccccccccccccccc.wav"])
    }

    @Test("a temporary file left by an interrupted synthesis is removed on the next run, a fresh one kept")
    func staleTemporaryFiles() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let folder = scratch.path + "/music"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let stale = folder + "/dddddddddddddddd.wav.partial-Ab12Cd"
        let fresh = folder + "/eeeeeeeeeeeeeeee.wav.partial-Ef34Gh"
        FileManager.default.createFile(atPath: stale, contents: Data(count: 1000))
        FileManager.default.createFile(atPath: fresh, contents: Data(count: 1000))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -600)], ofItemAtPath: stale)
        #expect(MusicCache(folder: folder).prepare())
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: fresh), "another karaoke may be writing it")
    }

    @Test("a song left while its music is synthesised leaves nothing in the cache")
    func stoppedEarly() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        guard case .success(let soundfont) = MidiSynthesis.soundfont(given: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        // A long song, so the stop comes while it is written.
        var midi = TestMidi()
        midi.notes = (0..<2000).map { TestMidi.Note(channel: 0, key: 60 + $0 % 12, start: $0 * 480, length: 400) }
        let cache = MusicCache(folder: scratch.path + "/music")
        let job = MusicSynthesisJob.start(
            midi: midi.bytes, synthesiser: .fluidSynth(soundfont: soundfont), melodyChannel: 0, cache: cache,
            key: "ffffffffffffffff", wake: nil)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline,
            !job.take().contains(where: { if case .progress(let p) = $0 { p >= 1 } else { false } })
        {
            usleep(10_000)
        }
        job.stop()
        let names = try FileManager.default.contentsOfDirectory(atPath: cache.folder)
        #expect(names.isEmpty, "left behind: \(names)")
    }
}

/// Whether libsonivox loads (`make deps` installs libsonivox3): with no SoundFont to find, it is the choice.
private let canSynthesiseWithoutSoundfont =
    MidiSynthesis.synthesiser(given: nil, candidates: []) == .success(.sonivox)

@Suite(
    "libsonivox renders a MIDI song into WAV files when no SoundFont is installed",
    .enabled(if: canSynthesiseWithoutSoundfont, "needs libsonivox3 (make deps)"))
struct SonivoxSynthesisTests {
    /// Renders `midi` with libsonivox into `scratch`, with `melodyChannel` apart; the WAVs read back (the
    /// accompaniment nil without a melody channel) and the frames the renderer reported.
    func render(_ midi: TestMidi, melodyChannel: Int?, in scratch: SynthesisScratch) throws -> (
        whole: TestWave, accompaniment: TestWave?
    ) {
        try scratch.render(midi, synthesiser: .sonivox, melodyChannel: melodyChannel)
    }

    /// A flute (nearly a sine) holding A4, 440 Hz, from 0 to 1 s and again from 3 to 4 s, silent between.
    static var flute: TestMidi {
        var midi = TestMidi()
        midi.programs = [0: 73]
        midi.notes = [
            TestMidi.Note(channel: 0, key: 69, start: 0, length: 960),
            TestMidi.Note(channel: 0, key: 69, start: 3 * 960, length: 960),
        ]
        return midi
    }

    /// The frequency of the strongest period of `wave`'s left channel from `start` to `end` seconds, looked for
    /// between 300 and 600 Hz: read at the header's rate, so a wrong rate shows as a wrong pitch.
    func pitch(_ wave: TestWave, from start: Double, to end: Double) -> Double {
        let first = Int(start * Double(wave.sampleRate)), last = Int(end * Double(wave.sampleRate))
        let left = (first..<last).map { Double(wave.samples[2 * $0]) }
        let lags = (wave.sampleRate / 600)...(wave.sampleRate / 300)
        let best = lags.max { a, b in
            let ca = zip(left, left.dropFirst(a)).reduce(0) { $0 + $1.0 * $1.1 }
            let cb = zip(left, left.dropFirst(b)).reduce(0) { $0 + $1.0 * $1.1 }
            return ca < cb
        }
        return Double(wave.sampleRate) / Double(best ?? 1)
    }

    @Test("the header carries EAS's own rate, at which an A plays at 440 Hz; notes sound and the gap is silent")
    func rateAndLevels() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let (whole, _) = try render(SonivoxSynthesisTests.flute, melodyChannel: nil, in: scratch)
        #expect(whole.sampleRate == MidiSynthesis.sampleRate(of: .sonivox) && whole.channels == 2)
        #expect(whole.dataSize == whole.samples.count * 2, "the header's size is fixed at the end")
        let heard = pitch(whole, from: 0.2, to: 0.8)
        #expect(abs(heard - 440) < 10, "A4 is heard at \(heard) Hz")
        #expect(whole.rms(from: 0.1, to: 0.9) > 0.01, "the first note sounds")
        #expect(whole.rms(from: 2.0, to: 2.9) < 0.0005, "silence between the notes")
        #expect(whole.rms(from: 3.1, to: 3.9) > 0.01, "the second note sounds")
    }

    @Test("the whole song is as long as the MIDI plus EAS's release tail, under a second")
    func length() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let midi = TestMidi.twoChannels
        let (whole, _) = try render(midi, melodyChannel: nil, in: scratch)
        let tail = whole.seconds - midi.length
        // Measured: 0.23 s past this 6 s song's last note-off (the bass's release; 0.7 s for the bench's song
        // of strings and drums). EAS ends when its last voice has, far below the renderer's cap (KK_SONIVOX_TAIL).
        #expect(tail >= 0 && tail < 1, "the WAV lasts \(whole.seconds) s for a MIDI of \(midi.length) s")
    }

    @Test("the accompaniment has the melody about 20 dB down where it plays alone, and the bass as loud")
    func accompanimentLowersTheMelody() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let (whole, other) = try render(.twoChannels, melodyChannel: 0, in: scratch)
        let accompaniment = try #require(other)
        let melody = (whole.rms(from: 0.1, to: 1.9), accompaniment.rms(from: 0.1, to: 1.9))
        let bass = (whole.rms(from: 4.4, to: 5.8), accompaniment.rms(from: 4.4, to: 5.8))
        // Measured: 0.102 of the whole song's level, 19.8 dB down.
        #expect(
            melody.1 > melody.0 * 0.07 && melody.1 < melody.0 * 0.14,
            "melody: whole \(melody.0), accompaniment \(melody.1)")
        #expect(bass.0 > 0.005, "the bass plays: \(bass.0)")
        #expect(abs(bass.1 - bass.0) < bass.0 * 0.01, "bass: whole \(bass.0), accompaniment \(bass.1)")
    }

    /// The message of a failed rendering; nil when it rendered.
    func failure(_ result: Result<Int, MidiSynthesis.Failure>) -> String? {
        if case .failure(let failure) = result { failure.message } else { nil }
    }

    @Test("bytes that are not a Standard MIDI File are refused, and a stopped synthesis says so")
    func refusalsAndStopping() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let whole = scratch.create("whole.wav")
        defer { close(whole) }
        let notMidi = MidiSynthesis.render(
            midi: Array("not a midi file".utf8), synthesiser: .sonivox, melodyChannel: nil, whole: whole,
            accompaniment: nil
        ) { _ in true }
        #expect(failure(notMidi) == "not a Standard MIDI File")
        let stopped = MidiSynthesis.render(
            midi: TestMidi.twoChannels.bytes, synthesiser: .sonivox, melodyChannel: 0, whole: whole,
            accompaniment: nil
        ) { _ in false }
        #expect(failure(stopped) == "the synthesis was stopped")
        if case .failure(let failure) = stopped { #expect(failure.wasCancelled) }
    }

    @Test("damaged MIDI files are refused or rendered as far as they go, never a crash or a hang")
    func damagedFiles() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let bytes = TestMidi.twoChannels.bytes
        var seed: UInt64 = 0x5EED
        /// The next of a fixed sequence of pseudo-random numbers, so every run tries the same files.
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33)
        }
        var damaged: [[UInt8]] = (1..<12).map { Array(bytes.prefix(bytes.count * $0 / 12)) }
        for _ in 0..<150 {
            var copy = bytes
            // Past the header's tag, which is checked first anyway: one to four bytes anywhere else.
            for _ in 0...(next() % 4) { copy[4 + next() % (copy.count - 4)] = UInt8(next() % 256) }
            damaged.append(copy)
        }
        var rendered = 0
        for midi in damaged {
            let whole = scratch.create("whole.wav"), other = scratch.create("other.wav")
            defer {
                close(whole)
                close(other)
            }
            var blocks = 0
            // At most about 20 s of music each: a damaged delta time may make a song of hours.
            let result = MidiSynthesis.render(
                midi: midi, synthesiser: .sonivox, melodyChannel: 0, whole: whole, accompaniment: other
            ) { _ in
                blocks += 1
                return blocks < 220
            }
            if case .success = result { rendered += 1 }
        }
        #expect(rendered > 0, "some damaged files still play")
    }

    @Test("libsonivox's music has a cache key of its own, never FluidSynth's for the same file")
    func keyOfItsOwn() {
        let midi = TestMidi.twoChannels.bytes
        let eas = MidiSynthesis.cacheKey(midi: midi, synthesiser: .sonivox, melodyChannel: 0)
        #expect(eas == MidiSynthesis.cacheKey(midi: midi, synthesiser: .sonivox, melodyChannel: 0))
        for soundfont in MidiSynthesis.installedSoundfonts {
            #expect(
                eas
                    != MidiSynthesis.cacheKey(
                        midi: midi, synthesiser: .fluidSynth(soundfont: soundfont), melodyChannel: 0))
        }
    }
}

@Suite("The synthesiser is FluidSynth with a SoundFont, else libsonivox, else a message naming both")
struct SynthesiserChoiceTests {
    /// The synthesiser chosen with these SoundFonts installed and libsonivox loading or not (`sonivox`).
    func choice(given: String? = nil, installed: [String], sonivox: Bool) -> MidiSynthesis.Synthesiser? {
        try? MidiSynthesis.synthesiser(given: given, candidates: installed) { sonivox ? nil : "not loaded" }.get()
    }

    /// The message when nothing can be chosen; nil when something was.
    func failure(given: String? = nil, installed: [String], sonivox: Bool) -> String? {
        let result = MidiSynthesis.synthesiser(given: given, candidates: installed) { sonivox ? nil : "not loaded" }
        if case .failure(let failure) = result { return failure.message }
        return nil
    }

    @Test("with a SoundFont installed FluidSynth plays, whether or not libsonivox loads")
    func soundfontWins() throws {
        let scratch = try SynthesisScratch()
        defer { scratch.remove() }
        let path = scratch.path + "/gm.sf2"
        _ = FileManager.default.createFile(atPath: path, contents: Data("RIFF\0\0\0\0sfbk".utf8))
        #expect(choice(installed: [path], sonivox: true) == .fluidSynth(soundfont: path))
        #expect(choice(installed: [path], sonivox: false) == .fluidSynth(soundfont: path))
    }

    @Test("without a SoundFont libsonivox plays when it loads")
    func sonivoxWithoutSoundfont() {
        #expect(choice(installed: ["/nonexistent/a.sf2"], sonivox: true) == .sonivox)
    }

    @Test("without either, the message names the packages of both")
    func neither() {
        #expect(
            failure(installed: ["/nonexistent/a.sf2"], sonivox: false)
                == "no General MIDI SoundFont is installed (Debian: libfluidsynth3 timgm6mb-soundfont, "
                + "or libsonivox3) to play MIDI music")
    }

    @Test("a --soundfont that is not one is refused, not replaced by libsonivox")
    func givenIsKept() {
        #expect(
            failure(given: "/nonexistent/mine.sf2", installed: [], sonivox: true)
                == "/nonexistent/mine.sf2: no such file or directory")
    }
}
