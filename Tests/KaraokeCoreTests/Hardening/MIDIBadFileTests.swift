import Testing

@testable import KaraokeCore

/// Truncated, malformed and hostile MIDI files: each is read as far as it goes, with diagnostics, never a crash.
@Suite("Bad MIDI files", .timeLimit(hardeningTimeLimit))
struct MIDIBadFileTests {
    /// A small but complete karaoke file: tempo, words, a melody in running status.
    static let good: [UInt8] = {
        var conductor = MIDIWriter.Track()
        conductor.tempo(0, 400_000)
        conductor.tempo(960, 600_000)
        var words = MIDIWriter.Track(runningStatus: true)
        words.name("Words")
        words.text(0, "@TGood")
        for k in 0..<8 {
            words.text(240 + k * 240, (k == 4 ? "/" : "") + "la ")
            words.note(240 + k * 240, 200, key: 60 + k, channel: 0, offAsVelocityZero: true)
        }
        return MIDIWriter(format: 1, division: 96, tracks: [conductor, words]).bytes()
    }()

    /// Parses `bytes`, requiring that a file without a song says why.
    @discardableResult
    func read(_ bytes: [UInt8]) -> ParseResult {
        let result = MIDIKaraokeParser.parse(bytes, file: "bad.kar")
        if result.song == nil { #expect(result.diagnostics.contains { $0.severity == .error }) }
        if let song = result.song {
            for line in song.lines {
                #expect(line.start <= line.end)
                #expect(line.segments.allSatisfy { $0.start <= $0.end })
            }
        }
        return result
    }

    @Test("every prefix of a good file reads without a crash, and a cut track says so")
    func everyPrefix() {
        #expect(read(Self.good).diagnostics.isEmpty)
        for count in 0..<Self.good.count {
            let result = read(Array(Self.good.prefix(count)))
            #expect(!result.diagnostics.isEmpty, "prefix of \(count) bytes")
        }
    }

    @Test("a file cut in the middle of its words keeps the syllables before the cut")
    func cutInTheMiddle() throws {
        let result = read(Array(Self.good.prefix(Self.good.count - 30)))
        let song = try #require(result.song)
        #expect(song.lines.first?.text.hasPrefix("la la") == true)
        #expect(result.diagnostics.contains { $0.message.contains("cut short") })
    }

    /// A case of broken bytes: what they are, and a word the diagnostics must contain.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var message: String
        var testDescription: String { name }
    }

    /// A header for `tracks` tracks at 480 PPQ, then `track` as one chunk whose length is `length` (its own when nil).
    static func file(track: [UInt8], length: Int? = nil, header: [UInt8] = [0, 1, 0, 1, 0x01, 0xE0]) -> [UInt8] {
        Array("MThd".utf8) + [0, 0, 0, 6] + header + Array("MTrk".utf8)
            + MIDIWriter.bigEndian(length ?? track.count, 4) + track
    }

    static let cases: [Case] = [
        Case(name: "not MIDI at all", bytes: Array("[00:01.00]la\n".utf8), message: "not a MIDI file"),
        Case(name: "a header only", bytes: Array("MThd".utf8) + [0, 0, 0, 6, 0, 1], message: "cut short"),
        Case(
            name: "zero ticks a quarter", bytes: file(track: [0, 0xFF, 0x2F, 0], header: [0, 0, 0, 1, 0, 0]),
            message: "0 ticks per quarter note"),
        Case(
            name: "an SMPTE rate that does not exist",
            bytes: file(track: [0, 0xFF, 0x2F, 0], header: [0, 0, 0, 1, 0xF0, 4]),
            message: "unusable SMPTE division"),
        Case(
            name: "a meta event claiming 256 MB",
            bytes: file(track: [0, 0xFF, 0x05, 0xFF, 0xFF, 0xFF, 0x7F] + Array("la".utf8)),
            message: "ends inside an event"),
        Case(
            name: "a track claiming 4 GB",
            bytes: file(track: [0, 0xFF, 0x05, 2] + Array("la".utf8), length: 0xFFFF_FFFF),
            message: "cut short"),
        Case(
            name: "a five-byte delta time", bytes: file(track: [0x81, 0x81, 0x81, 0x81, 0x01, 0xFF, 0x05, 1, 0x61]),
            message: "malformed delta time"),
        Case(
            name: "running status with no status before it",
            bytes: file(track: [0, 0x3C, 0x40, 0, 0xFF, 0x05, 1, 0x61]),
            message: "has no status before it"),
        Case(
            name: "running status after a meta event",
            bytes: file(track: [0, 0x90, 0x3C, 0x40, 0, 0xFF, 0x05, 1, 0x61, 0, 0x3C, 0]),
            message: "has no status before it"),
        Case(
            name: "a system message in a file",
            bytes: file(track: [0, 0xFF, 0x05, 1, 0x61, 0, 0xF4, 0, 0xFF, 0x05, 1, 0x62]),
            message: "is not allowed"),
        Case(
            name: "a tempo of zero", bytes: file(track: [0, 0xFF, 0x51, 3, 0, 0, 0, 0, 0xFF, 0x05, 1, 0x61]),
            message: "tempo 0"),
        Case(
            name: "more tracks announced than present",
            bytes: file(track: [0, 0xFF, 0x05, 1, 0x61], header: [0, 1, 0, 9, 0x01, 0xE0]),
            message: "announces 9 tracks"),
        Case(name: "no lyrics", bytes: file(track: [0, 0x90, 0x3C, 0x40, 0x60, 0x3C, 0]), message: "no lyrics"),
        Case(
            name: "format 7", bytes: file(track: [0, 0xFF, 0x05, 1, 0x61], header: [0, 7, 0, 1, 0, 96]),
            message: "format 7"),
    ]

    @Test("broken files give a diagnostic that says what is wrong", arguments: cases)
    func brokenFiles(_ broken: Case) {
        let result = read(broken.bytes)
        #expect(result.diagnostics.contains { $0.message.contains(broken.message) }, "\(result.diagnostics)")
    }

    @Test("random bytes after a real header never crash")
    func randomBytes() {
        var generator = SplitMix(seed: 21)
        for round in 0..<300 {
            let count = Int(generator.next() % 400)
            let noise = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            read(round % 2 == 0 ? Self.file(track: noise) : Self.good.prefix(40) + noise)
            read(noise)
        }
    }

    @Test("flipping any byte of a good file never crashes")
    func flippedBytes() {
        for index in Self.good.indices {
            var bytes = Self.good
            bytes[index] ^= 0xA5
            read(bytes)
        }
    }

    @Test("a million notes in running status and a tick count near the limit stay quick and bounded")
    func manyNotesAndFarTicks() throws {
        var track: [UInt8] = [0, 0xFF, 0x05, 2, 0x6C, 0x61, 0, 0x90, 0x3C, 0x40]
        // Off and on again a tick apart, all in running status after the first note-on.
        for _ in 0..<500_000 { track += [0x01, 0x3C, 0x00, 0x01, 0x3C, 0x40] }
        // Delta times of 2^28 - 1, many times: past 100 hours.
        for _ in 0..<2000 { track += [0xFF, 0xFF, 0xFF, 0x7F, 0xFF, 0x05, 1, 0x61] }
        let result = read(Self.file(track: track))
        let song = try #require(result.song)
        #expect(song.lines.allSatisfy { $0.end <= ByteScanner.timeLimit + MIDIKaraokeParser.lastSyllableLimit })
    }
}

/// A small deterministic generator (SplitMix64), so the random inputs are the same in every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
