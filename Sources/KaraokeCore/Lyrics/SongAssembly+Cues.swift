extension SongAssembly {
    /// A song from lines whose ends the file states (subtitle cues, UltraStar phrases, TTML paragraphs).
    ///
    /// Unlike LRC, where a line ends at the next stamp, these formats give each line its own end, so
    /// lines may overlap (a duet) or leave gaps. The lines are sorted by start (ties keep file order);
    /// a line's end is kept as given, but never before its start. M is taken over the line-timed lines
    /// as DESIGN §2 says, every stated end counting as "followed by a timestamp". Nil for no line.
    static func assemble(metadata: SongMetadata, timedLines: [LyricLine]) -> Song? {
        let kept = timedLines.filter { !$0.text.isEmpty }
        guard !kept.isEmpty else { return nil }
        let order = kept.indices.sorted { kept[$0].start != kept[$1].start ? kept[$0].start < kept[$1].start : $0 < $1 }
        var lines = order.map { kept[$0] }
        for index in lines.indices where lines[index].end < lines[index].start {
            lines[index].end = lines[index].start
        }
        if let length = metadata.length, let last = lines.indices.last, lines[last].endIsEstimated {
            lines[last].end = max(lines[last].end, length + metadata.offset)
        }
        return Song(metadata: metadata, lines: lines, medianLineDuration: medianDuration(of: lines))
    }
}
