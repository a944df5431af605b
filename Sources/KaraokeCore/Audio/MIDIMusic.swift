/// What the synthesis of a MIDI song without a channel-splitting synthesiser needs from the file (DESIGN §18.5):
/// its length, for the progress, and a copy with one channel played softer, for the accompaniment.
///
/// Read by the same reader as the lyrics, so the length follows the same tempo map.
public struct MIDIMusic: Sendable {
    /// The file's bytes (of a RIFF MIDI file, its `data` chunk), which the notes' offsets point into.
    private let bytes: [UInt8]
    /// Where every note-on's velocity byte is, with its channel.
    private let velocities: [(channel: Int, at: Int)]
    /// The time of the last event of any track, in milliseconds.
    public let milliseconds: Int

    /// The music of `bytes`, or the reader's reason when they are not a MIDI file that can be timed.
    public static func read(_ bytes: [UInt8]) -> Result<MIDIMusic, MIDIMusicError> {
        var log = DiagnosticLog(file: "")
        switch MIDIFile.read(bytes, log: &log) {
        case .success(let midi): return .success(MIDIMusic(midi))
        case .failure(let error): return .failure(MIDIMusicError(message: error.message))
        }
    }

    private init(_ midi: MIDIFile) {
        bytes = midi.bytes
        velocities = midi.tracks.flatMap { track in
            track.notes.filter(\.isOn).map { ($0.channel, $0.velocityByte) }
        }
        milliseconds = MIDITempoMap(division: midi.division, changes: midi.tempoChanges)
            .milliseconds(atTick: midi.endTick)
    }

    /// The file with every note-on of `channel` (0…15) at `velocityPercent` percent of its velocity, at least
    /// 1 (a velocity of 0 would end the note instead), and nothing else changed: the same events at the same
    /// ticks, so a synthesiser plays it in step with the file itself.
    public func softening(channel: Int, velocityPercent: Int) -> [UInt8] {
        var copy = bytes
        for note in velocities where note.channel == channel {
            let velocity = Int(copy[note.at])
            copy[note.at] = UInt8(min(127, max(1, (velocity * velocityPercent + 50) / 100)))
        }
        return copy
    }
}

/// Why bytes are not MIDI music karaoke can read.
public struct MIDIMusicError: Error, Equatable, Sendable {
    /// The reader's words, lower case, without a full stop.
    public var message: String
}
