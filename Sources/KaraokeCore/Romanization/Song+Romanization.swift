extension Song {
    /// The romanizers `--romanize` tries when nothing else is given, in order: the first that reads a line
    /// romanizes it (DESIGN §29.4). The edge adds Japanese (`FrameOptions.romanizers`).
    public static let romanizers: [any Romanizer] = [HangulRomanizer()]

    /// How many word segments, at most, are read together when one alone does not match the line's reading.
    static let longestRomanizedGroup = 6

    /// The song with a romanization made for each line that has none and that one of `romanizers` reads
    /// (`--romanize`, DESIGN §29.4); a file's own romanization is kept.
    ///
    /// The reading shown is the whole line's, as the romanizer writes it (its spaces, its readings in
    /// context). A word-timed line keeps its word timing where that reading can be aligned to its words: each
    /// segment (or run of segments, when one alone reads differently, as a kanji compound timed kanji by kanji
    /// does) is romanized alone, and its letters, spaces aside, must be the next letters of the line's
    /// reading; the segment takes that stretch of the reading and the spaces after it. When a line cannot be
    /// aligned so, its reading is not word-timed.
    public func romanized(by romanizers: [any Romanizer] = Song.romanizers) -> Song {
        var song = self
        for index in song.lines.indices where song.lines[index].romanization == nil {
            let line = song.lines[index]
            guard let romanizer = romanizers.first(where: { $0.reads(line.text) }),
                let whole = romanizer.romanize(line.text).map(Song.trimmingSpaces), !whole.isEmpty
            else { continue }
            let segments = line.isWordTimed ? Song.aligned(whole, to: line.segments, by: romanizer) : nil
            song.lines[index].romanization = Romanization(text: whole, segments: segments ?? [])
        }
        return song
    }

    /// The segments of `reading` (a whole line's) with `segments`' times, or nil when it cannot be aligned.
    static func aligned(_ reading: String, to segments: [WordSegment], by romanizer: any Romanizer) -> [WordSegment]? {
        let letters = Array(reading)
        var position = 0
        var first = 0
        var aligned: [WordSegment] = []
        while first < segments.count {
            var found: (last: Int, end: Int)?
            for last in first..<min(first + longestRomanizedGroup, segments.count) {
                guard let part = romanizer.romanize(segments[first...last].map(\.text).joined()) else { return nil }
                // A part with no letters (a space) joins the next unless it ends the line.
                if !part.contains(where: { !$0.isWhitespace }), last < segments.count - 1 { continue }
                if let end = matchEnd(of: part, in: letters, from: position) {
                    found = (last, end)
                    break
                }
            }
            guard let (last, end) = found else { return nil }
            var stop = end
            while stop < letters.count, letters[stop].isWhitespace { stop += 1 }
            aligned.append(
                WordSegment(
                    start: segments[first].start, end: segments[last].end, text: String(letters[position..<stop])))
            position = stop
            first = last + 1
        }
        return position == letters.count ? aligned : nil
    }

    /// Where `part`'s letters end when they, spaces aside, are the letters of `letters` from `start`; else nil.
    private static func matchEnd(of part: String, in letters: [Character], from start: Int) -> Int? {
        var at = start
        for letter in part where !letter.isWhitespace {
            while at < letters.count, letters[at].isWhitespace { at += 1 }
            guard at < letters.count, letters[at] == letter else { return nil }
            at += 1
        }
        return at
    }

    /// `text` without the spaces at its ends.
    private static func trimmingSpaces(_ text: String) -> String {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
            let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(text[first...last])
    }
}
