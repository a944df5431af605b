import KaraokeCore
import Testing

@Suite("The music cache's rules: keys, stale temporary files, and what goes when it is full")
struct MusicCachePolicyTests {
    typealias Entry = MusicCachePolicy.Entry

    @Test("the key changes with the MIDI's bytes, the SoundFont's path, size and time, the melody and the version")
    func keyCoversEverythingThatChangesTheSound() {
        func key(
            _ midi: [UInt8] = [1, 2, 3], soundfont: String = "/sf.sf2", size: Int = 10, modified: Int = 5,
            melody: Int? = 0, version: Int = 1
        ) -> String {
            MusicCachePolicy.key(
                midi: midi, soundfont: soundfont, soundfontSize: size, soundfontModified: modified,
                melodyChannel: melody, version: version)
        }
        let base = key()
        #expect(base.count == 16 && base == key(), "16 hex digits, the same for the same input")
        let changed = [
            key([1, 2, 4]), key(soundfont: "/other.sf2"), key(size: 11), key(modified: 6), key(melody: nil),
            key(melody: 1), key(version: 2),
        ]
        #expect(Set(changed + [base]).count == changed.count + 1, "every change gives a key of its own")
    }

    @Test("the key names the synthesiser; FluidSynth's keys are the SoundFont's, as before, so its cache stays")
    func keyNamesTheSynthesiser() {
        let midi: [UInt8] = [1, 2, 3]
        let fluid = MusicCachePolicy.key(
            midi: midi, soundfont: "/sf.sf2", soundfontSize: 10, soundfontModified: 5, melodyChannel: 0, version: 2)
        // The key FluidSynth's renderings had before libsonivox came: FNV-1a of the MIDI's bytes then
        // "\0/sf.sf2\010\05\00\02", worked out apart from the code.
        #expect(fluid == "055ac1ecc177e6bc")
        #expect(
            fluid == MusicCachePolicy.key(midi: midi, synthesiser: "/sf.sf2\u{0}10\u{0}5", melodyChannel: 0, version: 2)
        )
        let eas = MusicCachePolicy.key(
            midi: midi, synthesiser: "libsonivox 3.6.11.0 at 22050 Hz", melodyChannel: 0, version: 2)
        #expect(eas != fluid)
        #expect(
            eas
                != MusicCachePolicy.key(
                    midi: midi, synthesiser: "libsonivox 3.6.12.0 at 22050 Hz", melodyChannel: 0, version: 2))
    }

    @Test("past the limit the oldest WAVs go first, until it fits; temporary and kept files stay")
    func removalsOldestFirst() {
        let entries = [
            Entry(name: "c.wav", size: 300, modified: 30), Entry(name: "a.wav", size: 300, modified: 10),
            Entry(name: "b.wav", size: 300, modified: 20), Entry(name: "d.wav.partial-x1", size: 300, modified: 5),
            Entry(name: "e.wav", size: 300, modified: 1), Entry(name: "notes.txt", size: 10, modified: 0),
        ]
        // 1,510 bytes: to fit 910, e is kept (the song playing), then a and b go; c stays.
        #expect(MusicCachePolicy.removals(entries, limit: 910, keeping: ["e.wav"]) == ["a.wav", "b.wav"])
        #expect(MusicCachePolicy.removals(entries, limit: 909, keeping: ["e.wav"]) == ["a.wav", "b.wav", "c.wav"])
        #expect(MusicCachePolicy.removals(entries, limit: 2000, keeping: []).isEmpty, "under the limit nothing goes")
    }

    @Test("a temporary file is stale once nobody has written it for a minute")
    func staleTemporaries() {
        let partial = Entry(name: "abc.wav.partial-Q1w2E3", size: 1, modified: 1000)
        #expect(!MusicCachePolicy.isStaleTemporary(partial, now: 1030), "a synthesis may still write it")
        #expect(MusicCachePolicy.isStaleTemporary(partial, now: 1061))
        #expect(!MusicCachePolicy.isStaleTemporary(Entry(name: "abc.wav", size: 1, modified: 0), now: 1e9))
    }
}

@Suite("A MIDI song's vocals are its accompaniment track")
struct AccompanimentTrackTests {
    @Test(
        "v's filter list becomes the second track, the list without it the first; other commands pass",
        arguments: [
            // vocals reduced alone
            (
                AudioCommand.setAudioFilters("lavfi=[pan=mono|c0=c0-c1]"),
                [AudioCommand.setAudioTrack(2), .setAudioFilters("")]
            ),
            // vocals reduced and a key change: the key stays a filter
            (
                .setAudioFilters("lavfi=[pan=mono|c0=c0-c1],rubberband=pitch-scale=1.059463"),
                [.setAudioTrack(2), .setAudioFilters("rubberband=pitch-scale=1.059463")]
            ),
            // vocals back, key kept
            (
                .setAudioFilters("rubberband=pitch-scale=1.059463"),
                [.setAudioTrack(1), .setAudioFilters("rubberband=pitch-scale=1.059463")]
            ),
            // not a filter list
            (.setSpeed(1.1), [.setSpeed(1.1)]),
        ])
    func translation(command: AudioCommand, expected: [AudioCommand]) {
        #expect(SingingSettings.withAccompanimentTrack(command) == expected)
    }

    @Test("the track goes to mpv as its aid property")
    func line() {
        #expect(MpvProtocol.line(for: .setAudioTrack(2)) == #"{"command":["set_property","aid",2]}"#)
    }

    @Test("a WAV header of unknown length says so in both sizes; a known one gives them")
    func waveHeader() {
        let unknown = WaveFile.stereoHeader(sampleRate: 44_100, dataBytes: nil)
        #expect(unknown.count == WaveFile.headerSize)
        #expect(
            Array(unknown[4..<8]) == [0xFF, 0xFF, 0xFF, 0xFF] && Array(unknown[40..<44]) == [0xFF, 0xFF, 0xFF, 0xFF])
        let known = WaveFile.stereoHeader(sampleRate: 44_100, dataBytes: 1000)
        #expect(Array(known[4..<8]) == [0x0C, 0x04, 0, 0] && Array(known[40..<44]) == [0xE8, 0x03, 0, 0])
        #expect(
            Array(known[22..<24]) == [2, 0] && Array(known[28..<32]) == [0x10, 0xB1, 0x02, 0], "stereo, 176,400 B/s")
    }
}
