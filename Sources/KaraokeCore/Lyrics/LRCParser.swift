import Glibc

/// Reads LRC, Enhanced LRC (`<mm:ss.xx>` word tags) and the ESLyric variant (inline `[mm:ss.xx]` word tags).
///
/// Lenient, as DESIGN §2 asks: a line it cannot use becomes a warning and the rest plays. It works on the
/// UTF-8 bytes and makes a `String` only for the text it keeps, which is what makes a 100,000-line file
/// parse in a few milliseconds.
public enum LRCParser {
    /// What parsing a file gives.
    public typealias Result = ParseResult

    /// At most this many diagnostics are kept for one file; the rest are counted in a closing one.
    public static let diagnosticLimit = DiagnosticLog.limit

    /// Parses the UTF-8 text of a lyric file (without BOM; see `SourceText`). `file` names it in messages.
    public static func parse(_ utf8: [UInt8], file: String) -> Result {
        var parser = Parser(file: file)
        utf8.withUnsafeBufferPointer { parser.run($0) }
        return parser.finish()
    }
}

/// One timed lyric entry as read, before sorting: a stamp, its text and its word segments.
struct LyricEntry {
    var stamp: Int
    var text: String
    /// Segments with absolute times, already the model's type so assembly can keep the array as it is.
    /// An open last segment (no closing tag) has `end == LyricEntry.openEnd` until the line's end is known.
    var segments: [WordSegment]
    var sourceLine: Int

    /// The end of a last segment that has no closing tag.
    static let openEnd = Int.min

    /// Whether the last segment runs to the line's end.
    var hasOpenLastSegment: Bool { segments.last?.end == LyricEntry.openEnd }
}

private let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
private let openAngle = UInt8(ascii: "<"), closeAngle = UInt8(ascii: ">")
private let colon = UInt8(ascii: ":"), dot = UInt8(ascii: ".")
private let maximumStamp = ByteScanner.timeLimit

/// What the text between two brackets turned out to be.
enum StampReading: Equatable {
    /// A valid time in milliseconds.
    case time(Int)
    /// A time whose seconds are 60 or more, such as `[02:83.37]`: read as the time it adds up to
    /// (3:23.37), as other LRC readers do, with a warning.
    case secondsAbove59(Int)
    /// Shaped like a timestamp (starts with a digit or sign) but wrong; the problem is for the message.
    case malformed(StampProblem)
    /// Not a timestamp at all (a metadata tag, or text).
    case notStamp
}

/// What is wrong with a malformed timestamp. A plain value, not a `String`, so that reading a good
/// stamp (the parser's most frequent step) returns without building or freeing anything.
enum StampProblem: Equatable, CustomStringConvertible {
    case negative, missingColon, secondsDigits, unexpected(UInt8), fractionDigits, textAfterFraction, beyondLimit

    var description: String {
        switch self {
        case .negative: return "negative timestamp"
        case .missingColon: return "expected ':' after the minutes"
        case .secondsDigits: return "expected two digits of seconds"
        case .unexpected(let byte):
            return byte < 0x80 ? "unexpected '\(Character(Unicode.Scalar(byte)))'" : "unexpected character"
        case .fractionDigits: return "expected 1 to 3 digits of fraction"
        case .textAfterFraction: return "unexpected text after the fraction"
        case .beyondLimit: return "beyond 100 hours"
        }
    }
}

