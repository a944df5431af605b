import Glibc

/// Reads Advanced SubStation Alpha (`.ass`) and SubStation Alpha (`.ssa`) scripts, with `\k` karaoke.
///
/// A line per `Dialogue:` event, from its Start to its End. Karaoke tags (`\k`, `\K`, `\kf`, `\ko`, in
/// centiseconds) make word segments, each starting where the one before it ends, counted from the
/// line's start. Text before the first karaoke tag is a zero-length segment at the line's start: it
/// shows as already sung, as subtitle renderers paint text without a karaoke tag. Every other override
/// block `{…}` is read past, drawings (`{\p1}…`) are not shown, `\N`, `\n` and `\h` are spaces.
///
/// Aegisub's furigana syntax is understood on karaoke lines: `漢字|かんじ` shows `漢字` (the reading
/// after `|` or `｜` is dropped, as there is no room for ruby in a terminal), and a syllable that is
/// only `#` continues the syllable before it, whose segment then lasts until its end.
///
/// Karaoke-templater files: when a file has generated `Dialogue:` lines whose Effect is `fx` and
/// `Comment:` lines whose Effect is `karaoke`, the comments are the karaoke source; they are read and
/// the `fx` lines skipped. Otherwise `Comment:` lines are skipped.
enum ASSParser {
    /// Parses the UTF-8 text of a script (without BOM; see `SourceText`). `file` names it in messages.
    static func parse(_ utf8: [UInt8], file: String) -> ParseResult {
        var reader = ASSReader(file: file)
        utf8.withUnsafeBufferPointer { reader.run($0) }
        var metadata = SongMetadata()
        metadata.title = reader.title
        let song = SongAssembly.assemble(metadata: metadata, timedLines: reader.lines)
        return reader.log.finish(
            song: song,
            noSongMessage:
                "no dialogue line (an event such as 'Dialogue: 0,0:00:12.34,0:00:15.00,Default,,0,0,0,,text')")
    }
}

/// Where the fields of an event line are, from the `[Events]` section's `Format:` line.
private struct EventLayout {
    var fieldCount = 10
    var start = 1
    var end = 2
    var effect: Int? = 8
    var text = 9
}

/// One event as first read, before the file as a whole says which events are sung.
private struct RawEvent {
    enum Effect { case none, fx, karaoke, other }
    var isComment: Bool
    var effect: Effect
    var start: Int
    var end: Int
    var text: Range<Int>
    var line: Int
}

/// The ASS parser's state while it walks one file.
private struct ASSReader {
    var log: DiagnosticLog
    var title: String?
    var lines: [LyricLine] = []
    var events: [RawEvent] = []
    var layout = EventLayout()
    var text = CueText()
    /// The index of the next `}` at or after the last look, so a line of a million `{` is read in one pass.
    var nextBrace = 0

    enum Section { case scriptInfo, events, other }

