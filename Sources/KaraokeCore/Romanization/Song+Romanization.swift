extension Song {
    /// The romanizers `--romanize` tries, in order: the first that reads a line romanizes it (DESIGN §29.4).
    public static let romanizers: [any Romanizer] = [HangulRomanizer()]

    /// The song with a romanization made for each line that has none and that one of `romanizers` reads
    /// (`--romanize`, DESIGN §29.4). A word-timed line is romanized segment by segment, each on its own, so
    /// the reading keeps the line's word timing; a file's own romanization is kept.
    public func romanized(by romanizers: [any Romanizer] = Song.romanizers) -> Song {
        var song = self
        for index in song.lines.indices where song.lines[index].romanization == nil {
            let line = song.lines[index]
            guard let romanizer = romanizers.first(where: { $0.reads(line.text) }) else { continue }
            if line.isWordTimed {
                let segments = line.segments.map { segment in
                    WordSegment(start: segment.start, end: segment.end, text: romanizer.romanize(segment.text))
                }
                song.lines[index].romanization = Romanization(
                    text: segments.map(\.text).joined(), segments: segments)
            } else {
                song.lines[index].romanization = Romanization(text: romanizer.romanize(line.text))
            }
        }
        return song
    }
}
