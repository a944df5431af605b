/// A small Standard MIDI File writer of our own, for the MIDI karaoke tests: tracks of timed events with delta
/// times as variable-length quantities, meta events, notes, and running status where asked.
struct MIDIWriter {
    /// One track: its events as (absolute tick, bytes of the message without the delta time), in order.
    struct Track {
        /// The events as written, each with its absolute tick.
        var events: [(tick: Int, bytes: [UInt8])] = []
        /// Whether channel messages that repeat the previous status leave it out (running status).
        var runningStatus = false

        /// An empty track.
        init(runningStatus: Bool = false) { self.runningStatus = runningStatus }

        /// Appends a meta event `FF type length data`.
        mutating func meta(_ tick: Int, _ type: UInt8, _ data: [UInt8]) {
            events.append((tick, [0xFF, type] + MIDIWriter.quantity(data.count) + data))
        }

        /// A track name (`FF 03`).
        mutating func name(_ text: String) { meta(0, 0x03, Array(text.utf8)) }
        /// A text event (`FF 01`) with `text` as UTF-8.
        mutating func text(_ tick: Int, _ text: String) { meta(tick, 0x01, Array(text.utf8)) }
        /// A text event with raw bytes (another encoding).
        mutating func text(_ tick: Int, bytes: [UInt8]) { meta(tick, 0x01, bytes) }
        /// A lyric event (`FF 05`).
        mutating func lyric(_ tick: Int, _ text: String) { meta(tick, 0x05, Array(text.utf8)) }
        /// A tempo change (`FF 51`) to `microseconds` a quarter note.
        mutating func tempo(_ tick: Int, _ microseconds: Int) {
            meta(
                tick, 0x51,
                [UInt8(microseconds >> 16 & 0xFF), UInt8(microseconds >> 8 & 0xFF), UInt8(microseconds & 0xFF)])
        }
        /// A note from `tick` for `length` ticks on `channel` (0…15); the off is a note-on of velocity 0 when asked.
        mutating func note(_ tick: Int, _ length: Int, key: Int, channel: Int = 0, offAsVelocityZero: Bool = false) {
            events.append((tick, [0x90 | UInt8(channel), UInt8(key), 100]))
            let off: [UInt8] =
                offAsVelocityZero ? [0x90 | UInt8(channel), UInt8(key), 0] : [0x80 | UInt8(channel), UInt8(key), 64]
            events.append((tick + length, off))
        }
        /// A system-exclusive event `F0 length data`.
        mutating func sysex(_ tick: Int, _ data: [UInt8]) {
            events.append((tick, [0xF0] + MIDIWriter.quantity(data.count) + data))
        }
        /// Any bytes as one event, written as they are after the delta time.
        mutating func raw(_ tick: Int, _ bytes: [UInt8]) { events.append((tick, bytes)) }

        /// The chunk's data: events sorted by tick (stable), delta times, running status, and the end of track.
        func data() -> [UInt8] {
            let order = events.indices.sorted {
                events[$0].tick != events[$1].tick ? events[$0].tick < events[$1].tick : $0 < $1
            }
            var output: [UInt8] = []
            var tick = 0
            var status: UInt8?
            for index in order {
                let event = events[index]
                output += MIDIWriter.quantity(event.tick - tick)
                tick = event.tick
                var bytes = event.bytes
                if let first = bytes.first, first >= 0x80, first < 0xF0 {
                    if runningStatus, status == first { bytes.removeFirst() }
                    status = first
                } else {
                    status = nil
                }
                output += bytes
            }
            return output + [0x00, 0xFF, 0x2F, 0x00]
        }
    }

    /// 0, 1 or 2.
    var format = 1
    /// Ticks per quarter note (or the raw division word, for SMPTE tests).
    var division = 480
    /// The tracks.
    var tracks: [Track] = []

    /// The file's bytes.
    func bytes() -> [UInt8] {
        var output = Array("MThd".utf8) + MIDIWriter.bigEndian(6, 4)
        output +=
            MIDIWriter.bigEndian(format, 2) + MIDIWriter.bigEndian(tracks.count, 2) + MIDIWriter.bigEndian(division, 2)
        for track in tracks {
            let data = track.data()
            output += Array("MTrk".utf8) + MIDIWriter.bigEndian(data.count, 4) + data
        }
        return output
    }

    /// `value` in `count` big-endian bytes.
    static func bigEndian(_ value: Int, _ count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(value >> (8 * $0) & 0xFF) }
    }

    /// `value` as a variable-length quantity: seven bits a byte, the high bit set on all but the last.
    static func quantity(_ value: Int) -> [UInt8] {
        var bytes = [UInt8(value & 0x7F)]
        var rest = value >> 7
        while rest > 0 {
            bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
            rest >>= 7
        }
        return bytes
    }
}
