/// Turns the entries of a file, in file order, into a `Song`: sorted, grouped by stamp, ends settled.
///
/// The rules are DESIGN §2's: entries are sorted by stamp (ties keep file order); the first entry with
/// text at a stamp is the sung line and the others are its translations; an entry without text only
/// ends the line before it; a line ends where the next stamp is; the last line ends at `[length:]`
/// when that is later than `lastLineEstimate`, else after the estimate.
enum SongAssembly {
    /// A remark about the file as a whole, turned into a warning by the parser.
    struct Note {
        var line: Int
        var message: String
    }

    /// More lines than this at one stamp is more likely a broken file than a line with translations.
    static let translationWarningThreshold = 4

    /// How long the last line lasts when nothing says: 2 s, or 0.1 s a cell for long lines.
    static func lastLineEstimate(width: Int) -> Int { max(2000, 100 * width) }

    static func assemble(metadata: SongMetadata, entries: [LyricEntry]) -> (song: Song?, notes: [Note]) {
        var notes: [Note] = []
        // Stable: the index breaks ties so that the file's first line at a stamp stays the sung one.
        let order = sortedOrder(entries)
        var lines: [LyricLine] = []
        lines.reserveCapacity(entries.count)
        var openSegments: [Int] = [] // lines whose last segment has no closing tag
        var index = 0
        while index < order.count {
            let stamp = entries[order[index]].stamp
            var group = index
            while group < order.count, entries[order[group]].stamp == stamp { group += 1 }
            var sung: LyricEntry?
            var translations: [String] = []
            for k in index..<group {
                let entry = entries[order[k]]
                guard !entry.text.isEmpty else { continue }
                if sung == nil { sung = entry } else { translations.append(entry.text) }
            }
            if let sung {
                if translations.count >= translationWarningThreshold {
                    notes.append(
                        Note(
                            line: sung.sourceLine,
                            message: "\(translations.count + 1) lines share the "
                                + "timestamp \(formatStamp(stamp)); the first is sung, the others are shown as translations"
                        ))
                }
                let nextStamp = group < order.count ? entries[order[group]].stamp : nil
                let end = nextStamp ?? estimatedEnd(of: sung, metadata: metadata)
                var segments = sung.segments
                if sung.hasOpenLastSegment {
                    segments[segments.count - 1].end = end
                    openSegments.append(lines.count)
                }
                lines.append(
                    LyricLine(
                        start: stamp, end: end, text: sung.text, segments: segments,
                        translations: translations, sourceLine: sung.sourceLine,
                        endIsEstimated: nextStamp == nil))
            }
            index = group
        }
        guard !lines.isEmpty else { return (nil, notes) }
        LineMarkup.apply(to: &lines)
        let median = medianDuration(of: lines)
        var song = Song(metadata: metadata, lines: lines, medianLineDuration: median)
        // An open last segment would otherwise crawl through a long instrumental gap.
        let cap = song.sweepCap
        for lineIndex in openSegments {
            let last = song.lines[lineIndex].segments.count - 1
            let segment = song.lines[lineIndex].segments[last]
            if segment.end - segment.start > cap {
                song.lines[lineIndex].segments[last].end = segment.start + cap
            }
        }
        let offsetNotes = linesBeforeZero(song)
        if offsetNotes > 0 {
            let lines = offsetNotes == 1 ? "line before 0:00; it shows" : "lines before 0:00; they show"
            notes.append(
                Note(
                    line: 0,
                    message: "the offset \(metadata.offset) ms moves \(offsetNotes) \(lines) "
                        + "as already sung"))
        }
        return (song, notes)
    }

    /// The end of the last line: the later of `[length:]` (moved into file time by the offset) and the estimate.
    ///
    /// DESIGN §2 promises the estimate, at least 2 s; a `[length:]` just after the line starts would
    /// otherwise flash the line past in a fraction of a second. A word-timed line also lasts 1 s past
    /// its last tag, so its last word is seen whole.
    /// Entry indices by stamp, file order breaking ties. Most files are already in order: that is one
    /// pass; otherwise (stamp, index) pairs are sorted, which compares plain integers.
    static func sortedOrder(_ entries: [LyricEntry]) -> [Int] {
        var inOrder = true
        for index in entries.indices.dropFirst() where entries[index - 1].stamp > entries[index].stamp {
            inOrder = false
            break
        }
        if inOrder { return Array(entries.indices) }
        var keys = entries.indices.map { (stamp: entries[$0].stamp, index: $0) }
        keys.sort { $0.stamp != $1.stamp ? $0.stamp < $1.stamp : $0.index < $1.index }
        return keys.map(\.index)
    }

    static func estimatedEnd(of entry: LyricEntry, metadata: SongMetadata) -> Int {
        var end = entry.stamp + lastLineEstimate(width: DisplayWidth.of(entry.text))
        if let lastTag = entry.segments.last {
            end = max(end, (lastTag.end == LyricEntry.openEnd ? lastTag.start : lastTag.end) + 1000)
        }
        if let length = metadata.length { end = max(end, length + metadata.offset) }
        return end
    }

    /// M of DESIGN §2: the median span of line-timed lines with text that a stamp ends.
    ///
    /// A song timed word by word has no such line; its lines' spans stand in, so that an open last
    /// segment before a long gap is still capped (DESIGN §2.6 says so).
    static func medianDuration(of lines: [LyricLine]) -> Int? {
        median(of: lines, wordTimedToo: false) ?? median(of: lines, wordTimedToo: true)
    }

    /// The median of the spans of the lines whose end is not estimated (and that are line-timed, unless
    /// `wordTimedToo`), the mean of the two middle ones for an even count; nil for none. The lines' fields
    /// are read in place: a copy of each line would retain its text and arrays.
    static func median(of lines: [LyricLine], wordTimedToo: Bool) -> Int? {
        var spans: [Int] = []
        spans.reserveCapacity(lines.count)
        for index in lines.indices where !lines[index].endIsEstimated {
            guard wordTimedToo || lines[index].segments.isEmpty else { continue }
            spans.append(lines[index].end - lines[index].start)
        }
        guard !spans.isEmpty else { return nil }
        spans.sort()
        let middle = spans.count / 2
        return spans.count % 2 == 1 ? spans[middle] : (spans[middle - 1] + spans[middle]) / 2
    }

    static func linesBeforeZero(_ song: Song) -> Int {
        guard song.metadata.offset > 0 else { return 0 }
        return song.lines.reduce(0) { $0 + ($1.start - song.metadata.offset < 0 ? 1 : 0) }
    }
}

/// `[mm:ss.xx]` for a time in milliseconds, as a message quotes it.
func formatStamp(_ milliseconds: Int) -> String {
    let total = max(0, milliseconds)
    let minutes = total / 60_000, seconds = total / 1000 % 60, hundredths = total % 1000 / 10
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    return "[\(two(minutes)):\(two(seconds)).\(two(hundredths))]"
}
