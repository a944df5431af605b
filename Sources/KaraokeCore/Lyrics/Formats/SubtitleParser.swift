import Glibc

/// Reads SubRip (`.srt`) and WebVTT (`.vtt`) subtitles as lyrics: a line per cue, ending where the cue ends.
///
/// Both work on the UTF-8 bytes a line at a time and make a `String` only for the text they keep. A cue
/// they cannot time is a warning and is skipped; the rest of the file plays.
enum SubtitleParser {
    /// Parses SRT: cues of an optional sequence number, a `00:01:02,500 --> 00:01:04,000` timing line
    /// and text lines up to a blank line.
    static func parseSRT(_ utf8: [UInt8], file: String) -> ParseResult {
        parse(
            utf8, file: file, with: SRTReader.self,
            noSongMessage:
                "no timed cue (an SRT cue starts with a timing line such as '00:00:12,340 --> 00:00:15,000')")
    }

    /// Parses WebVTT as its standard's parser does, with inline `<00:01.500>` timestamps as word tags
    /// and `<v Name>` as the line's singer.
    static func parseWebVTT(_ utf8: [UInt8], file: String) -> ParseResult {
        parse(
            utf8, file: file, with: WebVTTReader.self,
            noSongMessage:
                "no timed cue (a WebVTT cue starts with a timing line such as '00:00:12.340 --> 00:00:15.000')")
    }

    /// Runs a `Reader` over the file and makes the song of its cues, or says `noSongMessage` when there
    /// is none: the part both formats share.
    private static func parse<Reader: CueReader>(
        _ utf8: [UInt8], file: String, with _: Reader.Type, noSongMessage: String
    ) -> ParseResult {
        var reader = Reader(file: file)
        utf8.withUnsafeBufferPointer { reader.run($0) }
        let song = SongAssembly.assemble(metadata: SongMetadata(), timedLines: reader.lines)
        return reader.log.finish(song: song, noSongMessage: noSongMessage)
    }
}

/// A reader of one subtitle format: it walks a file's bytes once, keeping the timed lines and the warnings.
private protocol CueReader {
    /// A reader for the file named `file` in messages.
    init(file: String)
    /// The warnings so far.
    var log: DiagnosticLog { get }
    /// The lines read so far.
    var lines: [LyricLine] { get }
    /// Reads the whole file.
    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>)
}

// MARK: - Shared line tools

/// `range` without the white space at its ends (on a line: spaces, tabs and form feeds).
private func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
    ByteScanner.trimmed(bytes, range, where: ByteScanner.isWhitespace)
}

/// Whether `bytes[range]` holds `-->` somewhere.
private func containsArrow(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
    var i = range.lowerBound
    while i + 2 < range.upperBound {
        if bytes[i] == 0x2D, bytes[i + 1] == 0x2D, bytes[i + 2] == 0x3E { return true }
        i += 1
    }
    return false
}

/// The index after the white space from `i` (on a line: spaces, tabs and form feeds).
private func skipBlanks(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
    ByteScanner.skip(bytes, from: i, to: end, while: ByteScanner.isWhitespace)
}

// MARK: - SRT

/// The SRT parser's state while it walks one file.
private struct SRTReader: CueReader {
    var log: DiagnosticLog
    var lines: [LyricLine] = []
    var text = CueText()
    /// The cue being read: its times and the line of its timing line.
    var cue: (start: Int, end: Int, line: Int)?
    /// A line of digits inside a cue's text: the next cue's number when a timing line follows, else text.
    var pendingNumber: Range<Int>?
    /// A sequence number read between cues, waiting for its timing line.
    var sequenceNumber: Range<Int>?
    /// Inside a block without a timing line, already warned about: skipped up to the next blank line.
    var skipping = false
    /// The index of the next `>` or `}` at or after the last look, per line, so a line of a million
    /// unclosed `<font` is still read in one pass.
    var nextAngle = 0, nextBrace = 0

