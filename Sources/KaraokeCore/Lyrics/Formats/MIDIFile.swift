/// The parts of a Standard MIDI File that karaoke reads: the header, and of every track its name, its text and
/// lyric events, its notes and its tempo changes (DESIGN §7.7).
///
/// The reader walks the bytes once. Running status is followed, meta and system-exclusive events are skipped by
/// their variable-length length, chunks of an unknown type are skipped by theirs, and a file cut short is read as
/// far as it goes, with a warning. A RIFF MIDI file (`RMID`) is read through its `data` chunk.
struct MIDIFile {
    /// How the header counts time.
    enum Division: Equatable {
        /// Ticks per quarter note, with the tempo map giving the quarter's length.
        case ticksPerQuarter(Int)
        /// SMPTE frames: `framesPerSecond` (24, 25, 29 for 29.97 drop-frame, 30) and ticks in a frame.
        case smpte(framesPerSecond: Int, ticksPerFrame: Int)
    }

    /// A text (`FF 01`) or lyric (`FF 05`) event: its tick and where its bytes are in the file.
    struct TextEvent {
        /// The absolute tick.
        var tick: Int
        /// The event's data in the file's bytes.
        var bytes: Range<Int>
    }

    /// A note turned on or off (a note-on with velocity 0 is an off).
    struct NoteEvent {
        /// The absolute tick.
        var tick: Int
        /// 0…15, as in the status byte (drums are 9).
        var channel: Int
        /// The key, 0…127 (60 is middle C).
        var key: Int
        /// Whether the note starts here.
        var isOn: Bool
        /// Where its velocity byte is in the file's bytes (the accompaniment rewrites it, DESIGN §18.5).
        var velocityByte: Int
    }

    /// What one `MTrk` chunk holds.
    struct Track {
        /// Its first track name (`FF 03`), if it has one.
        var name: Range<Int>?
        /// Its text events, in order.
        var texts: [TextEvent] = []
        /// Its lyric events, in order.
        var lyrics: [TextEvent] = []
        /// Its note events, in order.
        var notes: [NoteEvent] = []
    }

    /// A tempo change (`FF 51`): from `tick` on, a quarter note lasts `microsecondsPerQuarter`.
    struct TempoChange: Equatable {
        /// The absolute tick, on whichever track it was found.
        var tick: Int
        /// Microseconds per quarter note, above 0.
        var microsecondsPerQuarter: Int
    }

    /// Ticks beyond this are clamped: hundreds of hours at any real division, and safe to multiply by a tempo.
    static let tickLimit = 1 << 36

    /// The file's bytes, which the events' ranges point into (the `data` of a RIFF file).
    var bytes: [UInt8]
    /// 0, 1 or 2 as the header says (an unknown format is read as 1).
    var format: Int
    /// How ticks become time.
    var division: Division
    /// The tracks in file order.
    var tracks: [Track]
    /// Every tempo change of every track, in tick order (file order for ties).
    var tempoChanges: [TempoChange]
    /// The last tick of any track's last event.
    var endTick: Int

    /// Reads `bytes`; nil, with an error in `log`'s terms returned as the message, when they are not a MIDI file
    /// that can be timed. Problems that leave something to read are warnings in `log`.
    static func read(_ bytes: [UInt8], log: inout DiagnosticLog) -> Result<MIDIFile, MIDIFileError> {
        var reader = MIDIReader(bytes: riffData(bytes) ?? bytes)
        return reader.read(log: &log)
    }

    /// The `data` chunk of a RIFF MIDI file (`RIFF … RMID`), or nil for any other bytes.
    static func riffData(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("RMID".utf8)
        else { return nil }
        var i = 12
        while i + 8 <= bytes.count {
            let size = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            let start = i + 8, end = min(bytes.count, start + size)
            if bytes[i..<i + 4].elementsEqual("data".utf8) { return Array(bytes[start..<end]) }
            // RIFF chunks are padded to an even length.
            i = start + size + (size & 1)
        }
        return nil
    }
}

/// Why a file cannot be read as MIDI at all.
struct MIDIFileError: Error {
    /// The error's text, lower case, for the diagnostic.
    var message: String
}

