import Foundation
import Testing

@testable import KaraokeCore

/// The Python package mido as a second opinion on MIDI times: it merges the tracks and turns ticks into seconds
/// through the tempo map on its own. Skipped when python3 or mido is missing (`python3 -m pip install mido`).
@Suite("MIDI times against mido")
struct MIDITimesSecondOpinionTests {
    /// Whether `python3 -c "import mido"` works.
    static let midoAvailable: Bool = {
        guard let status = try? run(["-c", "import mido"]).status else { return false }
        return status == 0
    }()

    /// Runs python3 with `arguments`: its exit status and standard output.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// mido's time of every lyric event in `bytes`, in milliseconds (unrounded), in order.
    static func midoTimes(_ bytes: [UInt8]) throws -> [Double] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-mido-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("song.mid")
        try Data(bytes).write(to: file)
        let script = """
            import sys, mido
            t = 0.0
            for m in mido.MidiFile(sys.argv[1]):
                t += m.time
                if m.type == 'lyrics':
                    print(repr(t * 1000))
            """
        let (status, output) = try run(["-c", script, file.path])
        #expect(status == 0)
        return output.split(separator: "\n").compactMap { Double($0) }
    }

    @Test("syllable times agree with mido's to the millisecond", .enabled(if: midoAvailable))
    func agreesWithMido() throws {
        var conductor = MIDIWriter.Track()
        var words = MIDIWriter.Track()
        var other = MIDIWriter.Track()
        // Tempo changes at awkward ticks and on two tracks; syllables at ticks that fall between milliseconds.
        conductor.tempo(0, 612_345)
        conductor.tempo(1001, 433_333)
        other.tempo(2719, 1_234_567)
        conductor.tempo(5003, 250_001)
        for k in 0..<60 { words.lyric(k * 137 + k % 7, "la ") }
        let bytes = MIDIWriter(format: 1, division: 383, tracks: [conductor, words, other]).bytes()
        let song = try #require(MIDIKaraokeParser.parse(bytes, file: "song.mid").song)
        let ours = song.lines.flatMap(\.segments).map(\.start)
        let theirs = try Self.midoTimes(bytes)
        #expect(ours.count == theirs.count)
        for (a, b) in zip(ours, theirs) { #expect(abs(Double(a) - b) <= 0.5 + 1e-6, "ours \(a) ms, mido's \(b) ms") }
    }
}