    init(file: String) { log = DiagnosticLog(file: file) }

    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        var cursor = TextLines(count: bytes.count)
        while let raw = cursor.next(bytes) {
            let line = trimmed(bytes, raw)
            let number = cursor.number
            if line.isEmpty {
                finishCue(bytes)
                skipping = false
                sequenceNumber = nil
                continue
            }
            if let timing = readTiming(bytes, line) {
                // A line of digits right before a timing line is the new cue's number, not text.
                pendingNumber = nil
                finishCue(bytes)
                cue = (timing.start, timing.end, number)
                skipping = false
                sequenceNumber = nil
                continue
            }
            if cue != nil {
                if let held = pendingNumber {
                    appendTextLine(bytes, held)
                    pendingNumber = nil
                }
                if line.allSatisfy({ ByteScanner.isDigit(bytes[$0]) }) {
                    pendingNumber = line
                } else {
                    appendTextLine(bytes, line)
                }
                continue
            }
            if skipping { continue }
            if sequenceNumber == nil, line.allSatisfy({ ByteScanner.isDigit(bytes[$0]) }) {
                sequenceNumber = line
                continue
            }
            skipping = true
            let column = line.lowerBound - raw.lowerBound + 1
            if containsArrow(bytes, line) {
                log.warn(
                    line: number, column: column,
                    "malformed timing line \(ByteScanner.quoted(bytes, line)); "
                        + "expected '00:00:00,000 --> 00:00:00,000'; cue skipped")
            } else if let sequence = sequenceNumber {
                log.warn(
                    line: number, column: column,
                    "cue \(ByteScanner.quoted(bytes, sequence)) has no timing line; "
                        + "found \(ByteScanner.quoted(bytes, line)); cue skipped")
            } else {
                log.warn(
                    line: number, column: column,
                    "text without a timing line \(ByteScanner.quoted(bytes, line)); skipped")
            }
        }
        finishCue(bytes)
    }

    /// Reads `start --> end` and whatever follows it (SRT position coordinates `X1:… Y1:…`, ignored).
    func readTiming(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> (start: Int, end: Int)? {
        let end = line.upperBound
        guard line.count >= 10, ByteScanner.isDigit(bytes[line.lowerBound]),
            let start = SubtitleTime.readLenient(bytes, at: line.lowerBound, end: end)
        else { return nil }
        var i = skipBlanks(bytes, start.next, end)
        guard end - i >= 3, bytes[i] == 0x2D, bytes[i + 1] == 0x2D, bytes[i + 2] == 0x3E else { return nil }
        i = skipBlanks(bytes, i + 3, end)
        guard let stop = SubtitleTime.readLenient(bytes, at: i, end: end),
            stop.next == end || bytes[stop.next] == 0x20 || bytes[stop.next] == 0x09
        else { return nil }
        return (start.time, stop.time)
    }

    /// Adds one text line to the cue: a space before it, styling tags read past.
    mutating func appendTextLine(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) {
        text.appendSpace()
        let end = line.upperBound
        nextAngle = line.lowerBound
        nextBrace = line.lowerBound
        var i = line.lowerBound
        var pieceStart = i
        while i < end {
            let byte = bytes[i]
            guard byte == 0x3C || byte == 0x7B else { i += 1; continue }
            var close = end
            if byte == 0x3C {
                // `<i>`, `</i>`, `<b>`, `<u>`, `<s>`, `<font …>`: anything else (`I <3 you`) is text.
                guard let after = styleTagNameEnd(bytes, i + 1, end) else { i += 1; continue }
                if nextAngle < after {
                    nextAngle = ByteScanner.index(of: 0x3E, in: bytes, from: after, to: end)
                }
                close = nextAngle
            } else {
                // `{\an8}` and other ASS override blocks some SRT writers keep; `{laughs}` is text.
                guard i + 1 < end, bytes[i + 1] == 0x5C else { i += 1; continue }
                if nextBrace < i + 1 {
                    nextBrace = ByteScanner.index(of: 0x7D, in: bytes, from: i + 1, to: end)
                }
                close = nextBrace
            }
            guard close < end else { i += 1; continue }
            text.append(bytes, pieceStart..<i)
            i = close + 1
            pieceStart = i
        }
        text.append(bytes, pieceStart..<end)
    }

    /// The index after a styling tag's name (`i`, `/font`, …) when one starts at `i` and may close there.
    func styleTagNameEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int? {
        var i = from
        if i < end, bytes[i] == 0x2F { i += 1 }
        guard i < end else { return nil }
        if ByteScanner.hasPrefix("font", in: bytes, at: i, end: end, ignoringCase: true) {
            let after = i + 4
            guard after < end, bytes[after] == 0x3E || bytes[after] == 0x20 else { return nil }
            return after
        }
        let letter = bytes[i] | 0x20
        guard letter == 0x69 || letter == 0x62 || letter == 0x75 || letter == 0x73, // i b u s
            i + 1 < end, bytes[i + 1] == 0x3E
        else { return nil }
        return i + 1
    }

    /// Turns the cue read so far into a line.
    mutating func finishCue(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let current = cue else { return }
        if let held = pendingNumber { appendTextLine(bytes, held) }
        pendingNumber = nil
        let built = text.finish(lineStart: current.start, lineEnd: current.end, wordTimed: false)
        lines.append(LyricLine(start: current.start, end: current.end, text: built.text, sourceLine: current.line))
        text.reset()
        cue = nil
    }
}