    init(file: String) { log = DiagnosticLog(file: file) }

    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        var cursor = TextLines(count: bytes.count)
        var section = Section.other
        while let raw = cursor.next(bytes) {
            let end = raw.upperBound
            // A BOM the caller left, and indentation.
            let i = ByteScanner.skip(
                bytes, from: ByteScanner.skipByteOrderMark(bytes, at: raw.lowerBound, end: end), to: end)
            guard i < end else { continue }
            if bytes[i] == 0x5B { // [
                if ByteScanner.hasPrefix("[script info]", in: bytes, at: i, end: end, ignoringCase: true) {
                    section = .scriptInfo
                } else if ByteScanner.hasPrefix("[events]", in: bytes, at: i, end: end, ignoringCase: true) {
                    section = .events
                } else {
                    section = .other
                }
                continue
            }
            if let value = afterKeyword(bytes, i, end, "dialogue:") {
                readEvent(bytes, value..<end, isComment: false, line: cursor.number, lineStart: raw.lowerBound)
            } else if let value = afterKeyword(bytes, i, end, "comment:") {
                readEvent(bytes, value..<end, isComment: true, line: cursor.number, lineStart: raw.lowerBound)
            } else if section == .events, let value = afterKeyword(bytes, i, end, "format:") {
                readFormat(bytes, value..<end, line: cursor.number)
            } else if section == .scriptInfo, let value = afterKeyword(bytes, i, end, "title:") {
                var title = CueText()
                title.append(bytes, value..<end)
                let shown = title.finish(lineStart: 0, lineEnd: 0, wordTimed: false).text
                // Aegisub's placeholder says nothing about the song; the player shows the file name instead.
                self.title = shown.isEmpty || shown == "Default Aegisub file" ? nil : shown
            }
        }
        makeLines(bytes)
    }

    /// The index after `word` and the blanks that follow it, when the line starts with it.
    func afterKeyword(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int, _ word: StaticString) -> Int? {
        guard ByteScanner.hasPrefix(word, in: bytes, at: i, end: end, ignoringCase: true) else { return nil }
        return ByteScanner.skip(bytes, from: i + word.utf8CodeUnitCount, to: end)
    }

    /// The byte ranges of `count` comma-separated fields, the last taking the rest of the line; nil when short.
    func fields(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, count: Int) -> [Range<Int>]? {
        var result: [Range<Int>] = []
        result.reserveCapacity(count)
        var start = range.lowerBound
        var i = start
        while result.count < count - 1 {
            while i < range.upperBound, bytes[i] != 0x2C { i += 1 }
            guard i < range.upperBound else { return nil }
            result.append(start..<i)
            i += 1
            start = i
        }
        result.append(start..<range.upperBound)
        return result
    }

    /// Reads `Format: Layer, Start, End, …, Text`: where the fields the parser needs are.
    mutating func readFormat(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int) {
        var names: [String] = []
        var start = range.lowerBound
        for i in range.lowerBound...range.upperBound where i == range.upperBound || bytes[i] == 0x2C {
            names.append(
                String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[ByteScanner.trimmed(bytes, start..<i)]), as: UTF8.self
                )
                .lowercased())
            start = i + 1
        }
        guard let startIndex = names.firstIndex(of: "start"), let endIndex = names.firstIndex(of: "end") else {
            log.warn(line: line, column: 0, "event format without 'Start' and 'End' fields; the usual order is used")
            layout = EventLayout()
            return
        }
        // Text is the last field by the format's rules, and takes the rest of the line, commas and all.
        layout = EventLayout(
            fieldCount: names.count, start: startIndex, end: endIndex,
            effect: names.firstIndex(of: "effect"), text: names.count - 1)
    }

    /// Reads one `Dialogue:` or `Comment:` event's times, effect and where its text is.
    mutating func readEvent(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, isComment: Bool,
        line: Int, lineStart: Int
    ) {
        let quoted = { ByteScanner.quoted(bytes, range) }
        guard let parts = fields(bytes, range, count: layout.fieldCount) else {
            if !isComment {
                log.warn(
                    line: line, column: 0,
                    "dialogue line with fewer than \(layout.fieldCount) fields \(quoted()); line skipped")
            }
            return
        }
        func time(_ index: Int) -> Int? {
            let field = ByteScanner.trimmed(bytes, parts[index])
            guard let read = SubtitleTime.readLenient(bytes, at: field.lowerBound, end: field.upperBound),
                read.next == field.upperBound
            else { return nil }
            return read.time
        }
        guard let start = time(layout.start), let end = time(layout.end) else {
            if !isComment {
                let bad = ByteScanner.trimmed(
                    bytes, time(layout.start) == nil ? parts[layout.start] : parts[layout.end])
                let message = "malformed time \(ByteScanner.quoted(bytes, bad)); expected 'h:mm:ss.cc'; line skipped"
                log.warn(line: line, column: bad.lowerBound - lineStart + 1, message)
            }
            return
        }
        var effect = RawEvent.Effect.none
        if let index = layout.effect {
            let field = ByteScanner.trimmed(bytes, parts[index])
            if field.isEmpty {
                effect = .none
            } else if ByteScanner.equals("fx", in: bytes, field, ignoringCase: true) {
                effect = .fx
            } else if ByteScanner.equals("karaoke", in: bytes, field, ignoringCase: true) {
                effect = .karaoke
            } else {
                effect = .other
            }
        }
        events.append(
            RawEvent(
                isComment: isComment, effect: effect, start: start, end: end,
                text: parts[layout.text], line: line))
    }

    /// Picks the sung events (see `ASSParser`) and turns each into a line.
    mutating func makeLines(_ bytes: UnsafeBufferPointer<UInt8>) {
        let templated =
            events.contains { !$0.isComment && $0.effect == .fx }
            && events.contains { $0.isComment && $0.effect == .karaoke }
        lines.reserveCapacity(events.count)
        for event in events {
            let sung = templated ? (event.isComment ? event.effect == .karaoke : event.effect != .fx) : !event.isComment
            guard sung else { continue }
            lines.append(makeLine(bytes, event))
        }
    }

    /// One event's line: its text with override blocks read past, and its karaoke syllables as segments.
    mutating func makeLine(_ bytes: UnsafeBufferPointer<UInt8>, _ event: RawEvent) -> LyricLine {
        text.reset()
        // The lead-in before the first karaoke tag: zero-length, so it shows as sung from the start.
        text.mark(start: event.start, end: event.start)
        var syllables = SyllableState(running: event.start)
        let end = event.text.upperBound
        var i = event.text.lowerBound
        var pieceStart = i
        nextBrace = i
        while i < end {
            let byte = bytes[i]
            if byte == 0x7B { // {
                if nextBrace < i + 1 || nextBrace == i {
                    nextBrace = ByteScanner.index(of: 0x7D, in: bytes, from: i + 1, to: end)
                }
                // An unclosed `{` is text.
                guard nextBrace < end else { i += 1; continue }
                appendPiece(bytes, pieceStart..<i, syllables)
                readOverrideBlock(bytes, (i + 1)..<nextBrace, &syllables)
                i = nextBrace + 1
                pieceStart = i
            } else if byte == 0x5C, i + 1 < end, bytes[i + 1] == 0x4E || bytes[i + 1] == 0x6E || bytes[i + 1] == 0x68 {
                // `\N`, `\n`, `\h`: line breaks and the hard space, all a space here.
                appendPiece(bytes, pieceStart..<i, syllables)
                if !syllables.drawing && !syllables.inFurigana { text.appendSpace() }
                i += 2
                pieceStart = i
            } else if syllables.karaoke, !syllables.inFurigana,
                byte == 0x7C
                    || (byte == 0xEF && i + 2 < end && bytes[i + 1] == 0xBD && bytes[i + 2] == 0x9C)
            {
                // `|` or `｜` starts a syllable's furigana, which runs to the next karaoke tag.
                appendPiece(bytes, pieceStart..<i, syllables)
                syllables.inFurigana = true
                i += byte == 0x7C ? 1 : 3
                pieceStart = i
            } else {
                i += 1
            }
        }
        appendPiece(bytes, pieceStart..<end, syllables)
        closeSyllable(&syllables)
        let built = text.finish(lineStart: event.start, lineEnd: event.end, wordTimed: syllables.karaoke)
        return LyricLine(
            start: event.start, end: event.end, text: built.text, segments: built.segments,
            sourceLine: event.line)
    }

    /// What reading one event's text carries from one piece to the next.
    struct SyllableState {
        /// Where the next karaoke syllable starts, in file time.
        var running: Int
        /// The line has a karaoke tag.
        var karaoke = false
        /// Inside a syllable's furigana (after `|`), which is not shown.
        var inFurigana = false
        /// Inside a drawing (`\p1` and above), which is not text.
        var drawing = false
    }

    /// Adds text that is shown, unless it is furigana or a drawing.
    mutating func appendPiece(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ state: SyllableState) {
        guard !range.isEmpty, !state.drawing, !state.inFurigana else { return }
        text.append(bytes, range)
    }

    /// Reads the tags of one `{…}` block: `\k` and its kin start a syllable, `\p` a drawing; the rest is read past.
    mutating func readOverrideBlock(
        _ bytes: UnsafeBufferPointer<UInt8>, _ block: Range<Int>, _ state: inout SyllableState
    ) {
        var i = block.lowerBound
        let end = block.upperBound
        while i < end {
            guard bytes[i] == 0x5C, i + 1 < end else { i += 1; continue }
            i += 1
            let name = bytes[i]
            if name == 0x6B || name == 0x4B { // k, K
                var k = i + 1
                if name == 0x6B, k < end, bytes[k] == 0x66 || bytes[k] == 0x6F { k += 1 } // \kf, \ko
                guard k < end, ByteScanner.isDigit(bytes[k]),
                    let centiseconds = ByteScanner.readDecimal(bytes, &k, end)
                else { continue }
                closeSyllable(&state)
                state.karaoke = true
                state.inFurigana = false
                // Capped, so a hundred digits cannot overflow the milliseconds.
                let duration = Int(min(centiseconds, 1e9) * 10)
                text.mark(start: state.running, end: state.running + duration)
                state.running += duration
                i = k
            } else if name == 0x70, i + 1 < end, ByteScanner.isDigit(bytes[i + 1]) { // \p1
                var k = i + 1
                state.drawing = (ByteScanner.readDecimal(bytes, &k, end) ?? 0) > 0
                i = k
            }
        }
    }

    /// Ends the current syllable: one that is only `#` continues the syllable before it.
    mutating func closeSyllable(_ state: inout SyllableState) {
        // The lead-in mark is always first; a real syllable is the second mark or later.
        guard state.karaoke, text.marks.count >= 3, text.bytesSinceLastMark.elementsEqual([0x23]),
            let continued = text.marks.last?.end
        else { return }
        text.removeLastMark()
        text.setLastMarkEnd(continued)
    }
}
