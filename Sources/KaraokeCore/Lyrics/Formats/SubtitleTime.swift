import Glibc

/// Clock times as subtitle formats write them, read from UTF-8 bytes: SRT `00:01:02,500`, WebVTT
/// `01:02.500`, ASS `0:01:02.50`.
///
/// Every reader returns the time in milliseconds and the index after it, or nil when the bytes there
/// do not hold a time. None of them reads past `end`, and none overflows on a hundred digits.
enum SubtitleTime {
    /// Hours beyond this are refused: no song lasts that long, and the product cannot overflow an `Int`.
    static let maximumHours = 999_999

    /// Reads a forgiving clock time: `h…h:mm:ss[.,]fff` or `mm:ss[.,]fff`, one or two digits for
    /// minutes and seconds, a fraction of 0 to 3 digits (more are read and ignored), read as a decimal
    /// fraction (`,04` is 40 ms, as SRT and ASS writers mean it). Four fraction digits are refused.
    ///
    /// Used for SRT and ASS, whose writers vary a lot, and as WebVTT's fallback.
    static func readLenient(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> (time: Int, next: Int)? {
        // Three fields at most, kept in plain variables: this runs for every cue of a large file.
        var fields = (0, 0, 0)
        var fieldCount = 0
        var i = start
        while fieldCount < 3 {
            let (value, digits) = ByteScanner.readDigits(bytes, &i, end, keeping: 7)
            // The first field (hours, or minutes when there are no hours) may be long; the others are 1 or 2 digits.
            guard digits >= 1, digits <= (fieldCount == 0 ? 6 : 2) else { return nil }
            switch fieldCount {
            case 0: fields.0 = value
            case 1: fields.1 = value
            default: fields.2 = value
            }
            fieldCount += 1
            guard i < end, bytes[i] == UInt8(ascii: ":"), i + 1 < end, ByteScanner.isDigit(bytes[i + 1]) else { break }
            i += 1
        }
        guard fieldCount >= 2 else { return nil }
        let hours = fieldCount == 3 ? fields.0 : 0
        let minutes = fieldCount == 3 ? fields.1 : fields.0
        let seconds = fieldCount == 3 ? fields.2 : fields.1
        guard hours <= maximumHours, minutes <= 59 || fieldCount == 2, seconds <= 59 else { return nil }
        var fraction = 0
        if i + 1 < end, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: ","),
            ByteScanner.isDigit(bytes[i + 1])
        {
            i += 1
            let digits: Int
            (fraction, digits) = ByteScanner.readFraction(bytes, &i, end)
            guard digits <= 3 else { return nil }
        }
        guard minutes < 10_000_000 else { return nil }
        return (hours * 3_600_000 + minutes * 60_000 + seconds * 1000 + fraction, i)
    }

    /// Reads a WebVTT timestamp exactly as the WebVTT standard's parser does: `mm:ss.ttt` or
    /// `h…h:mm:ss.ttt`, where a first field of other than two digits, or above 59, is hours.
    ///
    /// With `lenientFraction`, the fraction may also have 1 or 2 digits, or (after hours, minutes and
    /// seconds) be missing, as files made by hand have them. A `,` stays wrong: WebVTT's tests insist.
    static func readWebVTT(
        _ bytes: UnsafeBufferPointer<UInt8>, at start: Int, end: Int,
        lenientFraction: Bool = false
    ) -> (time: Int, next: Int)? {
        var i = start
        func number() -> (value: Int, digits: Int) { ByteScanner.readDigits(bytes, &i, end, keeping: 9) }
        let first = number()
        guard first.digits > 0 else { return nil }
        let firstIsHours = first.digits != 2 || first.value > 59
        guard i < end, bytes[i] == UInt8(ascii: ":") else { return nil }
        i += 1
        let second = number()
        guard second.digits == 2 else { return nil }
        var hours = 0, minutes = first.value, seconds = second.value
        var threeFields = false
        if firstIsHours || (i < end && bytes[i] == UInt8(ascii: ":")) {
            guard i < end, bytes[i] == UInt8(ascii: ":") else { return nil }
            i += 1
            let third = number()
            guard third.digits == 2 else { return nil }
            hours = first.value
            minutes = second.value
            seconds = third.value
            threeFields = true
            guard first.digits <= 6 else { return nil }
        }
        guard minutes <= 59, seconds <= 59, hours <= maximumHours else { return nil }
        let whole = hours * 3_600_000 + minutes * 60_000 + seconds * 1000
        guard i < end, bytes[i] == UInt8(ascii: ".") else {
            // `00:01:39` alone: only hours, minutes and seconds together are clear enough without a fraction.
            return lenientFraction && threeFields ? (whole, i) : nil
        }
        i += 1
        let fraction = number()
        if fraction.digits == 3 { return (whole + fraction.value, i) }
        guard lenientFraction, fraction.digits == 1 || fraction.digits == 2 else { return nil }
        return (whole + fraction.value * (fraction.digits == 1 ? 100 : 10), i)
    }