/// The walk over one file's bytes.
private struct MIDIReader {
    let bytes: [UInt8]
    var tracks: [MIDIFile.Track] = []
    var tempoChanges: [MIDIFile.TempoChange] = []
    var endTick = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// A big-endian number of `count` bytes at `i`.
    func bigEndian(_ i: Int, _ count: Int) -> Int {
        var value = 0
        for k in i..<i + count { value = value << 8 | Int(bytes[k]) }
        return value
    }

    /// The chunk type at `i` as shown in a message: printable ASCII, others as `?`.
    func chunkName(_ i: Int) -> String {
        String(decoding: bytes[i..<i + 4].map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    mutating func read(log: inout DiagnosticLog) -> Result<MIDIFile, MIDIFileError> {
        guard bytes.count >= 8, bytes[0..<4].elementsEqual("MThd".utf8) else {
            return .failure(MIDIFileError(message: "not a MIDI file (it does not start with 'MThd')"))
        }
        let headerLength = bigEndian(4, 4)
        guard headerLength >= 6, bytes.count >= 14 else {
            return .failure(MIDIFileError(message: "the MIDI header is cut short (\(bytes.count) bytes)"))
        }
        var format = bigEndian(8, 2)
        let announced = bigEndian(10, 2)
        let divisionWord = bigEndian(12, 2)
        let division: MIDIFile.Division
        if divisionWord & 0x8000 != 0 {
            // SMPTE: the high byte is minus the frame rate, the low byte the ticks in a frame.
            let rate = 256 - (divisionWord >> 8)
            let ticks = divisionWord & 0xFF
            guard [24, 25, 29, 30].contains(rate), ticks > 0 else {
                return .failure(
                    MIDIFileError(
                        message: "unusable SMPTE division (\(rate) frames a second, \(ticks) ticks a frame)"))
            }
            division = .smpte(framesPerSecond: rate, ticksPerFrame: ticks)
        } else {
            guard divisionWord > 0 else {
                return .failure(MIDIFileError(message: "the MIDI header gives 0 ticks per quarter note"))
            }
            division = .ticksPerQuarter(divisionWord)
        }
        if format > 2 {
            log.warn(line: 0, column: 0, "unknown MIDI format \(format); read as format 1")
            format = 1
        } else if format == 2 {
            log.warn(
                line: 0, column: 0, "MIDI format 2 (independent sequences) is read as format 1: all tracks at once")
        }
        var i = 8 + headerLength
        if i > bytes.count { i = bytes.count }
        while i + 8 <= bytes.count {
            let length = bigEndian(i + 4, 4)
            let start = i + 8
            let available = bytes.count - start
            let isTrack = bytes[i..<i + 4].elementsEqual("MTrk".utf8)
            if length > available {
                let what = isTrack ? "track \(tracks.count + 1)" : "chunk '\(chunkName(i))'"
                log.warn(
                    line: 0, column: 0,
                    "\(what) at byte \(i) is cut short: it says \(length) bytes, the file has \(available); read as far as it goes"
                )
            }
            let end = start + min(length, available)
            if isTrack { readTrack(start..<end, cut: length > available, log: &log) }
            i = end
        }
        if i < bytes.count {
            log.warn(line: 0, column: 0, "\(bytes.count - i) stray bytes at the end of the file ignored")
        }
        if tracks.count != announced {
            log.warn(
                line: 0, column: 0,
                "the MIDI header announces \(announced) track\(announced == 1 ? "" : "s"); the file has \(tracks.count)"
            )
        }
        guard !tracks.isEmpty else { return .failure(MIDIFileError(message: "the MIDI file has no track")) }
        // Stable, so that of two changes on one tick the later in file order wins.
        let keyed = tempoChanges.indices.map { (tick: tempoChanges[$0].tick, index: $0) }
        let order = keyed.sorted { $0.tick != $1.tick ? $0.tick < $1.tick : $0.index < $1.index }
        return .success(
            MIDIFile(
                bytes: bytes, format: format, division: division, tracks: tracks,
                tempoChanges: order.map { tempoChanges[$0.index] }, endTick: endTick))
    }

    /// A variable-length quantity at `i` (at most four bytes), advancing `i`; nil when it runs past `end` or on.
    func quantity(_ i: inout Int, _ end: Int) -> Int? {
        var value = 0
        for _ in 0..<4 {
            guard i < end else { return nil }
            let byte = bytes[i]
            i += 1
            value = value << 7 | Int(byte & 0x7F)
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }

    /// Reads the events of one track chunk; `cut` says the chunk is shorter than it claims.
    mutating func readTrack(_ range: Range<Int>, cut: Bool, log: inout DiagnosticLog) {
        let number = tracks.count + 1
        var track = MIDIFile.Track()
        var i = range.lowerBound
        let end = range.upperBound
        var tick = 0
        var running: UInt8?
        var problem: String?
        var endsInsideEvent = false
        events: while i < end {
            let eventStart = i
            guard let delta = quantity(&i, end) else {
                if i >= end { endsInsideEvent = true } else { problem = "malformed delta time at byte \(eventStart)" }
                break
            }
            tick = min(tick + delta, MIDIFile.tickLimit)
            guard i < end else {
                endsInsideEvent = true
                break
            }
            var status = bytes[i]
            if status < 0x80 {
                // Running status: the data byte belongs to a message of the last channel status.
                guard let last = running else {
                    problem = "data byte \(hex(status)) at byte \(i) has no status before it"
                    break
                }
                status = last
            } else {
                i += 1
            }
            switch status {
            case 0xFF:
                running = nil
                guard i < end else {
                    endsInsideEvent = true
                    break events
                }
                let type = bytes[i]
                i += 1
                guard let length = quantity(&i, end), length <= end - i else {
                    endsInsideEvent = true
                    break events
                }
                let data = i..<i + length
                i += length
                switch type {
                case 0x01: track.texts.append(MIDIFile.TextEvent(tick: tick, bytes: data))
                case 0x05: track.lyrics.append(MIDIFile.TextEvent(tick: tick, bytes: data))
                case 0x03: if track.name == nil { track.name = data }
                case 0x51:
                    guard length >= 3 else {
                        log.warn(line: 0, column: 0, "track \(number): tempo event of \(length) bytes ignored")
                        continue
                    }
                    let tempo = bigEndian(data.lowerBound, 3)
                    guard tempo > 0 else {
                        log.warn(line: 0, column: 0, "track \(number): tempo 0 at tick \(tick) ignored")
                        continue
                    }
                    tempoChanges.append(MIDIFile.TempoChange(tick: tick, microsecondsPerQuarter: tempo))
                case 0x2F:
                    endTick = max(endTick, tick)
                    break events
                default: break
                }
            case 0xF0, 0xF7:
                running = nil
                guard let length = quantity(&i, end), length <= end - i else {
                    endsInsideEvent = true
                    break events
                }
                i += length
            case 0x80...0xEF:
                running = status
                let kind = status & 0xF0
                let count = kind == 0xC0 || kind == 0xD0 ? 1 : 2
                guard count <= end - i else {
                    endsInsideEvent = true
                    break events
                }
                if kind == 0x80 || kind == 0x90 {
                    let key = Int(bytes[i] & 0x7F), velocity = bytes[i + 1] & 0x7F
                    track.notes.append(
                        MIDIFile.NoteEvent(
                            tick: tick, channel: Int(status & 0x0F), key: key, isOn: kind == 0x90 && velocity > 0,
                            velocityByte: i + 1))
                }
                i += count
            default:
                // System common and real-time messages have no place in a file, and no length to skip by.
                problem = "status byte \(hex(status)) at byte \(i - 1) is not allowed in a MIDI file"
                break events
            }
            endTick = max(endTick, tick)
        }
        if let problem {
            log.warn(line: 0, column: 0, "track \(number): \(problem); the rest of the track is skipped")
        } else if endsInsideEvent, !cut {
            // A chunk cut short was said already; one whose own length ends inside an event is said here.
            log.warn(line: 0, column: 0, "track \(number) ends inside an event; read as far as it goes")
        }
        tracks.append(track)
    }

    /// `0xF4`, for messages.
    func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
