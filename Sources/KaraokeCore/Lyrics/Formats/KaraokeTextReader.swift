/// One syllable of a MIDI file's lyrics, before decoding: its tick, its bytes, and the breaks around it.
struct KaraokeSyllable {
    /// What separates a syllable from the one before it.
    enum Break: Int, Comparable {
        /// It continues the line.
        case none
        /// It starts a new line (`/`, CR).
        case line
        /// It starts a new paragraph (`\`, LF).
        case paragraph

        static func < (a: Break, b: Break) -> Bool { a.rawValue < b.rawValue }
    }

    /// The tick of its event.
    var tick: Int
    /// Its text in the file's bytes, without the break marks.
    var bytes: Range<Int>
    /// The break before it.
    var breakBefore: Break
    /// The break after it (a trailing CR or LF).
    var breakAfter: Break
}

/// Picks a MIDI file's lyric convention and words track and splits its events into syllables
/// (`MIDIKaraokeParser`'s rules 1–3 and 6).
struct KaraokeTextReader {
    let midi: MIDIFile

    /// Whether a text event's bytes are an `@` header tag.
    func isTag(_ range: Range<Int>) -> Bool { !range.isEmpty && midi.bytes[range.lowerBound] == UInt8(ascii: "@") }

    /// Whether a track is named "Words" (any case, outer spaces ignored).
    func isWordsTrack(_ track: MIDIFile.Track) -> Bool {
        guard let name = track.name else { return false }
        let trimmed = ByteScanner.trimmed(midi.bytes, name)
        return trimmed.count == 5
            && zip(midi.bytes[trimmed], "words".utf8).allSatisfy { ByteScanner.lowercased($0) == $1 }
    }

    /// The syllables of the chosen track in order, and the values of the `@T` tags (title, then artist).
    mutating func syllables() -> (syllables: [KaraokeSyllable], titles: [Range<Int>]) {
        var titles: [Range<Int>] = []
        for track in midi.tracks {
            for event in track.texts where isTag(event.bytes) && event.bytes.count >= 2 {
                let letter = ByteScanner.lowercased(midi.bytes[event.bytes.lowerBound + 1])
                if letter == UInt8(ascii: "t"), titles.count < 2 {
                    titles.append(event.bytes.lowerBound + 2..<event.bytes.upperBound)
                }
            }
        }
        let lyricEvents = midi.tracks.reduce(0) { $0 + $1.lyrics.count { !$0.bytes.isEmpty } }
        let textEvents = midi.tracks.reduce(0) { $0 + $1.texts.count { !$0.bytes.isEmpty && !isTag($0.bytes) } }
        var usesLyricEvents =
            lyricEvents > 0 && (lyricEvents >= MIDIKaraokeParser.lyricEventQuantity || lyricEvents >= textEvents)
        // Lyric events copied from a Soft Karaoke track sometimes lose its line marks: one line for a whole song.
        if usesLyricEvents, textEvents >= MIDIKaraokeParser.lyricEventQuantity,
            !midi.tracks.contains(where: { $0.lyrics.contains(where: breaksLine) }),
            midi.tracks.contains(where: { $0.texts.contains { !isTag($0.bytes) && breaksLine($0) } })
        {
            usesLyricEvents = false
        }
        func events(_ track: MIDIFile.Track) -> [MIDIFile.TextEvent] {
            usesLyricEvents ? track.lyrics : track.texts.filter { !isTag($0.bytes) }
        }
        let candidates = midi.tracks.indices.filter { !events(midi.tracks[$0]).isEmpty }
        let chosen =
            candidates.first { isWordsTrack(midi.tracks[$0]) }
            ?? candidates.max { a, b in
                // `max` keeps the last of equals; comparing the index too keeps the first.
                let (x, y) = (size(events(midi.tracks[a])), size(events(midi.tracks[b])))
                return x != y ? x < y : a > b
            }
        guard let chosen else { return ([], titles) }
        var result: [KaraokeSyllable] = []
        for event in events(midi.tracks[chosen]) { split(event, into: &result) }
        return (result, titles)
    }

    /// Whether an event starts a line or a paragraph (`/`, `\\`) or holds a CR or LF.
    func breaksLine(_ event: MIDIFile.TextEvent) -> Bool {
        guard let first = event.bytes.first else { return false }
        let lead = midi.bytes[first]
        return lead == UInt8(ascii: "/") || lead == UInt8(ascii: "\\")
            || midi.bytes[event.bytes].contains { $0 == 0x0D || $0 == 0x0A }
    }

    /// The bytes of text in `events`.
    func size(_ events: [MIDIFile.TextEvent]) -> Int { events.reduce(0) { $0 + $1.bytes.count } }

    /// Splits one event at its breaks: a leading `\` or `/`, and CR and LF anywhere.
    func split(_ event: MIDIFile.TextEvent, into result: inout [KaraokeSyllable]) {
        var i = event.bytes.lowerBound
        let end = event.bytes.upperBound
        var pending = KaraokeSyllable.Break.none
        if i < end, midi.bytes[i] == UInt8(ascii: "\\") {
            pending = .paragraph
            i += 1
        } else if i < end, midi.bytes[i] == UInt8(ascii: "/") {
            pending = .line
            i += 1
        }
        var start = i
        func emit(_ upTo: Int, breakAfter: KaraokeSyllable.Break) {
            if upTo > start || pending != .none || breakAfter != .none {
                result.append(
                    KaraokeSyllable(tick: event.tick, bytes: start..<upTo, breakBefore: pending, breakAfter: breakAfter)
                )
            }
            pending = .none
        }
        while i < end {
            let byte = midi.bytes[i]
            if byte == 0x0D || byte == 0x0A {
                var mark: KaraokeSyllable.Break = byte == 0x0A ? .paragraph : .line
                var next = i + 1
                if byte == 0x0D, next < end, midi.bytes[next] == 0x0A {
                    mark = .paragraph
                    next += 1
                }
                emit(i, breakAfter: mark)
                i = next
                start = i
            } else {
                i += 1
            }
        }
        if start < end || pending != .none { emit(end, breakAfter: .none) }
    }
}
