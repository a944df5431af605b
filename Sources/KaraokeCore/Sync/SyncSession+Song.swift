extension SyncSession {
    /// How long the last stamped line lasts when nothing ends it yet, in milliseconds: long enough to
    /// sweep at a singing pace, and written as an estimate (no end marker).
    static let openLineLength = 3000

    /// The song the stamps make (DESIGN §13.1): the stamped lines, with the script's tags. What `s`
    /// writes, and, with `pendingFrom`, what the screen shows.
    ///
    /// - Parameter pendingFrom: when given, the lines (and words) not stamped yet follow from this time in
    ///   milliseconds, 10 ms apart, so the screen shows them dim below the line being timed; the caller
    ///   puts it past the audio's end, where the clock never gets.
    public func song(pendingFrom horizon: Int? = nil) -> Song {
        var starts: [Int?] = Array(repeating: nil, count: script.lines.count)
        var ends: [Int?] = Array(repeating: nil, count: script.lines.count)
        var words: [[Int]] = Array(repeating: [], count: script.lines.count)
        for stamp in stamps {
            switch stamp.mark {
            case .line(let n): starts[n] = stamp.time
            case .word(let n, let piece):
                if piece == 0 { starts[n] = stamp.time }
                words[n].append(stamp.time)
            case .end(let n), .close(let n): ends[n] = stamp.time
            }
        }
        var lines: [LyricLine] = []
        var realLengths: [Int] = []
        var pending = horizon ?? 0
        for (index, scriptLine) in script.lines.enumerated() {
            guard let start = starts[index] else {
                guard horizon != nil else { break }
                // Not stamped: shown after everything, never reached.
                let segments: [WordSegment] =
                    wordMode
                    ? scriptLine.pieces.enumerated().map { offset, piece in
                        WordSegment(start: pending + offset * 10, end: pending + offset * 10 + 10, text: piece)
                    } : []
                let end = pending + max(1, scriptLine.pieces.count) * 10
                lines.append(
                    LyricLine(
                        start: pending, end: end, text: scriptLine.text, segments: segments, sourceLine: index + 1))
                pending = end
                continue
            }
            let nextStart = index + 1 < script.lines.count ? starts[index + 1] : nil
            var end: Int
            var estimated = false
            if let marked = ends[index] {
                end = marked
            } else if let nextStart {
                end = nextStart
            } else {
                estimated = true
                end = start + (medianLength(realLengths) ?? SyncSession.openLineLength)
            }
            if !estimated { realLengths.append(end - start) }
            var segments: [WordSegment] = []
            if wordMode {
                let pieces = scriptLine.pieces
                let stamped = words[index]
                for (offset, time) in stamped.enumerated() {
                    let segmentEnd: Int
                    if offset + 1 < stamped.count {
                        segmentEnd = stamped[offset + 1]
                    } else if horizon != nil, offset + 1 < pieces.count || estimated {
                        // Shown, the word just stamped lights at once: the rest wait for their taps, and
                        // a line's last word, with nothing after it yet, has no length to sweep over.
                        segmentEnd = time + 1
                    } else {
                        segmentEnd = end
                    }
                    segments.append(WordSegment(start: time, end: segmentEnd, text: pieces[offset]))
                }
                if stamped.count < pieces.count {
                    if let horizon {
                        for offset in stamped.count..<pieces.count {
                            let at = max(horizon, pending) + (offset - stamped.count) * 10
                            segments.append(WordSegment(start: at, end: at + 10, text: pieces[offset]))
                        }
                        end = max(end, segments.last!.end)
                        estimated = true
                    } else if let last = segments.indices.last {
                        // Saved half stamped: the line holds the stamped words only.
                        segments[last].end = end
                    }
                }
            }
            let text = segments.isEmpty ? scriptLine.text : segments.map(\.text).joined()
            lines.append(
                LyricLine(
                    start: start, end: end, text: SyncScript.trimmed(text), segments: segments, sourceLine: index + 1,
                    endIsEstimated: estimated))
        }
        return Song(metadata: script.metadata, lines: lines, medianLineDuration: medianLength(realLengths))
    }

    /// The text `s` writes: LRC, or Enhanced LRC in word mode, through the writer `convert` uses.
    public func savedText() -> String {
        LyricWriter.write(song(), to: wordMode ? .elrc : .lrc).text
    }

    /// The stamps a saved (or autosaved) song holds, read back in the script's terms: its N-th line is
    /// the script's N-th. Nil when the song does not fit the script (more lines, or more words in a line).
    public static func stamps(from song: Song, script: SyncScript, wordMode: Bool) -> [Stamp]? {
        guard song.lines.count <= script.lines.count else { return nil }
        var stamps: [Stamp] = []
        for (index, line) in song.lines.enumerated() {
            let next = index + 1 < song.lines.count ? song.lines[index + 1].start : nil
            // An end that is neither the next start nor a guess was a marker (line mode) or a close.
            let ended = next.map { line.end < $0 } ?? !line.endIsEstimated
            if wordMode {
                let starts = line.isWordTimed ? line.segments.map(\.start) : [line.start]
                guard starts.count <= script.lines[index].pieces.count else { return nil }
                for (piece, time) in starts.enumerated() { stamps.append(Stamp(.word(index, piece), at: time)) }
                if ended, starts.count == script.lines[index].pieces.count {
                    stamps.append(Stamp(.close(index), at: line.end))
                }
            } else {
                stamps.append(Stamp(.line(index), at: line.start))
                if ended { stamps.append(Stamp(.end(index), at: line.end)) }
            }
        }
        // Taken in time order; the reader already sorted the lines.
        for index in stamps.indices.dropFirst() where stamps[index].time < stamps[index - 1].time { return nil }
        return stamps
    }

    /// The median of `lengths`, or nil for none.
    private func medianLength(_ lengths: [Int]) -> Int? {
        guard !lengths.isEmpty else { return nil }
        return lengths.sorted()[lengths.count / 2]
    }
}
