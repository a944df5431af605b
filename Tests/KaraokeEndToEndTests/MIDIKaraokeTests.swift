import Foundation
import Testing

/// MIDI karaoke through the real binary: `check`, `render` and `convert` read a `.kar` like any lyric file.
@Suite("MIDI karaoke from the command line", .concurrencyLimit(4))
struct MIDIKaraokeTests {
    /// A variable-length quantity.
    static func quantity(_ value: Int) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }

    /// A meta event after a delta time.
    static func meta(_ delta: Int, _ type: UInt8, _ data: [UInt8]) -> [UInt8] {
        quantity(delta) + [0xFF, type] + quantity(data.count) + data
    }

    /// A chunk of `type` holding `data`.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let n = data.count
        return Array(type.utf8) + [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            + data
    }

    /// A Soft Karaoke file at 480 PPQ: a conductor track at 120 then 60 beats a minute from tick 1920 (2 s), and a
    /// "Words" track whose syllables fall every 480 ticks from tick 480, the melody on channel 3 with them, and
    /// CP1252 text. Syllable k starts at 0.5 s × k until 2 s, then every second.
    static func softKaraoke() -> [UInt8] {
        let conductor = meta(1920, 0x51, [0x0F, 0x42, 0x40]) + meta(0, 0x2F, [])
        var words = meta(0, 0x03, Array("Words".utf8)) + meta(0, 0x01, Array("@KMIDI KARAOKE FILE".utf8))
        words += meta(0, 0x01, Array("@TLittle Caf".utf8) + [0xE9]) + meta(0, 0x01, Array("@TThe Band".utf8))
        let syllables: [[UInt8]] = [
            Array("\\Twin".utf8), Array("kle ".utf8), Array("caf".utf8) + [0xE9, 0x20], Array("star".utf8),
            Array("/up ".utf8), Array("a".utf8), Array("bove".utf8),
        ]
        for (k, syllable) in syllables.enumerated() {
            // Each syllable with its melody note, a note-on of channel 3 and its note-off 400 ticks on.
            words += meta(480, 0x01, syllable) + [0x00, 0x93, UInt8(60 + k), 0x64]
            words += quantity(0) + [0xFF, 0x7F, 0x00] // a sequencer-specific meta event, read past
            words += quantity(0) + [0x83, UInt8(60 + k), 0x40]
        }
        words += meta(0, 0x2F, [])
        // The note-offs above come at once (delta 0): good enough for the reader, the melody is not asked here.
        return chunk("MThd", [0, 1, 0, 2, 0x01, 0xE0]) + chunk("MTrk", conductor) + chunk("MTrk", words)
    }

    /// Runs `body` with `song.kar` written in a new folder.
    func withSong<T>(_ body: (URL) throws -> T) throws -> T {
        try KaraokeProcess.withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("song.kar")
            try Data(Self.softKaraoke()).write(to: file)
            return try body(file)
        }
    }

    @Test("check reads a .kar: its lines, its length, its @T title and artist, the encoding guessed")
    func check() throws {
        try withSong { file in
            let output = try KaraokeProcess.run(["check", file.path])
            #expect(output.status == 0, "\(output.stderr)")
            // Syllables at 0.5, 1.0, 1.5, 2.0 s, then at 60 beats a minute 3.0, 4.0, 5.0 s; the last lasts 2 s.
            #expect(output.stdout.contains("song.kar: 2 lines, 2 word-timed, 0:07, \"Little Café — The Band\""))
            #expect(output.stderr.contains("warning: not UTF-8; read as CP1252"))
        }
    }

    @Test("render shows the line being sung at a time after a tempo change")
    func render() throws {
        try withSong { file in
            let output = try KaraokeProcess.run([
                "render", file.path, "--at", "4.2", "--format", "text", "--cols", "40", "--rows", "8",
            ])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("up above"))
            #expect(output.stdout.contains("Little Café"))
        }
    }

    @Test("convert --to elrc writes the syllables' times, exact through the tempo change")
    func convert() throws {
        try withSong { file in
            let output = try KaraokeProcess.run(["convert", file.path, "--to", "elrc"])
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.contains("[00:00.50]<00:00.50>Twin<00:01.00>kle <00:01.50>café <00:02.00>star"))
            #expect(output.stdout.contains("[00:03.00]<00:03.00>up <00:04.00>a<00:05.00>bove"))
        }
    }

    @Test("a file that is not MIDI, named .kar, is refused with the reason")
    func notMIDI() throws {
        try KaraokeProcess.withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("noise.kar")
            try Data([0x00, 0x01, 0xFF, 0x42, 0x00]).write(to: file)
            let output = try KaraokeProcess.run(["check", file.path])
            #expect(output.status == 1)
            #expect(output.stderr.contains("noise.kar: not a MIDI file (it does not start with 'MThd')"))
        }
    }
}
