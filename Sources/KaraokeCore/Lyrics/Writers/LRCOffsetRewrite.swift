/// Rewrites the bytes of an LRC or Enhanced LRC file so that its timing carries an offset more, touching
/// nothing but the `[offset:]` tag or the time stamps (DESIGN §13.2).
///
/// It reads the file as `LRCParser` does (the same leading stamps, word tags, ESLyric inline stamps and
/// tags, with the same limits), so the rewritten file parses to the same song shown the same offset
/// sooner or later. Everything else, line ends (LF, CRLF, CR), a UTF-8 byte order mark, text, spacing
/// and tags it does not change, stays byte for byte.
public enum LRCOffsetRewrite {
    /// Where the offset goes.
    public enum Mode: Sendable, Equatable {
        /// Into the `[offset:]` tag: its value grows by the offset, or the tag is added after the file's
        /// other tags when there is none. The stamps stay as they are.
        case tag
        /// Into every stamp: each moves by the file's offset plus the new one, and the `[offset:]` tags
        /// the parser reads are removed (for players that ignore `[offset:]`).
        case stamps
    }

    /// A rewritten file.
    public struct Rewritten: Sendable, Equatable {
        /// The whole file, rewritten; the same bytes when `changed` is false.
        public var bytes: [UInt8]
        /// The file's `[offset:]` in milliseconds afterwards, as the parser reads it (0 without the tag).
        public var offset: Int
        /// Whether anything changed: adding 0 to the tag, or moving stamps by 0, leaves the file alone.
        public var changed: Bool
        /// How many stamps would have moved before 0:00 (or past the 100-hour limit) and were held there.
        public var clampedStamps: Int
    }

    /// Why a file cannot be rewritten.
    public enum Failure: Error, Sendable, Equatable {
        /// UTF-16, or not mostly UTF-8: an edit of its bytes could break characters (`convert` writes UTF-8).
        case notUTF8
        /// The new `[offset:]` would be an hour or more, which the parser refuses.
        case offsetTooLarge(Int)
    }

    /// The largest offset magnitude the parser reads, in milliseconds (exclusive).
    public static let offsetLimit = 3_600_000

    /// `bytes` (a whole file, with its BOM if it has one) with `milliseconds` more offset, put where
    /// `mode` says. A positive offset shows the lyrics sooner, as `[offset:]` and `--offset` do.
    public static func rewrite(
        _ bytes: [UInt8], adding milliseconds: Int, mode: Mode
    ) -> Result<Rewritten, Failure> {
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            return .failure(.notUTF8)
        }
        guard TextEncoding.isMostlyUTF8(bytes) else { return .failure(.notUTF8) }
        let scan = bytes.withUnsafeBufferPointer { Scan($0) }
        let current = scan.offsetTags.last?.value ?? 0
        var edits: [Edit] = []
        switch mode {
        case .tag:
            guard milliseconds != 0 else { return .success(unchanged(bytes, offset: current)) }
            let new = current + milliseconds
            guard new.magnitude < offsetLimit else { return .failure(.offsetTooLarge(new)) }
            if let last = scan.offsetTags.last {
                // The last valid tag is the one the parser keeps; earlier ones it overrides stay as they are.
                edits.append(Edit(range: last.valueRange, bytes: Array("\(new)".utf8)))
            } else {
                let tag = Array("[offset:\(new)]".utf8)
                let at = scan.insertionPoint
                let text = at.needsLineEndBefore ? scan.lineEnd + tag : tag + scan.lineEnd
                edits.append(Edit(range: at.index..<at.index, bytes: text))
            }
            return .success(
                Rewritten(bytes: apply(edits, to: bytes), offset: new, changed: true, clampedStamps: 0))
        case .stamps:
            let total = current + milliseconds
            guard total != 0 || current != 0 else { return .success(unchanged(bytes, offset: 0)) }
            var clamped = 0
            for stamp in scan.stamps {
                var time = stamp.time - total
                if time < 0 || time >= ByteScanner.timeLimit {
                    clamped += 1
                    time = min(max(time, 0), ByteScanner.timeLimit - 1)
                }
                edits.append(Edit(range: stamp.range, bytes: Array(stamp.form.format(time).utf8)))
            }
            for tag in scan.offsetTags {
                edits.append(Edit(range: tag.line, bytes: []))
            }
            edits.sort { $0.range.lowerBound < $1.range.lowerBound }
            return .success(
                Rewritten(bytes: apply(edits, to: bytes), offset: 0, changed: true, clampedStamps: clamped))
        }
    }

    /// The file's `[offset:]` in milliseconds, as the parser reads it: the last valid tag, else 0.
    public static func offset(in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { Scan($0) }.offsetTags.last?.value ?? 0
    }

    private static func unchanged(_ bytes: [UInt8], offset: Int) -> Rewritten {
        Rewritten(bytes: bytes, offset: offset, changed: false, clampedStamps: 0)
    }

    /// Replaces each edit's range (in order, not overlapping) by its bytes.
    private static func apply(_ edits: [Edit], to bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        var copied = 0
        for edit in edits {
            output += bytes[copied..<edit.range.lowerBound]
            output += edit.bytes
            copied = edit.range.upperBound
        }
        output += bytes[copied...]
        return output
    }

    /// One replacement of a byte range.
    private struct Edit {
        var range: Range<Int>
        var bytes: [UInt8]
    }
}