/// Reads `mm:ss`, `mm:ss.x`, `mm:ss.xx`, `mm:ss.xxx` and `mm:ss:xx` from `bytes[range]`.
func readStamp(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> StampReading {
    var i = range.lowerBound
    let end = range.upperBound
    guard i < end else { return .notStamp }
    // Nearly every stamp in the wild is `m…m:ss.xx`: read that shape directly.
    var colonAt = i
    var fastMinutes = 0
    while colonAt < end, colonAt - i < 6, bytes[colonAt] &- 48 < 10 {
        fastMinutes = fastMinutes * 10 + Int(bytes[colonAt] &- 48)
        colonAt += 1
    }
    if colonAt > i, end - colonAt == 6, bytes[colonAt] == colon, bytes[colonAt + 3] == dot {
        let s0 = bytes[colonAt + 1] &- 48, s1 = bytes[colonAt + 2] &- 48
        let c0 = bytes[colonAt + 4] &- 48, c1 = bytes[colonAt + 5] &- 48
        if s0 < 6, s1 < 10, c0 < 10, c1 < 10, fastMinutes * 60_000 < maximumStamp {
            return .time(fastMinutes * 60_000 + (Int(s0) * 10 + Int(s1)) * 1000 + (Int(c0) * 10 + Int(c1)) * 10)
        }
    }
    let first = bytes[i]
    if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
        guard i + 1 < end, ByteScanner.isDigit(bytes[i + 1]) else { return .notStamp }
        if first == UInt8(ascii: "-") { return .malformed(.negative) }
        i += 1
    } else if !ByteScanner.isDigit(first) {
        return .notStamp
    }
    let (minutes, minuteDigits) = ByteScanner.readDigits(bytes, &i, end, keeping: 9)
    guard i < end, bytes[i] == colon else { return .malformed(.missingColon) }
    i += 1
    // Counted on, but not added up past what fits: `[00:` and a hundred digits must not overflow.
    let (seconds, secondDigits) = ByteScanner.readDigits(bytes, &i, end, keeping: 2)
    guard secondDigits == 1 || secondDigits == 2 else { return .malformed(.secondsDigits) }
    var fraction = 0
    if i < end {
        guard bytes[i] == dot || bytes[i] == colon || bytes[i] == UInt8(ascii: ",") else {
            return .malformed(.unexpected(bytes[i]))
        }
        i += 1
        let digits: Int
        (fraction, digits) = ByteScanner.readFraction(bytes, &i, end)
        guard digits >= 1 && digits <= 3 else { return .malformed(.fractionDigits) }
        guard i == end else { return .malformed(.textAfterFraction) }
    }
    guard minuteDigits <= 6, minutes * 60_000 < maximumStamp else { return .malformed(.beyondLimit) }
    let time = minutes * 60_000 + seconds * 1000 + fraction
    return seconds < 60 ? .time(time) : .secondsAbove59(time)
}

/// What a tag's key may hold: `ti`, `#`, and the keys of other tools such as `offset_ms` or `attr1`.
@inline(__always) private func isKeyByte(_ byte: UInt8) -> Bool {
    ByteScanner.isLetter(byte) || ByteScanner.isDigit(byte)
        || byte == UInt8(ascii: "#") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
}

/// The parser's state while it walks one file.
private struct Parser {
    /// The warnings so far, at most `LRCParser.diagnosticLimit` of them.
    var log: DiagnosticLog
    var metadata = SongMetadata()
    var entries: [LyricEntry] = []
    var lineNumber = 0
    /// Scratch space for one piece of text, reused across lines.
    var scratch: [UInt8] = []
    /// The current line's leading stamps, reused across lines (most lines have one).
    var stamps: [Int] = []
    /// The current line's text without its tags, reused across lines.
    var textBytes: [UInt8] = []
    /// The current line's word segments as byte ranges of `textBytes`, reused across lines.
    var rawSegments: [RawSegment] = []
    /// Where the current line starts in the buffer being parsed, for columns.
    var lineStart = 0

    /// A word segment before its text is made a `String`: its times and its bytes in `textBytes`.
    struct RawSegment {
        var start: Int
        var end: Int?
        var bytes: Range<Int>
    }

    init(file: String) {
        log = DiagnosticLog(file: file)
        scratch.reserveCapacity(256)
        textBytes.reserveCapacity(256)
    }

    /// The 1-based byte column of `index` on the current line.
    func column(_ index: Int) -> Int { index - lineStart + 1 }

    /// Keeps a warning about the current line, or only counts it once the limit is reached.
    ///
    /// The message is built only when it is kept: a 50 MB file of bad lines must not format millions.
    mutating func warn(_ column: Int, _ message: @autoclosure () -> String) {
        log.warn(line: lineNumber, column: column, message())
    }

