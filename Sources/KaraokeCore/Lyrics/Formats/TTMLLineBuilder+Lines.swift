extension TTMLLineBuilder {
    /// A line as built from a draft, its end perhaps still unknown.
    struct Built {
        /// The line, its end a placeholder when `endKnown` is false.
        var line: LyricLine
        /// Whether the file gives the line's end.
        var endKnown: Bool
        /// Segments the file gives no end, settled with the line's end.
        var openSegmentEnds: [Int]
        /// The end of the interval the line is in, which an open end must not pass.
        var limit: Int?
    }

    /// The song from the complete lines, times settled.
    mutating func finish() -> ParseResult {
        flushText()
        if metadata.title == nil { metadata.title = fallbackTitle }
        if metadata.artist == nil, !artists.isEmpty { metadata.artist = artists.joined(separator: ", ") }
        if metadata.author == nil, !songwriters.isEmpty { metadata.author = songwriters.joined(separator: ", ") }
        applyKeyedTranslations()
        let resolution = timing.resolved()
        var built: [Built] = []
        built.reserveCapacity(drafts.count)
        for index in drafts.indices {
            let draft = drafts[index]
            guard draft.isComplete, draft.parent.map({ drafts[$0].isComplete }) ?? true else { continue }
            if let line = build(draft, resolution) { built.append(line) }
        }
        settleOpenEnds(&built)
        let song = SongAssembly.assemble(metadata: metadata, timedLines: built.map(\.line))
        return log.finish(song: song, noSongMessage: "no timed lyric line")
    }

    /// iTunes `<translations>`: each `<text for="KEY">` translates the line whose `itunes:key` (or
    /// `xml:id`) is KEY; its background-vocal span translates that line's background line.
    mutating func applyKeyedTranslations() {
        guard !keyedTranslations.isEmpty || !keyedRomanizations.isEmpty else { return }
        for index in drafts.indices where drafts[index].parent == nil {
            // iTunes `<transliterations>` the same way, unless the line has `x-roman` spans (DESIGN §29.2).
            if let key = drafts[index].key, let pieces = keyedRomanizations[key], drafts[index].romanPieces.isEmpty {
                drafts[index].romanPieces = pieces
                drafts[index].romanCarriesSpaces = true
            }
            guard let key = drafts[index].key, let entries = keyedTranslations[key] else { continue }
            for entry in entries {
                if !entry.main.isEmpty { drafts[index].translations.append(entry.main) }
                if !entry.background.isEmpty, let background = drafts[index].backgrounds.first {
                    drafts[background].translations.append(entry.background)
                }
            }
        }
    }

    /// One line from a draft: its text normalised, its segments in order and inside the line.
    mutating func build(_ draft: Draft, _ resolution: TTMLTimingModel.Resolution) -> Built? {
        let begins = resolution.begins, ends = resolution.ends
        // The sung stretches: each timed piece, with the untimed text after it; text before the first
        // timed piece joins it.
        struct Stretch { var text: String; var start: Int?; var end: Int? }
        let isWordTimed = draft.pieces.contains { piece in piece.timing.contains { begins[$0] != nil } }
        let indentationIsLayout = isLyricsDialect || !resolution.inheritsIntervals
        var stretches: [Stretch] = []
        var prefix = ""
        for piece in draft.pieces {
            // Indentation between the spans of a word-timed line is not a space in Apple Music's and
            // AMLL's files, which write each word's spaces inside its span; elsewhere XML's rule holds:
            // white space with a line feed in it is a space (DESIGN §7.5).
            let text = piece.isLayout ? (isWordTimed && indentationIsLayout ? "" : " ") : piece.text
            // The earliest begin and the latest end of its nodes, without arrays made for a line's every word.
            var start: Int? = nil, end: Int? = nil
            for node in piece.timing {
                if let begin = begins[node] { start = min(start ?? begin, begin) }
                if let nodeEnd = ends[node] { end = max(end ?? nodeEnd, nodeEnd) }
            }
            if let start {
                stretches.append(Stretch(text: prefix + text, start: start, end: end))
                prefix = ""
            } else if stretches.isEmpty {
                prefix += text
            } else {
                stretches[stretches.count - 1].text += text
            }
        }
        if stretches.isEmpty { stretches.append(Stretch(text: prefix, start: nil, end: nil)) }
        // Whitespace runs become one space across the whole line; the line's outer spaces go.
        var texts = collapsedRuns(stretches.map(\.text))
        if draft.parent != nil, let first = texts.firstIndex(where: { !$0.isEmpty }),
            let last = texts.lastIndex(where: { !$0.isEmpty }),
            !(texts[first].hasPrefix("(") && texts[last].hasSuffix(")"))
        {
            texts[first] = "(" + texts[first]
            texts[last] += ")"
        }
        let text = texts.joined()
        guard !text.isEmpty else { return nil }
        // A line without a begin of its own starts at its first word when it has words; otherwise it
        // takes the interval of the nearest element with one (W3C files only).
        let writesBegin = draft.node.map { timing.nodes[$0].begin != nil } ?? false
        let inherited = resolution.inheritsIntervals && !isWordTimed ? draft.inheritedNode : nil
        let node = draft.node ?? inherited
        if let node, resolution.isNeverActive[node] {
            log.warn(
                line: draft.sourceLine, column: 0,
                "paragraph '\(text.prefix(40))' begins after the element it is in ends; line ignored")
            return nil
        }
        var start = node.flatMap { writesBegin || !isWordTimed ? begins[$0] : nil }
        var end = node.flatMap { ends[$0] }
        let limit = node.flatMap { resolution.limits[$0] }
        var segments: [WordSegment] = []
        var openSegmentEnds: [Int] = []
        if isWordTimed {
            for (index, stretch) in stretches.enumerated() where !texts[index].isEmpty {
                // Starts never go back, so segments stay in order even when the file's do not.
                let segmentStart = max(stretch.start ?? 0, segments.last?.start ?? Int.min)
                if let previous = segments.indices.last, segments[previous].end > segmentStart {
                    segments[previous].end = max(segments[previous].start, segmentStart)
                }
                if stretch.end == nil { openSegmentEnds.append(segments.count) }
                segments.append(
                    WordSegment(
                        start: segmentStart, end: max(segmentStart, stretch.end ?? segmentStart),
                        text: texts[index]))
            }
            // A paragraph without times takes its words' span.
            start = min(start ?? Int.max, segments[0].start)
            // Without its own end, a line whose last word has none ends as the file goes on (below).
            let lastIsOpen = openSegmentEnds.last == segments.count - 1
            if let lastEnd = segments.map(\.end).max(), end != nil || !lastIsOpen {
                end = max(end ?? lastEnd, lastEnd)
            }
        }
        guard let start else {
            log.warn(
                line: draft.sourceLine, column: 0,
                "paragraph '\(text.prefix(40))' has no timing; line ignored")
            return nil
        }
        let line = LyricLine(
            start: start, end: end ?? start, text: text, segments: segments,
            translations: draft.translations, sourceLine: draft.sourceLine,
            endIsEstimated: false, voice: draft.voice,
            romanization: romanization(draft, resolution, lineEnd: end ?? start))
        return Built(line: line, endKnown: end != nil, openSegmentEnds: openSegmentEnds, limit: limit)
    }

    /// A draft's reading: its pieces' text with whitespace collapsed, word-timed when a piece has a begin;
    /// untimed text joins the word before it (DESIGN §29.2).
    func romanization(_ draft: Draft, _ resolution: TTMLTimingModel.Resolution, lineEnd: Int) -> Romanization? {
        guard !draft.romanPieces.isEmpty else { return nil }
        let begins = resolution.begins, ends = resolution.ends
        var pieces = draft.romanPieces
        // One `x-roman` span per word: words are read apart.
        if !draft.romanCarriesSpaces { for index in pieces.indices { pieces[index].text += " " } }
        let isTimed = pieces.contains { $0.node.flatMap { begins[$0] } != nil }
        if isTimed && draft.romanCarriesSpaces {
            // Indentation between Apple's spans is layout, as in the line itself.
            pieces.removeAll { piece in
                piece.node == nil && piece.text.utf8.allSatisfy(ByteScanner.isXMLWhitespace)
                    && piece.text.utf8.contains(0x0A)
            }
        }
        let texts = collapsedRuns(pieces.map(\.text))
        let text = texts.joined()
        guard !text.isEmpty else { return nil }
        guard isTimed else { return Romanization(text: text) }
        var segments: [WordSegment] = []
        var prefix = ""
        for (index, piece) in pieces.enumerated() {
            if let node = piece.node, let begin = begins[node] {
                let start = max(begin, segments.last?.start ?? Int.min)
                segments.append(WordSegment(start: start, end: ends[node] ?? -1, text: prefix + texts[index]))
                prefix = ""
            } else if segments.isEmpty {
                prefix += texts[index]
            } else {
                segments[segments.count - 1].text += texts[index]
            }
        }
        // A word without an end runs to the next word, the last to the line's end.
        for index in segments.indices where segments[index].end < segments[index].start {
            let next = index + 1 < segments.count ? segments[index + 1].start : lineEnd
            segments[index].end = max(segments[index].start, next)
        }
        segments.removeAll { $0.text.isEmpty }
        return Romanization(text: text, segments: segments)
    }

    /// Ends for lines the file leaves open: the next line's start, or an estimate for the last one;
    /// then the segments that had no end run to the next segment or the line's end.
    func settleOpenEnds(_ built: inout [Built]) {
        let starts = built.map(\.line.start).sorted()
        for index in built.indices {
            if !built[index].endKnown {
                let start = built[index].line.start
                // The first start after this one, by binary search: a million open lines stay fast.
                var low = 0, high = starts.count
                while low < high {
                    let middle = (low + high) / 2
                    if starts[middle] <= start { low = middle + 1 } else { high = middle }
                }
                if low < starts.count {
                    built[index].line.end = starts[low]
                } else {
                    built[index].line.end =
                        start + SongAssembly.lastLineEstimate(width: DisplayWidth.of(built[index].line.text))
                    built[index].line.endIsEstimated = true
                }
                // Not past the end of the element it is in (W3C: the parent's interval clips its children).
                if let limit = built[index].limit, limit < built[index].line.end {
                    built[index].line.end = max(limit, start)
                    built[index].line.endIsEstimated = false
                }
            }
            var line = built[index].line
            for segment in built[index].openSegmentEnds {
                let next = segment + 1 < line.segments.count ? line.segments[segment + 1].start : line.end
                line.segments[segment].end = max(line.segments[segment].start, next)
            }
            if let last = line.segments.last { line.end = max(line.end, last.end) }
            built[index].line = line
        }
    }
}