/// How a stamp was written, so that a moved stamp is written the same way.
struct StampForm: Equatable {
    /// How many digits the minutes had (kept as the least, zero-padded).
    var minuteDigits: Int
    /// The fraction's mark (`.`, `:` or `,`), or nil for `[mm:ss]`.
    var separator: UInt8?
    /// How many fraction digits it had, 0…3.
    var fractionDigits: Int

    /// The form of the stamp text `bytes[range]` (between its brackets), which `readStamp` accepted.
    init(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var i = range.lowerBound
        if i < range.upperBound, bytes[i] == UInt8(ascii: "+") { i += 1 }
        let minutesStart = i
        while i < range.upperBound, ByteScanner.isDigit(bytes[i]) { i += 1 }
        minuteDigits = i - minutesStart
        i += 1 // the colon
        while i < range.upperBound, ByteScanner.isDigit(bytes[i]) { i += 1 }
        separator = i < range.upperBound ? bytes[i] : nil
        fractionDigits = i < range.upperBound ? range.upperBound - i - 1 : 0
    }

    /// A form given directly.
    init(minuteDigits: Int, separator: UInt8?, fractionDigits: Int) {
        self.minuteDigits = minuteDigits
        self.separator = separator
        self.fractionDigits = fractionDigits
    }

    /// `milliseconds` in this form, without brackets: never rounded. A time the form's fraction cannot
    /// hold gets the digits it needs (`[00:12]` moved by 250 ms is `[00:11.75]`), so nothing drifts.
    func format(_ milliseconds: Int) -> String {
        let minutes = milliseconds / 60_000, seconds = milliseconds / 1000 % 60, fraction = milliseconds % 1000
        let needed = fraction == 0 ? 0 : fraction % 100 == 0 ? 1 : fraction % 10 == 0 ? 2 : 3
        let digits = max(fractionDigits, needed)
        var text = padded(minutes, to: minuteDigits) + ":" + padded(seconds, to: 2)
        if digits > 0 {
            let scaled = digits == 1 ? fraction / 100 : digits == 2 ? fraction / 10 : fraction
            text += String(UnicodeScalar(separator ?? UInt8(ascii: "."))) + padded(scaled, to: digits)
        }
        return text
    }