    /// `hh:mm:ss.ttt` for a time in milliseconds, as a message quotes it.
    static func format(_ milliseconds: Int) -> String {
        let total = max(0, milliseconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = total % 1000
        let three = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        return "\(two(total / 3_600_000)):\(two(total / 60_000 % 60)):\(two(total / 1000 % 60)).\(three)"
    }
}

/// The text of one cue or dialogue line as it is read piece by piece, and the word segments marked in it.
///
/// It makes the shown text as every format needs it: control characters dropped, runs of white space
/// (line breaks included) collapsed to one space, outer spaces trimmed; and it keeps the space after
/// a word at the end of that word's segment, so the segments concatenate to the text exactly.
struct CueText {
    /// Where a segment starts in the text, when it starts and, when the format says, when it ends.
    struct Mark {
        var byteStart: Int
        var start: Int
        var end: Int?
    }

    private(set) var bytes: [UInt8] = []
    private(set) var marks: [Mark] = []
    /// White space was read and is owed, unless the text ends first.
    private var pendingSpace = false

    init() { bytes.reserveCapacity(128) }

    /// Empties the text for the next cue, keeping its storage.
    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        marks.removeAll(keepingCapacity: true)
        pendingSpace = false
    }

    /// Whether nothing has been written yet.
    var isEmpty: Bool { bytes.isEmpty }

    /// Notes white space: one space is written before the next visible text.
    mutating func appendSpace() {
        if !bytes.isEmpty { pendingSpace = true }
    }

    /// Appends `source[range]`: white space collapsed, control characters dropped.
    mutating func append(_ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            if ByteScanner.isWhitespace(source[i]) {
                appendSpace()
                i += 1
                continue
            }
            var runEnd = i + 1
            while runEnd < end, !ByteScanner.isWhitespace(source[runEnd]) { runEnd += 1 }
            flushSpace()
            ControlCharacters.appendStripped(source, i..<runEnd, to: &bytes)
            i = runEnd
        }
    }

    /// Appends one character, such as a decoded entity; white space and control characters as above.
    mutating func append(_ scalar: Unicode.Scalar) {
        if scalar.value < 0x80 && ByteScanner.isWhitespace(UInt8(scalar.value)) { return appendSpace() }
        guard !ControlCharacters.isForbidden(scalar.value) else { return }
        flushSpace()
        UTF8.encode(scalar) { bytes.append($0) }
    }

    /// Starts a word segment at `start` (file time); `end` nil means it runs to the next mark or the line's end.
    ///
    /// Space read before the mark is written first, so it ends the segment before.
    mutating func mark(start: Int, end: Int? = nil) {
        flushSpace()
        marks.append(Mark(byteStart: bytes.count, start: start, end: end))
    }

    /// The bytes written since the last mark.
    var bytesSinceLastMark: ArraySlice<UInt8> { bytes[(marks.last?.byteStart ?? 0)...] }

    /// Drops the last mark and the text written since it; used for ASS continuation syllables.
    mutating func removeLastMark() {
        guard let last = marks.popLast() else { return }
        bytes.removeSubrange(last.byteStart...)
        pendingSpace = false
    }

    /// Moves the end of the last mark; used for ASS continuation syllables.
    mutating func setLastMarkEnd(_ end: Int) {
        guard !marks.isEmpty else { return }
        marks[marks.count - 1].end = end
    }

    private mutating func flushSpace() {
        if pendingSpace && !bytes.isEmpty && bytes.last != 0x20 { bytes.append(0x20) }
        pendingSpace = false
    }

    /// The shown text, and the word segments when `wordTimed`, clamped into the line's span.
    ///
    /// A segment runs from its mark to its own end, else to the next mark, else to the line's end. A
    /// segment left without text (all spaces, at the line's edges) is dropped. Segments never start
    /// before the one before them has ended.
    func finish(lineStart: Int, lineEnd: Int, wordTimed: Bool) -> (text: String, segments: [WordSegment]) {
        var high = bytes.count
        while high > 0, bytes[high - 1] == 0x20 { high -= 1 }
        let text = String(decoding: bytes[0..<high], as: UTF8.self)
        guard wordTimed, !marks.isEmpty, high > 0 else { return (text, []) }
        let end = max(lineStart, lineEnd)
        var segments: [WordSegment] = []
        segments.reserveCapacity(marks.count)
        var previousEnd = lineStart
        // Where the segment before ends in `bytes`: a space that starts a segment (`<c> and</c>`) is
        // moved there, as the space after a word belongs to that word.
        var previousTo = 0
        for index in marks.indices {
            let mark = marks[index]
            let next = index + 1 < marks.count ? marks[index + 1] : nil
            var from = mark.byteStart
            let to = min(next?.byteStart ?? high, high)
            let start = min(max(mark.start, previousEnd), end)
            let stop = min(max(mark.end ?? next?.start ?? end, start), end)
            if from < to, bytes[from] == 0x20, let last = segments.indices.last, previousTo == from {
                segments[last].text += " "
                from += 1
            }
            guard from < to else { continue }
            segments.append(
                WordSegment(start: start, end: stop, text: String(decoding: bytes[from..<to], as: UTF8.self)))
            previousEnd = stop
            previousTo = to
        }
        // Text before the first mark (a format that marks every piece never has any) joins the first segment.
        if let first = marks.first, first.byteStart > 0, !segments.isEmpty {
            segments[0].text = String(decoding: bytes[0..<first.byteStart], as: UTF8.self) + segments[0].text
        }
        return (text, segments)
    }
}
