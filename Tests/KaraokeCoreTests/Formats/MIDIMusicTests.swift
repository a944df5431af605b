import KaraokeCore
import Testing

/// What libsonivox's synthesis reads from a MIDI file (DESIGN §18.5): the length, and a copy with the melody
/// channel softer.
@Suite("A MIDI file's music: its length, and the copy with one channel softer")
struct MIDIMusicTests {
    /// A format 1 file: a conductor track at 150 bpm from the second quarter, and a track of notes on channels 0
    /// and 1 written with running status, so the rewriting must follow it.
    static var song: MIDIWriter {
        var conductor = MIDIWriter.Track()
        conductor.tempo(480, 400_000)
        var notes = MIDIWriter.Track(runningStatus: true)
        notes.note(0, 400, key: 60, channel: 0)
        notes.note(480, 400, key: 62, channel: 0, offAsVelocityZero: true)
        notes.note(480, 400, key: 36, channel: 1)
        notes.note(960, 960, key: 64, channel: 0)
        return MIDIWriter(format: 1, division: 480, tracks: [conductor, notes])
    }

    /// The velocities of the note-ons (velocity above 0) of `channel` in `bytes`, read with an independent
    /// walk of the one notes track (the last), following running status.
    func velocities(_ bytes: [UInt8], channel: UInt8) -> [UInt8] {
        // The last MTrk chunk's data.
        var start = 0
        for i in 0..<(bytes.count - 4) where bytes[i..<(i + 4)].elementsEqual("MTrk".utf8) { start = i + 8 }
        var i = start, status: UInt8 = 0, found: [UInt8] = []
        while i < bytes.count {
            while bytes[i] & 0x80 != 0 { i += 1 }
            i += 1
            if bytes[i] == 0xFF { break }
            if bytes[i] & 0x80 != 0 {
                status = bytes[i]
                i += 1
            }
            if status == 0x90 | channel, bytes[i + 1] > 0 { found.append(bytes[i + 1]) }
            i += 2
        }
        return found
    }

    @Test("the length runs through the tempo map to the last event")
    func length() throws {
        let music = try MIDIMusic.read(MIDIMusicTests.song.bytes()).get()
        // 480 ticks at 500 ms a quarter, then 1,440 ticks at 400 ms: 500 + 1,200.
        #expect(music.milliseconds == 1700)
    }

    @Test("only the channel's note-ons change, to the percentage of their velocity and never to 0")
    func softening() throws {
        let bytes = MIDIMusicTests.song.bytes()
        let music = try MIDIMusic.read(bytes).get()
        let softer = music.softening(channel: 0, velocityPercent: 32)
        #expect(softer.count == bytes.count)
        #expect(velocities(bytes, channel: 0) == [100, 100, 100])
        #expect(velocities(softer, channel: 0) == [32, 32, 32])
        #expect(velocities(softer, channel: 1) == [100], "the bass is as it was")
        let changed = zip(bytes, softer).filter { $0 != $1 }.count
        #expect(changed == 3, "three bytes changed, nothing else")
        #expect(velocities(music.softening(channel: 0, velocityPercent: 0), channel: 0) == [1, 1, 1])
    }

    @Test("bytes that are not a MIDI file are refused with the reader's reason")
    func refused() {
        #expect(throws: MIDIMusicError.self) { try MIDIMusic.read(Array("RIFF....WAVE".utf8)).get() }
    }
}