    private func padded(_ value: Int, to width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// What `LRCOffsetRewrite` needs of a file, found the way `LRCParser` walks it.
private struct Scan {
    /// A time stamp: where its text is (inside the brackets), its time and its form.
    struct Stamp {
        var range: Range<Int>
        var time: Int
        var form: StampForm
    }

    /// A valid `[offset:]` tag: its whole line with the line end, its value's bytes and the value.
    struct OffsetTag {
        var line: Range<Int>
        var valueRange: Range<Int>
        var value: Int
    }

    /// Every stamp the parser reads as a time: leading stamps and word tags.
    var stamps: [Stamp] = []
    /// The `[offset:]` tags the parser reads, in order; the last one counts.
    var offsetTags: [OffsetTag] = []
    /// Where a new tag goes: after the last tag line of the file's head, else at its start (after the BOM).
    var insertionPoint = (index: 0, needsLineEndBefore: false)
    /// The file's line end (that of its first line that has one), LF when it has none.
    var lineEnd: [UInt8] = [0x0A]

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        let start = ByteScanner.skipByteOrderMark(bytes, at: 0, end: bytes.count)
        insertionPoint = (start, false)
        var lines = TextLines(count: bytes.count)
        // TextLines starts at 0; the BOM is no part of a tag, and the parser never sees it.
        var inHead = true
        var sawLineEnd = false
        while let line = lines.next(bytes) {
            let from = line.lowerBound == 0 ? start : line.lowerBound
            // After a last line without a line end, TextLines stands one past the text.
            let after = min(lines.position, bytes.count)
            if !sawLineEnd, line.upperBound < bytes.count {
                sawLineEnd = true
                lineEnd = Array(UnsafeBufferPointer(rebasing: bytes[line.upperBound..<after]))
            }
            let kind = read(bytes, from..<line.upperBound, wholeLine: from..<after)
            if inHead {
                switch kind {
                case .blank: break
                case .tag: insertionPoint = (after, line.upperBound == after)
                case .other: inHead = false
                }
            }
        }
    }

    /// What a line is, for finding the head of tags.
    enum LineKind { case blank, tag, other }

    /// Reads one line as `LRCParser.parseValidLine` does, keeping its stamps and offset tag.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, wholeLine: Range<Int>) -> LineKind {
        let end = range.upperBound
        var i = ByteScanner.skip(
            bytes, from: ByteScanner.skipByteOrderMark(bytes, at: range.lowerBound, end: end), to: end)
        guard i < end else { return .blank }
        guard bytes[i] == UInt8(ascii: "[") else { return .other }
        var sawStamp = false, sawMalformed = false
        while i < end, bytes[i] == UInt8(ascii: "[") {
            var close = i + 1
            while close < end, bytes[close] != UInt8(ascii: "]") { close += 1 }
            guard close < end else { return .other }
            switch readStamp(bytes, (i + 1)..<close) {
            case .time(let time), .secondsAbove59(let time):
                stamps.append(Stamp(range: (i + 1)..<close, time: time, form: StampForm(bytes, (i + 1)..<close)))
                sawStamp = true
            case .malformed:
                sawMalformed = true
            case .notStamp:
                if !sawStamp {
                    if sawMalformed { return .other }
                    readTag(bytes, (i + 1)..<end, wholeLine: wholeLine)
                    return .tag
                }
                readWordTags(bytes, i..<end)
                return .other
            }
            i = ByteScanner.skip(bytes, from: close + 1, to: end)
        }
        if sawStamp { readWordTags(bytes, i..<end) }
        return .other
    }

    /// Reads a `key:value]` tag as `LRCParser` does and keeps it when it is a valid `[offset:]`.
    mutating func readTag(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, wholeLine: Range<Int>) {
        var lastClose = range.upperBound - 1
        while lastClose > range.lowerBound, bytes[lastClose] != UInt8(ascii: "]") { lastClose -= 1 }
        var keyEnd = range.lowerBound
        while keyEnd < lastClose, bytes[keyEnd] != UInt8(ascii: ":") { keyEnd += 1 }
        guard keyEnd < lastClose,
            ByteScanner.equals("offset", in: bytes, range.lowerBound..<keyEnd, ignoringCase: true)
        else { return }
        var value: [UInt8] = []
        ControlCharacters.appendStripped(bytes, (keyEnd + 1)..<lastClose, to: &value)
        let trimmed = String(decoding: value[ByteScanner.trimmed(value, value.indices)], as: UTF8.self)
        guard let offset = Int(trimmed), offset.magnitude < LRCOffsetRewrite.offsetLimit else { return }
        offsetTags.append(OffsetTag(line: wholeLine, valueRange: (keyEnd + 1)..<lastClose, value: offset))
    }

    /// Keeps the word tags (`<mm:ss.xx>`, and ESLyric's inline `[mm:ss.xx]`) of a line's text, found
    /// as `LRCParser.readText` finds them.
    mutating func readWordTags(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "<") || byte == UInt8(ascii: "[") else { i += 1; continue }
            let closer = byte == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "]")
            var close = i + 1
            while close < end, bytes[close] != closer, close - i < 16 { close += 1 }
            guard close < end, bytes[close] == closer else { i += 1; continue }
            switch readStamp(bytes, (i + 1)..<close) {
            case .time(let time), .secondsAbove59(let time):
                stamps.append(Stamp(range: (i + 1)..<close, time: time, form: StampForm(bytes, (i + 1)..<close)))
                i = close + 1
            case .notStamp:
                i += 1
            case .malformed:
                i = (i + 1..<close).contains(where: { bytes[$0] == UInt8(ascii: ":") }) ? close + 1 : i + 1
            }
        }
    }
}
