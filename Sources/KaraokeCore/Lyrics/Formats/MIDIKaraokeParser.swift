/// Reads MIDI karaoke: `.kar` (Soft Karaoke) and `.mid`/`.midi` files with lyrics (DESIGN §7.7).
///
/// The lyrics are the syllables of one track, each a word segment timed by the tempo map; the melody is the notes
/// of the channel that follows them, kept for scoring. The rules:
/// 1. **Convention.** Lyric events (`FF 05`, RP-017) when the file has at least `lyricEventQuantity` of them or at
///    least as many as lyric-bearing text events; else text events (`FF 01`, Soft Karaoke). But when no lyric event
///    breaks a line and `lyricEventQuantity` text events are there that do, the text events. Text events that
///    start with `@` are header tags, never lyrics.
/// 2. **Track.** Of the tracks with events of that convention, the one named "Words" (`FF 03`, any case, outer
///    spaces ignored), else the one with the most bytes of them (the first on a tie).
/// 3. **Breaks.** A leading `\` starts a paragraph and a leading `/` a line (both conventions); CR ends a line and
///    LF a paragraph (RP-026; CR LF is a paragraph).
/// 4. **Words.** A syllable's trailing space ends its word; a leading space ends the word before it.
/// 5. **Ends.** A syllable ends where the next one of its line starts; a line's last syllable at the next line's
///    start, but at most `lastSyllableLimit` after its own start. A line ends where the next starts, or at its last
///    syllable's end when the next starts a paragraph (or there is none).
/// 6. **Tags.** The first `@T` is the title, the second the artist; `@K`, `@V`, `@I`, `@L` are read past.
public enum MIDIKaraokeParser {
    /// How long a line's last syllable lasts at most, in ms, when the next line starts later.
    public static let lastSyllableLimit = 2000
    /// This many lyric events (`FF 05`) make them the lyrics even when text events are more numerous.
    public static let lyricEventQuantity = 8

    /// Parses the bytes of a MIDI file. `file` names it in messages; `encoding` is the user's `--encoding`, else
    /// the lyric text is read as UTF-8 or, when it is not, in the encoding `TextEncoding.guess` finds.
    public static func parse(_ bytes: [UInt8], file: String, encoding: String? = nil) -> ParseResult {
        var log = DiagnosticLog(file: file)
        let midi: MIDIFile
        switch MIDIFile.read(bytes, log: &log) {
        case .success(let read): midi = read
        case .failure(let error): return log.finish(song: nil, noSongMessage: error.message)
        }
        let map = MIDITempoMap(division: midi.division, changes: midi.tempoChanges)
        var reader = KaraokeTextReader(midi: midi)
        let (pieces, titleTags) = reader.syllables()
        guard !pieces.isEmpty else {
            return log.finish(song: nil, noSongMessage: "no lyrics in the MIDI file (no text or lyric events)")
        }
        let texts = decode(
            pieces.map { midi.bytes[$0.bytes] } + titleTags.map { midi.bytes[$0] }, encoding: encoding, log: &log)
        var metadata = SongMetadata()
        let tags = texts[pieces.count...].map { $0.trimmingCharacters(in: " ") }.filter { !$0.isEmpty }
        metadata.title = tags.first
        metadata.artist = tags.dropFirst().first
        let lines = makeLines(pieces, texts: Array(texts[..<pieces.count]), map: map)
        var song = SongAssembly.assemble(metadata: metadata, timedLines: lines)
        if var assembled = song {
            if let melody = MIDIMelody.find(in: midi, map: map, lines: assembled.lines) {
                assembled.notes = melody.track
                assembled.melodyChannel = melody.channel
            }
            song = assembled
        }
        return log.finish(song: song, noSongMessage: "no lyrics in the MIDI file (its lyric events are all empty)")
    }

