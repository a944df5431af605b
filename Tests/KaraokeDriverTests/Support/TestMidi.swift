import Foundation

/// A small Standard MIDI File writer for the tests: a format-1 file with a tempo track and one track per
/// channel of notes, and the song's length computed from its own tempo map.
struct TestMidi {
    /// One note: its channel, key, velocity, and start and length in ticks.
    struct Note {
        var channel: Int
        var key: Int
        var velocity = 100
        var start: Int
        var length: Int
    }

    /// Ticks a quarter note.
    var ticksPerQuarter = 480
    /// Tempo changes as (tick, microseconds a quarter); 500,000 until the first.
    var tempos: [(tick: Int, microseconds: Int)] = []
    /// The instrument of each channel (General MIDI program numbers, 0-based).
    var programs: [Int: Int] = [:]
    var notes: [Note] = []

    /// The song of the synthesis tests: the melody (channel 0, a piano) alone for the first 2 s, then a tempo
    /// change to 150 bpm, then melody and bass (channel 1) together for 2 s, then the bass alone for 2 s.
    static var twoChannels: TestMidi {
        var midi = TestMidi()
        midi.programs = [0: 0, 1: 32]
        // 2 s at 120 bpm is 4 quarters; then 0.4 s a quarter: 5 quarters make 2 s.
        midi.tempos = [(0, 500_000), (4 * 480, 400_000)]
        let melody = [60, 62, 64, 65, 67, 65, 64, 62, 60]
        for (index, key) in melody.enumerated() {
            midi.notes.append(Note(channel: 0, key: key, start: index * 480, length: 440))
        }
        for index in 0..<10 {
            midi.notes.append(
                Note(channel: 1, key: 36 + index % 3, velocity: 110, start: (4 + index) * 480, length: 440))
        }
        return midi
    }

    /// The tick of the last event (the last note's end).
    var lastTick: Int { notes.map { $0.start + $0.length }.max() ?? 0 }

    /// Seconds at `tick`, through the tempo map.
    func seconds(at tick: Int) -> Double {
        var seconds = 0.0, from = 0, tempo = 500_000
        for change in tempos.sorted(by: { $0.tick < $1.tick }) where change.tick < tick {
            seconds += Double(change.tick - from) * Double(tempo) / 1e6 / Double(ticksPerQuarter)
            from = change.tick
            tempo = change.microseconds
        }
        return seconds + Double(tick - from) * Double(tempo) / 1e6 / Double(ticksPerQuarter)
    }

    /// The song's length: the time of its last event.
    var length: Double { seconds(at: lastTick) }

    /// The file's bytes.
    var bytes: [UInt8] {
        var tempoEvents: [(Int, [UInt8])] = tempos.map { change in
            (change.tick, [0xFF, 0x51, 0x03] + bigEndian(change.microseconds, count: 3))
        }
        tempoEvents.sort { $0.0 < $1.0 }
        var tracks = [track(tempoEvents)]
        for channel in Set(notes.map(\.channel)).sorted() {
            var events: [(Int, [UInt8])] = []
            if let program = programs[channel] { events.append((0, [UInt8(0xC0 | channel), UInt8(program)])) }
            for note in notes where note.channel == channel {
                events.append((note.start, [UInt8(0x90 | channel), UInt8(note.key), UInt8(note.velocity)]))
                events.append((note.start + note.length, [UInt8(0x80 | channel), UInt8(note.key), 0]))
            }
            // Note-offs before note-ons at the same tick; otherwise in the order given.
            events = events.enumerated().sorted {
                ($0.element.0, $0.element.1[0] & 0xF0 == 0x90 ? 1 : 0, $0.offset)
                    < ($1.element.0, $1.element.1[0] & 0xF0 == 0x90 ? 1 : 0, $1.offset)
            }.map(\.element)
            tracks.append(track(events))
        }
        var file = Array("MThd".utf8) + bigEndian(6, count: 4) + bigEndian(1, count: 2)
        file += bigEndian(tracks.count, count: 2) + bigEndian(ticksPerQuarter, count: 2)
        for chunk in tracks { file += chunk }
        return file
    }

    /// A track chunk of `events` (absolute tick, bytes), with its end-of-track.
    private func track(_ events: [(Int, [UInt8])]) -> [UInt8] {
        var data: [UInt8] = []
        var tick = 0
        for (at, bytes) in events {
            data += variableLength(at - tick) + bytes
            tick = at
        }
        data += [0x00, 0xFF, 0x2F, 0x00]
        return Array("MTrk".utf8) + bigEndian(data.count, count: 4) + data
    }

    private func variableLength(_ value: Int) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }

    private func bigEndian(_ value: Int, count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) }
    }
}

/// A 16-bit stereo WAV read back: its header's fields and its samples.
struct TestWave {
    var sampleRate: Int
    var channels: Int
    var dataSize: Int
    var samples: [Int16]

    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path), data.count >= 44 else { return nil }
        let bytes = [UInt8](data)
        func u32(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        guard bytes[0..<4].elementsEqual("RIFF".utf8), bytes[36..<40].elementsEqual("data".utf8) else { return nil }
        channels = u16(22)
        sampleRate = u32(24)
        dataSize = u32(40)
        samples = stride(from: 44, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(u16($0))) }
    }

    /// Seconds of sound.
    var seconds: Double { Double(samples.count / channels) / Double(sampleRate) }

    /// The root mean square of the samples from `start` to `end` seconds, as a fraction of full scale.
    func rms(from start: Double, to end: Double) -> Double {
        let first = Int(start * Double(sampleRate)) * channels
        let last = min(samples.count, Int(end * Double(sampleRate)) * channels)
        guard last > first else { return 0 }
        let sum = samples[first..<last].reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(last - first)).squareRoot() / 32768
    }
}