    /// Warns that a stamp such as `[02:83.37]` was read as the time it adds up to.
    mutating func warnSecondsAbove59(_ column: Int, quoted: @autoclosure () -> String, time: Int) {
        warn(column, "timestamp \(quoted()) has seconds above 59; read as \(formatStamp(time))")
    }

    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        // One entry a line is the common case: reserving up front saves regrowing a large array.
        var newlines = 0
        var scan = 0
        while scan < count, let hit = memchr(base + scan, 0x0A, count - scan) {
            newlines += 1
            scan = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
        }
        entries.reserveCapacity(newlines + 1)
        var lines = TextLines(count: count)
        while let line = lines.next(bytes) {
            lineNumber += 1
            parseLine(bytes, line)
        }
    }

    /// Parses one line of the file, first repairing any invalid UTF-8 in it (with a warning).
    mutating func parseLine(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        guard let bad = UTF8Validation.firstInvalidIndex(bytes, range) else {
            return parseValidLine(bytes, range)
        }
        warn(
            bad - range.lowerBound + 1,
            "invalid UTF-8; shown as U+FFFD (is the file in another encoding? convert it with iconv)")
        // Repaired before anything is stripped: dropping the ESC of `C2 1B 9B` would otherwise join
        // `C2 9B`, a C1 control the terminal must never see. Each invalid stretch becomes 0xFF (one
        // U+FFFD, as `String(decoding:)` gives) padded with NULs (which stripping drops), so every
        // byte keeps its column.
        var repaired = Array(UnsafeBufferPointer(rebasing: bytes[range]))
        repaired.withUnsafeMutableBufferPointer { line in
            var i = bad - range.lowerBound
            while i < line.count {
                guard line[i] >= 0x80 else { i += 1; continue }
                switch UTF8Validation.byteRun(UnsafeBufferPointer(line), at: i, end: line.count) {
                case .valid(let length):
                    i += length
                case .invalid(let length):
                    line[i] = 0xFF
                    for k in 1..<length { line[i + k] = 0 }
                    i += length
                }
            }
        }
        repaired.withUnsafeBufferPointer { parseValidLine($0, 0..<$0.count) }
    }

    /// Parses one line whose bytes are valid UTF-8 (or repaired to read as such).
    mutating func parseValidLine(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        lineStart = range.lowerBound
        let end = range.upperBound
        // A BOM where a line starts: the file's own when the caller did not use `SourceText`, or one
        // left inside by joining two files.
        var i = ByteScanner.skip(bytes, from: ByteScanner.skipByteOrderMark(bytes, at: lineStart, end: end), to: end)
        guard i < end else { return }
        guard bytes[i] == openBracket else {
            warn(column(i), "text without a timestamp; line ignored")
            return
        }
        stamps.removeAll(keepingCapacity: true)
        var sawMalformedStamp = false
        // The leading tags: timestamps, or one metadata tag.
        while i < end, bytes[i] == openBracket {
            var close = i + 1
            while close < end, bytes[close] != closeBracket { close += 1 }
            guard close < end else {
                warn(column(i), "\(ByteScanner.quoted(bytes, i..<end)) has no closing ']'")
                return
            }
            switch readStamp(bytes, (i + 1)..<close) {
            case .time(let time):
                stamps.append(time)
            case .secondsAbove59(let time):
                warnSecondsAbove59(column(i), quoted: ByteScanner.quoted(bytes, i..<(close + 1)), time: time)
                stamps.append(time)
            case .malformed(let reason):
                warn(
                    column(i),
                    "malformed timestamp \(ByteScanner.quoted(bytes, i..<(close + 1))) (\(reason)); expected '[mm:ss.xx]'"
                )
                // The good stamps beside it still count: `[01:7x.20][01:30.00]la` is sung at 1:30.
                sawMalformedStamp = true
            case .notStamp:
                if stamps.isEmpty {
                    // After a malformed stamp this is the line's text, which has nowhere to play.
                    if !sawMalformedStamp { readMetadata(bytes, (i + 1)..<end, column: column(i)) }
                    return
                }
                // `[00:01.00][Chorus]`: bracketed text after a stamp is lyric text.
                return readText(bytes, i..<end)
            }
            i = ByteScanner.skip(bytes, from: close + 1, to: end)
        }
        readText(bytes, i..<end)
    }

    /// Reads `key:value]…` where the value runs to the last `]` of the line.
    mutating func readMetadata(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, column: Int) {
        var lastClose = range.upperBound - 1
        while lastClose > range.lowerBound, bytes[lastClose] != closeBracket { lastClose -= 1 }
        var keyEnd = range.lowerBound
        while keyEnd < lastClose, bytes[keyEnd] != colon { keyEnd += 1 }
        guard keyEnd < lastClose, keyEnd > range.lowerBound,
            (range.lowerBound..<keyEnd).allSatisfy({ isKeyByte(bytes[$0]) })
        else {
            warn(
                column,
                "unrecognised tag \(ByteScanner.quoted(bytes, (range.lowerBound - 1)..<(lastClose + 1))); line ignored")
            return
        }
        let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<keyEnd]), as: UTF8.self)
            .lowercased()
        scratch.removeAll(keepingCapacity: true)
        ControlCharacters.appendStripped(bytes, (keyEnd + 1)..<lastClose, to: &scratch)
        // Stripping made tabs spaces, so trimming blanks trims the spaces.
        let value = String(decoding: scratch[ByteScanner.trimmed(scratch, scratch.indices)], as: UTF8.self)
        // Messages point at the value itself, after any space that follows the colon.
        let valueStart = ByteScanner.skip(bytes, from: keyEnd + 1, to: lastClose)
        let valueColumn = column + (valueStart - range.lowerBound) + 1
        switch key {
        case "ti": metadata.title = value.isEmpty ? nil : value
        case "ar": metadata.artist = value.isEmpty ? nil : value
        case "al": metadata.album = value.isEmpty ? nil : value
        case "au": metadata.author = value.isEmpty ? nil : value
        case "by": metadata.creator = value.isEmpty ? nil : value
        case "la": metadata.language = value.isEmpty ? nil : value
        case "length":
            let trimmed = Array(value.utf8)
            let reading = trimmed.withUnsafeBufferPointer { readStamp($0, 0..<$0.count) }
            if case .time(let time) = reading {
                metadata.length = time
            } else if case .secondsAbove59(let time) = reading {
                warnSecondsAbove59(valueColumn, quoted: "'\(value)'", time: time)
                metadata.length = time
            } else if !value.isEmpty {
                warn(valueColumn, "malformed length '\(value)'; expected '[length:mm:ss]'")
            }
        case "offset":
            if let offset = Int(value), offset.magnitude < 3_600_000 {
                metadata.offset = offset
                // Lints for `check` (DESIGN §13.2): an offset is rarely this large unless it was meant as
                // seconds or the stamps are of another cut of the song; and `[offset: -500]` is read as 0
                // by players that take the value right after the colon.
                if offset.magnitude > 10_000 {
                    warn(valueColumn, "offset '\(value)' is over 10 s (the value is in milliseconds)")
                }
                if valueStart > keyEnd + 1 {
                    warn(
                        column + (keyEnd + 1 - range.lowerBound) + 1,
                        "space after the colon in \(ByteScanner.quoted(bytes, (range.lowerBound - 1)..<(lastClose + 1))), "
                            + "which some players misread; write '[offset:\(value)]'")
                }
            } else if !value.isEmpty {
                warn(valueColumn, "malformed offset '\(value)'; expected milliseconds such as '[offset:+250]'")
            }
        default:
            break // re, ve, #, tool and tags we do not know: ignored on purpose.
        }
    }

    /// Reads the text after the leading stamps (in `stamps`), with its word tags.
    ///
    /// The text is gathered as bytes with each segment a range of them; `String`s are made once, after
    /// trimming, and segment strings only for word-timed lines.
    mutating func readText(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        guard let first = stamps.first else { return }
        if stamps.count > 1 {
            // `[00:01.00][00:01.00]la` is sung once, not once plus an identical "translation".
            var seen = Set<Int>()
            stamps.removeAll { !seen.insert($0).inserted }
        }
        textBytes.removeAll(keepingCapacity: true)
        rawSegments.removeAll(keepingCapacity: true)
        var segmentStart = first
        var segmentByteStart = 0
        var sawWordTag = false
        var pieceStart = range.lowerBound
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let byte = bytes[i]
            guard byte == openAngle || byte == openBracket else { i += 1; continue }
            let closer = byte == openAngle ? closeAngle : closeBracket
            var close = i + 1
            while close < end, bytes[close] != closer, close - i < 16 { close += 1 }
            guard close < end, bytes[close] == closer else { i += 1; continue }
            var tagTime: Int
            switch readStamp(bytes, (i + 1)..<close) {
            case .time(let value): tagTime = value
            case .secondsAbove59(let value):
                warnSecondsAbove59(column(i), quoted: ByteScanner.quoted(bytes, i..<(close + 1)), time: value)
                tagTime = value
            case .notStamp: i += 1; continue
            case .malformed(let reason):
                // Only something with a colon was meant as a tag; `<3>` is text.
                guard (i + 1..<close).contains(where: { bytes[$0] == colon }) else { i += 1; continue }
                warn(
                    column(i),
                    "malformed word tag \(ByteScanner.quoted(bytes, i..<(close + 1))) (\(reason)); tag ignored")
                ControlCharacters.appendStripped(bytes, pieceStart..<i, to: &textBytes)
                i = close + 1
                pieceStart = i
                continue
            }
            ControlCharacters.appendStripped(bytes, pieceStart..<i, to: &textBytes)
            if tagTime < segmentStart {
                warn(
                    column(i),
                    "word tag \(ByteScanner.quoted(bytes, i..<(close + 1))) is earlier than the time before it; moved up"
                )
                tagTime = segmentStart
            }
            if textBytes.count > segmentByteStart {
                rawSegments.append(
                    RawSegment(start: segmentStart, end: tagTime, bytes: segmentByteStart..<textBytes.count))
                segmentByteStart = textBytes.count
            }
            segmentStart = tagTime
            sawWordTag = true
            i = close + 1
            pieceStart = i
        }
        ControlCharacters.appendStripped(bytes, pieceStart..<end, to: &textBytes)
        if textBytes.count > segmentByteStart {
            rawSegments.append(RawSegment(start: segmentStart, end: nil, bytes: segmentByteStart..<textBytes.count))
        }
        // The line's outer spaces are not shown; a segment that held nothing else goes with them.
        // Stripping made tabs spaces, so trimming blanks trims the spaces.
        let shown = ByteScanner.trimmed(textBytes, textBytes.indices)
        let low = shown.lowerBound, high = shown.upperBound
        let text = String(decoding: textBytes[low..<high], as: UTF8.self)
        var segments: [WordSegment] = []
        if sawWordTag && low < high {
            segments.reserveCapacity(rawSegments.count)
            for raw in rawSegments {
                let from = max(raw.bytes.lowerBound, low), to = min(raw.bytes.upperBound, high)
                guard from < to else { continue }
                segments.append(
                    WordSegment(
                        start: raw.start, end: raw.end ?? LyricEntry.openEnd,
                        text: String(decoding: textBytes[from..<to], as: UTF8.self)))
            }
        }
        for stamp in stamps {
            let shift = stamp - first
            let shifted =
                shift == 0
                ? segments
                : segments.map {
                    WordSegment(
                        start: $0.start + shift, end: $0.end == LyricEntry.openEnd ? $0.end : $0.end + shift,
                        text: $0.text)
                }
            entries.append(LyricEntry(stamp: stamp, text: text, segments: shifted, sourceLine: lineNumber))
        }
    }

    mutating func finish() -> LRCParser.Result {
        let assembled = SongAssembly.assemble(metadata: metadata, entries: entries)
        // The song's own warnings count toward the limit too (a file can share a stamp thousands of
        // times), and the count of those not shown comes after every warning.
        for note in assembled.notes {
            log.warn(line: note.line, column: 0, note.message)
        }
        return log.finish(
            song: assembled.song,
            noSongMessage: "no timed lyric line (a lyric line starts with a timestamp such as '[00:12.34]')")
    }
}