    /// The texts of `pieces` in UTF-8, control characters removed: all decoded together, so the encoding is
    /// decided on the whole lyric text, as for any lyric file.
    static func decode(_ pieces: [ArraySlice<UInt8>], encoding: String?, log: inout DiagnosticLog) -> [String] {
        // NUL separates the pieces: it is in no encoding's multi-byte forms, so the pieces come out whole.
        var joined: [UInt8] = []
        for (k, piece) in pieces.enumerated() {
            if k > 0 { joined.append(0) }
            joined += piece.lazy.filter { $0 != 0 }
        }
        var utf8 = joined
        if let encoding {
            switch TextEncoding.convert(joined, from: encoding) {
            case .success(let converted): utf8 = converted
            case .failure:
                log.warn(line: 0, column: 0, "lyric text is not valid \(encoding); read as UTF-8")
            }
        } else if !TextEncoding.isMostlyUTF8(joined), let guess = TextEncoding.guess(joined) {
            utf8 = guess.utf8
            log.warn(
                line: 0, column: 0, "not UTF-8; read as \(guess.encoding), a guess (--encoding NAME chooses another)")
        }
        var texts = utf8.split(separator: 0, omittingEmptySubsequences: false).map {
            ControlCharacters.strip(String(decoding: $0, as: UTF8.self))
        }
        // A conversion that lost or added a separator cannot be matched to the pieces: each is read alone then.
        if texts.count != pieces.count {
            texts = pieces.map { ControlCharacters.strip(String(decoding: $0, as: UTF8.self)) }
        }
        return texts
    }

    /// The lines of the song: syllables grouped between breaks, spaces moved to the ends of words, ends settled.
    static func makeLines(_ pieces: [KaraokeSyllable], texts: [String], map: MIDITempoMap) -> [LyricLine] {
        // Each line as (start of paragraph?, segments without ends yet).
        var drafts: [(paragraph: Bool, segments: [(start: Int, text: String)])] = []
        var pendingBreak = KaraokeSyllable.Break.paragraph
        for (piece, text) in zip(pieces, texts) {
            pendingBreak = max(pendingBreak, piece.breakBefore)
            let core = text.trimmingCharacters(in: " ")
            let leadingSpace = text.first == " ", trailingSpace = text.last == " "
            if pendingBreak != .none, !core.isEmpty {
                drafts.append((pendingBreak == .paragraph, []))
                pendingBreak = .none
            }
            guard var draft = drafts.popLast() else { continue }
            if leadingSpace || trailingSpace && core.isEmpty, let last = draft.segments.indices.last,
                draft.segments[last].text.last != " "
            {
                draft.segments[last].text += " "
            }
            if !core.isEmpty {
                draft.segments.append((map.milliseconds(atTick: piece.tick), core + (trailingSpace ? " " : "")))
            }
            drafts.append(draft)
            pendingBreak = max(pendingBreak, piece.breakAfter)
        }
        var lines: [LyricLine] = []
        for (k, draft) in drafts.enumerated() where !draft.segments.isEmpty {
            let next = drafts[(k + 1)...].first { !$0.segments.isEmpty }
            let nextStart = next?.segments[0].start
            var segments: [WordSegment] = []
            for (s, piece) in draft.segments.enumerated() {
                let isLast = s == draft.segments.count - 1
                var end: Int
                if !isLast {
                    end = draft.segments[s + 1].start
                } else {
                    end = min(nextStart ?? Int.max, piece.start + lastSyllableLimit)
                }
                end = max(end, piece.start)
                let text = isLast ? piece.text.trimmingCharacters(in: " ") : piece.text
                segments.append(WordSegment(start: piece.start, end: end, text: text))
            }
            let lastEnd = segments[segments.count - 1].end
            let lineEnd = next.map { $0.paragraph ? lastEnd : max(lastEnd, $0.segments[0].start) } ?? lastEnd
            lines.append(
                LyricLine(
                    start: segments[0].start, end: lineEnd, text: segments.map(\.text).joined(), segments: segments,
                    endIsEstimated: next == nil))
        }
        return lines
    }
}

extension String {
    /// The string without `characters` at either end.
    fileprivate func trimmingCharacters(in characters: String) -> String {
        Substring(self).trimmingCharacters(in: characters)
    }
}
