extension TTMLLineBuilder {
    /// What settling a built line's open ends needs besides the line.
    struct Settling {
        /// Whether the file gives the line's end (else the line's end is a placeholder).
        var endKnown: Bool
        /// Segments the file gives no end, settled with the line's end.
        var openSegmentEnds: [Int]
        /// The end of the interval the line is in, which an open end must not pass.
        var limit: Int?
    }

    /// The timing of a sung stretch of a line: the earliest begin and the latest end of its nodes.
    struct StretchTime {
        var start: Int?
        var end: Int?
    }

    /// The song from the complete lines, times settled.
    mutating func finish() -> ParseResult {
        flushText()
        if metadata.title == nil { metadata.title = fallbackTitle }
        if metadata.artist == nil, !artists.isEmpty { metadata.artist = artists.joined(separator: ", ") }
        if metadata.author == nil, !songwriters.isEmpty { metadata.author = songwriters.joined(separator: ", ") }
        applyKeyedTranslations()
        let resolution = timing.resolved()
        builtLines.reserveCapacity(drafts.count)
        builtSettling.reserveCapacity(drafts.count)
        for index in drafts.indices {
            guard drafts[index].isComplete, drafts[index].parent.map({ drafts[$0].isComplete }) ?? true else {
                continue
            }
            build(index, resolution)
        }
        var lines: [LyricLine] = []
        swap(&lines, &builtLines)
        settleOpenEnds(&lines, builtSettling)
        let song = SongAssembly.assemble(metadata: metadata, timedLines: lines)
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

    /// One line from a draft, appended to `builtLines` (and what settling it needs to `builtSettling`): its
    /// text normalised, its segments in order and inside the line. Nothing for a line without text or time.
    mutating func build(_ draftIndex: Int, _ resolution: TTMLTimingModel.Resolution) {
        let begins = resolution.begins, ends = resolution.ends
        // The draft's fields are read in place: a copy would retain every array and String in it.
        let firstPiece = drafts[draftIndex].firstPiece
        // Whether a piece is sung at a time: one of its nodes begins.
        func isTimed(_ index: Int) -> Bool {
            let node = pieces[index].node
            guard node >= 0 else { return false }
            if begins[node] != nil { return true }
            return moreTiming[index]?.contains { begins[$0] != nil } ?? false
        }
        var isWordTimed = false
        var index = firstPiece
        while index >= 0, !isWordTimed {
            isWordTimed = isTimed(index)
            index = pieces[index].next
        }
        let indentationIsLayout = isLyricsDialect || !resolution.inheritsIntervals
        // The sung stretches: each timed piece, with the untimed text after it; text before the first
        // timed piece joins it. Their text goes one after another into `rawLine`, each from its start.
        stretchStarts.removeAll(keepingCapacity: true)
        stretchTimes.removeAll(keepingCapacity: true)
        rawLine.removeAll(keepingCapacity: true)
        index = firstPiece
        while index >= 0 {
            let piece = pieces[index]
            defer { index = piece.next }
            // The earliest begin and the latest end of its nodes.
            var start: Int? = nil, end: Int? = nil
            func take(_ node: Int) {
                if let begin = begins[node] { start = min(start ?? begin, begin) }
                if let nodeEnd = ends[node] { end = max(end ?? nodeEnd, nodeEnd) }
            }
            if piece.node >= 0 {
                take(piece.node)
                moreTiming[index]?.forEach(take)
            }
            if start != nil {
                stretchStarts.append(stretchTimes.isEmpty ? 0 : rawLine.count)
                stretchTimes.append(StretchTime(start: start, end: end))
            }
            if piece.isLayout {
                // Indentation between the spans of a word-timed line is not a space in Apple Music's and
                // AMLL's files, which write each word's spaces inside its span; elsewhere XML's rule holds:
                // white space with a line feed in it is a space (DESIGN §7.5).
                if !(isWordTimed && indentationIsLayout) { rawLine.append(0x20) }
            } else {
                Self.append(lineBytes, piece.text, to: &rawLine)
            }
        }
        if stretchTimes.isEmpty {
            stretchStarts.append(0)
            stretchTimes.append(StretchTime())
        }
        // Whitespace runs become one space across the whole line; the line's outer spaces go.
        Self.collapse(rawLine, starts: stretchStarts, into: &collapsedLine, ends: &textEnds)
        let textEnds = textEnds
        func textStart(_ k: Int) -> Int { k == 0 ? 0 : textEnds[k - 1] }
        if drafts[draftIndex].parent != nil,
            let first = textEnds.indices.first(where: { textEnds[$0] > textStart($0) }),
            let last = textEnds.indices.last(where: { textEnds[$0] > textStart($0) }),
            !(collapsedLine[textStart(first)] == UInt8(ascii: "(")
                && collapsedLine[textEnds[last] - 1] == UInt8(ascii: ")"))
        {
            // Background vocals are shown in parentheses.
            collapsedLine.insert(UInt8(ascii: ")"), at: textEnds[last])
            collapsedLine.insert(UInt8(ascii: "("), at: textStart(first))
            for k in first..<textEnds.count { self.textEnds[k] += k >= last ? 2 : 1 }
        }
        finishBuilding(draftIndex, resolution, isWordTimed: isWordTimed)
    }

    /// The line from the collapsed text of its stretches (`build`): its times, and its segments as Strings.
    mutating func finishBuilding(
        _ draftIndex: Int, _ resolution: TTMLTimingModel.Resolution, isWordTimed: Bool
    ) {
        let begins = resolution.begins, ends = resolution.ends
        let sourceLine = drafts[draftIndex].sourceLine, draftNode = drafts[draftIndex].node
        let textEnds = textEnds
        func textStart(_ k: Int) -> Int { k == 0 ? 0 : textEnds[k - 1] }
        let length = textEnds.last ?? 0
        guard length > 0 else { return }
        let text = String(decoding: collapsedLine[0..<length], as: UTF8.self)
        // A line without a begin of its own starts at its first word when it has words; otherwise it
        // takes the interval of the nearest element with one (W3C files only).
        let writesBegin = drafts[draftIndex].writesBegin
        let inherited = resolution.inheritsIntervals && !isWordTimed ? drafts[draftIndex].inheritedNode : nil
        let node = draftNode ?? inherited
        if let node, resolution.isNeverActive[node] {
            log.warn(
                line: sourceLine, column: 0,
                "paragraph '\(text.prefix(40))' begins after the element it is in ends; line ignored")
            return
        }
        var start = node.flatMap { writesBegin || !isWordTimed ? begins[$0] : nil }
        var end = node.flatMap { ends[$0] }
        let limit = node.flatMap { resolution.limits[$0] }
        var segments: [WordSegment] = []
        var openSegmentEnds: [Int] = []
        if isWordTimed {
            segments.reserveCapacity(stretchTimes.count)
            for (index, stretch) in stretchTimes.enumerated() where textEnds[index] > textStart(index) {
                // Starts never go back, so segments stay in order even when the file's do not.
                let segmentStart = max(stretch.start ?? 0, segments.last?.start ?? Int.min)
                if let previous = segments.indices.last, segments[previous].end > segmentStart {
                    segments[previous].end = max(segments[previous].start, segmentStart)
                }
                if stretch.end == nil { openSegmentEnds.append(segments.count) }
                segments.append(
                    WordSegment(
                        start: segmentStart, end: max(segmentStart, stretch.end ?? segmentStart),
                        text: String(decoding: collapsedLine[textStart(index)..<textEnds[index]], as: UTF8.self)))
            }
            // A paragraph without times takes its words' span.
            start = min(start ?? Int.max, segments[0].start)
            // Without its own end, a line whose last word has none ends as the file goes on (below).
            let lastIsOpen = openSegmentEnds.last == segments.count - 1
            var lastEnd = segments[0].end
            for segment in segments.dropFirst() { lastEnd = max(lastEnd, segment.end) }
            if end != nil || !lastIsOpen { end = max(end ?? lastEnd, lastEnd) }
        }
        guard let start else {
            log.warn(
                line: sourceLine, column: 0,
                "paragraph '\(text.prefix(40))' has no timing; line ignored")
            return
        }
        let romanization =
            drafts[draftIndex].romanPieces.isEmpty
            ? nil : romanization(drafts[draftIndex], resolution, lineEnd: end ?? start)
        // Appended where it is made: a line returned and then appended is copied, each String retained.
        builtLines.append(
            LyricLine(
                start: start, end: end ?? start, text: text, segments: segments,
                translations: drafts[draftIndex].translations, sourceLine: sourceLine,
                endIsEstimated: false, voice: drafts[draftIndex].voice, romanization: romanization))
        builtSettling.append(Settling(endKnown: end != nil, openSegmentEnds: openSegmentEnds, limit: limit))
    }

    /// Appends `bytes[range]` to `out` in one copy.
    static func append(_ bytes: [UInt8], _ range: Range<Int>, to out: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[range])) }
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
    func settleOpenEnds(_ lines: inout [LyricLine], _ settling: [Settling]) {
        guard settling.contains(where: { !$0.endKnown || !$0.openSegmentEnds.isEmpty }) else { return }
        var starts = lines.map(\.start)
        starts.sort()
        for index in lines.indices {
            if !settling[index].endKnown {
                let start = lines[index].start
                // The first start after this one, by binary search: a million open lines stay fast.
                var low = 0, high = starts.count
                while low < high {
                    let middle = (low + high) / 2
                    if starts[middle] <= start { low = middle + 1 } else { high = middle }
                }
                if low < starts.count {
                    lines[index].end = starts[low]
                } else {
                    lines[index].end = start + SongAssembly.lastLineEstimate(width: DisplayWidth.of(lines[index].text))
                    lines[index].endIsEstimated = true
                }
                // Not past the end of the element it is in (W3C: the parent's interval clips its children).
                if let limit = settling[index].limit, limit < lines[index].end {
                    lines[index].end = max(limit, start)
                    lines[index].endIsEstimated = false
                }
            }
            // In place: a copy of the line would copy its segments to change them.
            for segment in settling[index].openSegmentEnds {
                let count = lines[index].segments.count
                let next = segment + 1 < count ? lines[index].segments[segment + 1].start : lines[index].end
                let start = lines[index].segments[segment].start
                lines[index].segments[segment].end = max(start, next)
            }
            if let last = lines[index].segments.last { lines[index].end = max(lines[index].end, last.end) }
        }
    }
}
