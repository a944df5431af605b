extension SongAssembly {
    /// A song from lines whose ends the file states (subtitle cues, UltraStar phrases, TTML paragraphs).
    ///
    /// Unlike LRC, where a line ends at the next stamp, these formats give each line its own end, so
    /// lines may overlap (a duet) or leave gaps. The lines are sorted by start (ties keep file order);
    /// a line's end is kept as given, but never before its start. M is taken over the line-timed lines
    /// as DESIGN §2 says, every stated end counting as "followed by a timestamp". Nil for no line.
    static func assemble(metadata: SongMetadata, timedLines: [LyricLine]) -> Song? {
        // Most files have no empty line and are in order already: then the lines are taken as they are.
        let kept = timedLines.contains { $0.text.isEmpty } ? timedLines.filter { !$0.text.isEmpty } : timedLines
        guard !kept.isEmpty else { return nil }
        var lines = kept
        if kept.indices.dropFirst().contains(where: { kept[$0 - 1].start > kept[$0].start }) {
            let order = kept.indices.sorted {
                kept[$0].start != kept[$1].start ? kept[$0].start < kept[$1].start : $0 < $1
            }
            lines = order.map { kept[$0] }
        }
        for index in lines.indices where lines[index].end < lines[index].start {
            lines[index].end = lines[index].start
        }
        if let length = metadata.length, let last = lines.indices.last, lines[last].endIsEstimated {
            lines[last].end = max(lines[last].end, length + metadata.offset)
        }
        return Song(metadata: metadata, lines: lines, medianLineDuration: medianDuration(of: lines))
    }
}