// MARK: - WebVTT

/// The WebVTT parser's state while it walks one file.
private struct WebVTTReader: CueReader {
    var log: DiagnosticLog
    var lines: [LyricLine] = []
    var text = CueText()
    /// Singers by name, numbered in the order the file introduces them.
    var voices: [String: Int] = [:]
    /// The current cue's text lines and their line numbers, reused across cues.
    var textLines: [(range: Range<Int>, number: Int)] = []

    init(file: String) { log = DiagnosticLog(file: file) }

    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        var cursor = TextLines(count: bytes.count)
        let start = cursor
        guard let signature = cursor.next(bytes) else { return }
        // A BOM the caller left (SourceText removes the file's own).
        let from = ByteScanner.skipByteOrderMark(bytes, at: signature.lowerBound, end: signature.upperBound)
        let hasSignature =
            ByteScanner.hasPrefix("WEBVTT", in: bytes, at: from, end: signature.upperBound, ignoringCase: true)
            && (signature.upperBound - from == 6 || bytes[from + 6] == 0x20 || bytes[from + 6] == 0x09)
        if hasSignature {
            // The header: lines up to a blank one, or up to a timing line right under it.
            while true {
                let before = cursor
                guard let line = cursor.next(bytes), !line.isEmpty else { break }
                if containsArrow(bytes, line) { cursor = before; break }
            }
        } else {
            log.warn(line: 1, column: 1, "missing 'WEBVTT' header; read as WebVTT anyway")
            cursor = start
        }
        while readBlock(bytes, &cursor) {}
    }

    /// Reads one block (a cue, a NOTE, STYLE or REGION block, or garbage) as the standard's
    /// "collect a WebVTT block" does; false at the end of the text.
    mutating func readBlock(_ bytes: UnsafeBufferPointer<UInt8>, _ cursor: inout TextLines) -> Bool {
        var lineCount = 0
        var seenArrow = false
        var timing: (start: Int, end: Int, line: Int)?
        var firstLine: (range: Range<Int>, number: Int)?
        textLines.removeAll(keepingCapacity: true)
        while true {
            let before = cursor
            guard let line = cursor.next(bytes) else { break }
            if lineCount == 0 && line.isEmpty { continue } // blank lines between blocks
            lineCount += 1
            if containsArrow(bytes, line) {
                // A timing line is the block's first line, or its second after an identifier.
                guard lineCount == 1 || (lineCount == 2 && !seenArrow) else { cursor = before; break }
                seenArrow = true
                timing = readTiming(bytes, line, number: cursor.number)
                textLines.removeAll(keepingCapacity: true)
                continue
            }
            if line.isEmpty { break }
            if lineCount == 1 { firstLine = (line, cursor.number) }
            textLines.append((line, cursor.number))
        }
        guard lineCount > 0 else { return false }
        if let timing {
            addCue(bytes, timing)
        } else if !seenArrow, let first = firstLine, !isNoteStyleOrRegion(bytes, first.range) {
            log.warn(
                line: first.number, column: 1,
                "text without a cue timing \(ByteScanner.quoted(bytes, first.range)); skipped")
        }
        return true
    }

    /// `NOTE …`, `STYLE` and `REGION` blocks are not cues and are skipped quietly.
    func isNoteStyleOrRegion(_ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
        for word in ["NOTE", "STYLE", "REGION"] as [StaticString] {
            let from = line.lowerBound, count = word.utf8CodeUnitCount
            guard ByteScanner.hasPrefix(word, in: bytes, at: from, end: line.upperBound, ignoringCase: false) else {
                continue
            }
            if line.count == count || ByteScanner.isBlank(bytes[from + count]) { return true }
        }
        return false
    }

    /// Reads `start --> end` and the cue settings after it (read past), warning when it cannot.
    mutating func readTiming(
        _ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>,
        number: Int
    ) -> (start: Int, end: Int, line: Int)? {
        let end = line.upperBound
        let first = skipBlanks(bytes, line.lowerBound, end)
        func fail() -> (start: Int, end: Int, line: Int)? {
            log.warn(
                line: number, column: first - line.lowerBound + 1,
                "malformed cue timing \(ByteScanner.quoted(bytes, first..<end)); "
                    + "expected '00:00:00.000 --> 00:00:00.000'; cue skipped")
            return nil
        }
        guard let start = readTimestamp(bytes, first, end, number: number, line: line) else { return fail() }
        var i = skipBlanks(bytes, start.next, end)
        guard start.next < end, i > start.next, end - i >= 3,
            bytes[i] == 0x2D, bytes[i + 1] == 0x2D, bytes[i + 2] == 0x3E
        else { return fail() }
        i += 3
        let afterArrow = i
        i = skipBlanks(bytes, i, end)
        guard i > afterArrow, let stop = readTimestamp(bytes, i, end, number: number, line: line) else { return fail() }
        return (start.time, stop.time, number)
    }

    /// A WebVTT timestamp; one with a short or missing fraction is read too, with a warning.
    mutating func readTimestamp(
        _ bytes: UnsafeBufferPointer<UInt8>, _ at: Int, _ end: Int, number: Int,
        line: Range<Int>
    ) -> (time: Int, next: Int)? {
        if let strict = SubtitleTime.readWebVTT(bytes, at: at, end: end) { return strict }
        guard let loose = SubtitleTime.readWebVTT(bytes, at: at, end: end, lenientFraction: true),
            loose.next == end || bytes[loose.next] == 0x20 || bytes[loose.next] == 0x09 || bytes[loose.next] == 0x0C
                || bytes[loose.next] == 0x3E
        else { return nil }
        log.warn(
            line: number, column: at - line.lowerBound + 1,
            "timestamp \(ByteScanner.quoted(bytes, at..<loose.next)) is not WebVTT; read as "
                + "'\(SubtitleTime.format(loose.time))'")
        return loose
    }

    /// Turns a timed block into a line: its text with the tags read past, word segments, singer.
    mutating func addCue(_ bytes: UnsafeBufferPointer<UInt8>, _ timing: (start: Int, end: Int, line: Int)) {
        text.reset()
        text.mark(start: timing.start)
        var state = CueState(previousTag: timing.start)
        for (range, number) in textLines {
            text.appendSpace()
            readCueLine(bytes, range, number: number, timing: timing, state: &state)
        }
        let built = text.finish(lineStart: timing.start, lineEnd: timing.end, wordTimed: state.sawTimestamp)
        lines.append(
            LyricLine(
                start: timing.start, end: timing.end, text: built.text, segments: built.segments,
                sourceLine: timing.line, voice: state.voice))
    }

    /// What reading a cue's text carries from one of its lines to the next.
    struct CueState {
        var previousTag: Int
        var sawTimestamp = false
        var inRubyText = false
        var voice: Voice?
    }

    /// Reads one line of cue text: tags, entities and text.
    mutating func readCueLine(
        _ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>, number: Int,
        timing: (start: Int, end: Int, line: Int), state: inout CueState
    ) {
        let end = line.upperBound
        var i = line.lowerBound
        var pieceStart = i
        func flush(_ upTo: Int) {
            if !state.inRubyText { text.append(bytes, pieceStart..<upTo) }
        }
        while i < end {
            let byte = bytes[i]
            if byte == 0x26 { // &
                guard let (scalar, after) = readEntity(bytes, i, end) else { i += 1; continue }
                flush(i)
                if !state.inRubyText { text.append(scalar) }
                i = after
                pieceStart = i
                continue
            }
            guard byte == 0x3C else { i += 1; continue } // <
            flush(i)
            // A tag runs to its `>`, or to the end of the line when it has none, as the standard says.
            let close = ByteScanner.index(of: 0x3E, in: bytes, from: i + 1, to: end)
            readTag(
                bytes, (i + 1)..<close, number: number, column: i - line.lowerBound + 1,
                quoted: i..<min(close + 1, end), timing: timing, state: &state)
            i = min(close + 1, end)
            pieceStart = i
        }
        flush(end)
    }

    /// Acts on one tag's contents: a timestamp, `<v Name>`, `<rt>`/`</rt>`, or anything else read past.
    mutating func readTag(
        _ bytes: UnsafeBufferPointer<UInt8>, _ tag: Range<Int>, number: Int, column: Int,
        quoted: Range<Int>, timing: (start: Int, end: Int, line: Int), state: inout CueState
    ) {
        guard let first = tag.first.map({ bytes[$0] }) else { return }
        if ByteScanner.isDigit(first) {
            // Not a time (`<0.500>`, `<1:00>`): read past, as the standard does. A short fraction is forgiven.
            guard
                let stamp = SubtitleTime.readWebVTT(
                    bytes, at: tag.lowerBound, end: tag.upperBound, lenientFraction: true),
                stamp.next == tag.upperBound
            else { return }
            var time = stamp.time
            if time < timing.start {
                log.warn(
                    line: number, column: column,
                    "word tag \(ByteScanner.quoted(bytes, quoted)) is before the cue's start; moved to it")
                time = timing.start
            } else if time > timing.end {
                log.warn(
                    line: number, column: column,
                    "word tag \(ByteScanner.quoted(bytes, quoted)) is after the cue's end; moved to it")
                time = max(timing.end, timing.start)
            }
            if time < state.previousTag {
                log.warn(
                    line: number, column: column,
                    "word tag \(ByteScanner.quoted(bytes, quoted)) is earlier than the time before it; moved up")
                time = state.previousTag
            }
            state.previousTag = time
            state.sawTimestamp = true
            text.mark(start: time)
            return
        }
        let closing = first == 0x2F
        var nameStart = tag.lowerBound + (closing ? 1 : 0)
        var nameEnd = nameStart
        while nameEnd < tag.upperBound, !ByteScanner.isWhitespace(bytes[nameEnd]), bytes[nameEnd] != 0x2E {
            nameEnd += 1
        }
        let name = nameStart..<nameEnd
        func named(_ word: StaticString) -> Bool {
            ByteScanner.equals(word, in: bytes, name, ignoringCase: true)
        }
        if closing {
            if named("rt") || named("ruby") { state.inRubyText = false }
            return
        }
        if named("rt") {
            state.inRubyText = true
        } else if named("v"), state.voice == nil {
            // The annotation after the name and its classes is the singer.
            nameStart = nameEnd
            while nameStart < tag.upperBound, !ByteScanner.isWhitespace(bytes[nameStart]) { nameStart += 1 }
            var singer = CueText()
            singer.append(bytes, nameStart..<tag.upperBound)
            let voiceName = singer.finish(lineStart: 0, lineEnd: 0, wordTimed: false).text
            guard !voiceName.isEmpty else { return }
            let part = voices[voiceName] ?? voices.count
            voices[voiceName] = part
            state.voice = .part(part)
        }
    }

    /// Decodes `&amp;`, `&lt;`, `&gt;`, `&nbsp;`, `&lrm;`, `&rlm;`, `&#65;` and `&#x41;` at `i`.
    func readEntity(_ bytes: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> (Unicode.Scalar, Int)? {
        // The longest entity read is `&#x10FFFF;`: looking no further keeps a line of `&` linear.
        var semicolon = i + 1
        while semicolon < end, semicolon - i <= 10, bytes[semicolon] != 0x3B { semicolon += 1 }
        guard semicolon < end, bytes[semicolon] == 0x3B else { return nil }
        let body = (i + 1)..<semicolon
        let after = semicolon + 1
        if bytes[body.lowerBound] == 0x23 { // #
            var k = body.lowerBound + 1
            let hex = k < semicolon && bytes[k] | 0x20 == 0x78
            if hex { k += 1 }
            guard k < semicolon else { return nil }
            var value: UInt32 = 0
            while k < semicolon {
                let b = bytes[k]
                let digit: UInt32
                if ByteScanner.isDigit(b) {
                    digit = UInt32(b - 48)
                } else if hex, (b | 0x20) >= 0x61, (b | 0x20) <= 0x66 {
                    digit = UInt32((b | 0x20) - 0x61 + 10)
                } else {
                    return nil
                }
                value = min(value * (hex ? 16 : 10) + digit, 0x110000)
                k += 1
            }
            return (Unicode.Scalar(value) ?? "\u{FFFD}", after)
        }
        let entities: [(StaticString, Unicode.Scalar)] = [
            ("amp", "&"), ("lt", "<"), ("gt", ">"), ("nbsp", "\u{A0}"), ("lrm", "\u{200E}"), ("rlm", "\u{200F}"),
        ]
        // Entity names are case-sensitive.
        for (name, scalar) in entities where ByteScanner.equals(name, in: bytes, body, ignoringCase: false) {
            return (scalar, after)
        }
        return nil
    }
}
