/// The melody of a MIDI karaoke file: the channel that follows the lyrics, and its notes as a `NoteTrack` for
/// scoring (DESIGN §7.7, §15).
///
/// 1. **Agreement.** A note-on coincides with a syllable when it starts within `coincidence` ms of it. For each
///    channel but the drums (channel 10, 9 counted from 0): recall is the share of syllables with a note-on of that
///    channel coinciding, precision the share of its note-on times during the sung lines (from a line's start less
///    `coincidence` to its last syllable's end) that coincide with a syllable. The score is their harmonic mean, so a
///    busy accompaniment that has a note near every syllable loses to the melody.
/// 2. **Choice.** The channel with the best score, the lower channel on a tie; none when its recall is below
///    `minimumRecall` (the file's music does not follow its lyrics).
/// 3. **Notes.** Note-on to note-off on the same key (velocity 0 is an off; a key struck again ends the note it
///    had; a note still on at the end ends with the file). One note at a time: of notes starting together the highest
///    is kept, and a note is cut where the next starts. Only notes starting during a sung line are kept (from its
///    start less `coincidence` to its last syllable's end, but before the next line's start less `coincidence`),
///    each in that line's `NoteLine`, on a grid of `millisecondsPerBeat` from time 0; the pitch is the key less 60.
enum MIDIMelody {
    /// How far apart a note-on and a syllable may start and still coincide, in ms.
    static let coincidence = 50
    /// The drum channel of General MIDI, counted from 0.
    static let drumChannel = 9
    /// Below this share of syllables with a coinciding note-on, no channel is the melody.
    static let minimumRecall = 1.0 / 3
    /// The beat of the note track, in ms: fine enough for the syllables of a fast song.
    static let millisecondsPerBeat = 25

    /// One note of the melody in file time.
    struct Note {
        var start: Int
        var end: Int
        var key: Int
    }

    /// The melody channel (0…15) and its notes, or nil when no channel follows the lyrics.
    static func find(in midi: MIDIFile, map: MIDITempoMap, lines: [LyricLine]) -> (channel: Int, track: NoteTrack)? {
        let syllables = lines.flatMap { $0.segments.map(\.start) }.sorted()
        guard !syllables.isEmpty else { return nil }
        let spans = lines.map { ($0.start - coincidence, $0.segments.last?.end ?? $0.end) }
        var onsets = [[Int]](repeating: [], count: 16)
        let events = orderedNotes(midi)
        for event in events where event.isOn && event.channel != drumChannel {
            onsets[event.channel].append(map.milliseconds(atTick: event.tick))
        }
        var best: (channel: Int, score: Double, recall: Double)?
        for channel in 0..<16 where !onsets[channel].isEmpty {
            let times = onsets[channel]
            // Times are in order: events are merged by tick.
            let recalled = syllables.count { nearest(to: $0, in: times) <= coincidence }
            let recall = Double(recalled) / Double(syllables.count)
            var distinct: [Int] = []
            var span = 0
            for time in times where distinct.last != time {
                // Spans are in order and do not overlap: a line's last syllable ends by the next line's start.
                while span < spans.count, spans[span].1 < time { span += 1 }
                if span < spans.count, spans[span].0 <= time { distinct.append(time) }
            }
            let precise = distinct.count { nearest(to: $0, in: syllables) <= coincidence }
            let precision = distinct.isEmpty ? 0 : Double(precise) / Double(distinct.count)
            let score = recall + precision > 0 ? 2 * recall * precision / (recall + precision) : 0
            if score > (best?.score ?? -1) { best = (channel, score, recall) }
        }
        guard let best, best.recall >= minimumRecall else { return nil }
        let notes = melodyNotes(events, channel: best.channel, map: map, endTick: midi.endTick)
        return (best.channel, noteTrack(notes, lines: lines))
    }

    /// Every note event of every track, by tick; offs before ons on one tick, so a note struck again right after
    /// it ends is not cut to nothing; file order otherwise.
    static func orderedNotes(_ midi: MIDIFile) -> [MIDIFile.NoteEvent] {
        let all = midi.tracks.flatMap(\.notes)
        let keys = all.indices.map { (tick: all[$0].tick, on: all[$0].isOn ? 1 : 0, index: $0) }
        return keys.sorted { ($0.tick, $0.on, $0.index) < ($1.tick, $1.on, $1.index) }.map { all[$0.index] }
    }

    /// The distance from `time` to the nearest of `sorted`, or `Int.max` when it is empty.
    static func nearest(to time: Int, in sorted: [Int]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < time { low = middle + 1 } else { high = middle }
        }
        var distance = Int.max
        if low < sorted.count { distance = sorted[low] - time }
        if low > 0 { distance = min(distance, time - sorted[low - 1]) }
        return distance
    }

    /// The notes of `channel`, one at a time, in order.
    static func melodyNotes(_ events: [MIDIFile.NoteEvent], channel: Int, map: MIDITempoMap, endTick: Int) -> [Note] {
        var open = [Int?](repeating: nil, count: 128)
        var notes: [Note] = []
        for event in events where event.channel == channel {
            let time = map.milliseconds(atTick: event.tick)
            if let start = open[event.key] {
                notes.append(Note(start: start, end: time, key: event.key))
                open[event.key] = nil
            }
            if event.isOn { open[event.key] = time }
        }
        let end = map.milliseconds(atTick: endTick)
        for key in 0..<128 {
            if let start = open[key] { notes.append(Note(start: start, end: max(start, end), key: key)) }
        }
        // By start, the highest first on a tie; then one note a start, each cut at the next.
        notes.sort { $0.start != $1.start ? $0.start < $1.start : $0.key > $1.key }
        var single: [Note] = []
        for note in notes where single.last?.start != note.start {
            if let last = single.indices.last { single[last].end = min(single[last].end, note.start) }
            single.append(note)
        }
        return single
    }

    /// The notes that start during a sung line, grouped by line, on the track's beat grid.
    static func noteTrack(_ notes: [Note], lines: [LyricLine]) -> NoteTrack {
        var noteLines: [NoteLine] = []
        var k = 0
        var lastBeat = Int.min
        for (index, line) in lines.enumerated() {
            // From just before the first syllable to the last one's end, and not into the next line's own margin.
            let from = line.start - coincidence
            var to = (line.segments.last?.end ?? line.end) + 1
            if index + 1 < lines.count { to = min(to, lines[index + 1].start - coincidence) }
            while k < notes.count, notes[k].start < from { k += 1 }
            var sung: [SungNote] = []
            while k < notes.count, notes[k].start < to {
                let note = notes[k]
                k += 1
                let beat = rounded(note.start), end = rounded(note.end)
                // Two notes on one beat of the grid: the first holds it.
                guard beat > lastBeat else { continue }
                lastBeat = beat
                let syllable = line.segments.first { abs($0.start - note.start) <= coincidence }?.text ?? ""
                sung.append(
                    SungNote(
                        beat: beat, length: max(1, end - beat), pitch: note.key - 60, kind: .normal, syllable: syllable)
                )
            }
            if !sung.isEmpty { noteLines.append(NoteLine(notes: sung, voice: nil, sourceLine: line.sourceLine)) }
        }
        return NoteTrack(millisecondsPerBeat: Double(millisecondsPerBeat), gap: 0, lines: noteLines)
    }

    /// The beat nearest `milliseconds` on the grid (halves up).
    static func rounded(_ milliseconds: Int) -> Int { (milliseconds + millisecondsPerBeat / 2) / millisecondsPerBeat }
}
