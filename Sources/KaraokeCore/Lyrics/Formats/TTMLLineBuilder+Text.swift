extension TTMLLineBuilder {
    /// Hands the characters read since the last tag to the element they are in.
    mutating func flushText() {
        guard !text.isEmpty else { return }
        guard let frame = stack.last, frame.role != .ignored else {
            text.removeAll(keepingCapacity: true)
            return
        }
        if frame.role == .line {
            // A line's text stays bytes until its line is built (DESIGN §7.5); the buffer is lent, not copied.
            var pending: [UInt8] = []
            swap(&pending, &text)
            appendText(pending, to: frame)
            pending.removeAll(keepingCapacity: true)
            swap(&pending, &text)
            return
        }
        let text = String(decoding: self.text, as: UTF8.self)
        self.text.removeAll(keepingCapacity: true)
        switch frame.role {
        case .ignored, .line: return
        case .title: if metadata.title == nil { metadata.title = nonEmpty(collapsed(text)) }
        case .songwriter: if let name = nonEmpty(collapsed(text)) { songwriters.append(name) }
        case .lineTranslation: spanTranslation += text
        case .keyedTranslation: translationMain += text
        case .keyedBackgroundTranslation: translationBackground += text
        case .lineRomanization:
            if let draft = frame.draft, let last = drafts[draft].romanPieces.indices.last {
                drafts[draft].romanPieces[last].text += text
            }
        case .keyedRomanization:
            // Text in the same timed span (or between spans) runs on; a new span starts a piece.
            if let last = romanizationPieces.indices.last, romanizationPieces[last].node == frame.node {
                romanizationPieces[last].text += text
            } else {
                romanizationPieces.append(RomanPiece(text: text, node: frame.node))
            }
        }
    }

    /// Adds text of a line, as UTF-8, to the piece it belongs to.
    mutating func appendText(_ bytes: [UInt8], to frame: OpenElement) {
        guard let draft = frame.draft else { return }
        if let ruby = frame.ruby {
            // Inside a ruby container only the base is shown.
            if frame.isRubyBase { extendPiece(ruby, with: bytes) }
            return
        }
        let isWhitespace = bytes.allSatisfy(ByteScanner.isXMLWhitespace)
        if frame.isSequence, !isWhitespace, let node = frame.node {
            // An anonymous span in a `seq` container lasts no time: W3C never shows it (DESIGN §7.5).
            if !timing.nodes[node].hasAnonymousText {
                timing.nodes[node].hasAnonymousText = true
                let shown = collapsed(String(decoding: bytes, as: UTF8.self)).prefix(40)
                log.warn(
                    line: drafts[draft].sourceLine, column: 0,
                    "text '\(shown)' directly inside a timeContainer=\"seq\" element lasts "
                        + "no time and is never shown; put it in a <span>")
            }
            return
        }
        if isWhitespace && bytes.contains(0x0A) {
            // Layout: what it stands for is decided when the line is built.
            _ = appendPiece(Piece(text: 0..<0, node: -1, isLayout: true), to: draft)
            return
        }
        let lastContent = drafts[draft].lastContent
        let last = drafts[draft].lastPiece
        // The innermost timed span takes its text, unless words came after it (the span resumed after
        // a nested one ended): then the text runs on untimed, so the line keeps its order.
        if let piece = frame.piece, lastContent <= piece {
            extendPiece(piece, with: bytes)
        } else if last >= 0, last == lastContent, pieces[last].node < 0 {
            extendPiece(last, with: bytes)
        } else {
            let start = lineBytes.count
            lineBytes.append(contentsOf: bytes)
            _ = appendPiece(Piece(text: start..<lineBytes.count, node: -1), to: draft)
        }
    }

    /// Adds `bytes` to the text of piece `index`.
    mutating func extendPiece(_ index: Int, with bytes: [UInt8]) {
        var start = pieces[index].text.lowerBound
        if pieces[index].text.upperBound != lineBytes.count {
            // Another piece's text came after this one's: this one moves to the end, to stay one range.
            let moved = pieces[index].text
            start = lineBytes.count
            for offset in moved { lineBytes.append(lineBytes[offset]) }
        }
        lineBytes.append(contentsOf: bytes)
        pieces[index].text = start..<lineBytes.count
    }

    /// Nil for an empty text.
    func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// The text with XML whitespace runs as one space, outer spaces trimmed, control characters removed.
    func collapsed(_ text: String) -> String { collapsedRuns([text]).joined() }

    /// Texts that are shown one after another, whitespace collapsed across their joins (`collapse`).
    func collapsedRuns(_ texts: [String]) -> [String] {
        var bytes: [UInt8] = []
        var starts: [Int] = []
        starts.reserveCapacity(texts.count)
        for text in texts {
            starts.append(bytes.count)
            bytes.append(contentsOf: text.utf8)
        }
        var out: [UInt8] = []
        var ends: [Int] = []
        Self.collapse(bytes, starts: starts, into: &out, ends: &ends)
        return starts.indices.map { k in String(decoding: out[(k == 0 ? 0 : ends[k - 1])..<ends[k]], as: UTF8.self) }
    }

    /// Texts shown one after another, the k-th from `starts[k]` to the next start (the last to the end of
    /// `bytes`), with whitespace collapsed across their joins: a run of XML whitespace is one space, kept at
    /// the end of the text it starts in; the outer spaces are dropped, and so are control characters. The
    /// result goes into the start of `out`, the k-th text ending at `ends[k]` (and starting where the one
    /// before ends); `out` may hold more bytes after it.
    ///
    /// Byte by byte: XML whitespace is ASCII, and the forbidden characters are a few fixed sequences.
    static func collapse(_ bytes: [UInt8], starts: [Int], into out: inout [UInt8], ends: inout [Int]) {
        ends.removeAll(keepingCapacity: true)
        ends.reserveCapacity(starts.count)
        // Never longer than the text: each space stands for white space read. The buffer is the caller's,
        // kept from line to line and never shortened, so a line costs no allocation: the result is its first
        // `ends.last` bytes.
        if out.count < bytes.count { out.append(contentsOf: repeatElement(0, count: bytes.count - out.count)) }
        var written = 0
        out.withUnsafeMutableBufferPointer { out in
            collapse(bytes, starts: starts, into: out, count: &written, ends: &ends)
        }
    }

    /// `collapse` into memory of `bytes.count` bytes, `count` of them written.
    private static func collapse(
        _ bytes: [UInt8], starts: [Int], into out: UnsafeMutableBufferPointer<UInt8>, count written: inout Int,
        ends: inout [Int]
    ) {
        bytes.withUnsafeBufferPointer { bytes in
            var pendingSpace = false
            var sawText = false
            var lastNonEmpty = -1
            for k in starts.indices {
                let upper = k + 1 < starts.count ? starts[k + 1] : bytes.count
                var textStart = written
                var i = starts[k]
                while i < upper {
                    let byte = bytes[i]
                    var count = 1
                    if byte < 0x80 {
                        if ByteScanner.isXMLWhitespace(byte) {
                            pendingSpace = sawText
                            i += 1
                            continue
                        }
                        if byte < 0x20 || byte == 0x7F {
                            i += 1
                            continue
                        }
                    } else {
                        // A whole scalar: the lead byte says how many bytes follow (the text is valid UTF-8).
                        count = min(byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2, upper - i)
                        let second = count > 1 ? bytes[i + 1] : 0
                        let third = count > 2 ? bytes[i + 2] : 0
                        if isForbiddenSequence(byte, second, third) {
                            i += count
                            continue
                        }
                    }
                    if pendingSpace {
                        pendingSpace = false
                        out[written] = 0x20
                        written += 1
                        if written - 1 == textStart, lastNonEmpty >= 0 {
                            // This text has nothing yet: the space stays at the end of the text it started in.
                            for j in lastNonEmpty..<k { ends[j] += 1 }
                            textStart += 1
                        }
                    }
                    for offset in 0..<count { out[written + offset] = bytes[i + offset] }
                    written += count
                    i += count
                    sawText = true
                }
                ends.append(written)
                if written > textStart { lastNonEmpty = k }
            }
        }
    }

    /// Whether the scalar whose UTF-8 begins `lead second third` is one `ControlCharacters.isForbidden`
    /// names: C1 controls (U+0080…U+009F) and the directional embeddings and isolates (U+202A…U+202E,
    /// U+2066…U+2069).
    static func isForbiddenSequence(_ lead: UInt8, _ second: UInt8, _ third: UInt8) -> Bool {
        switch lead {
        case 0xC2: return second <= 0x9F
        case 0xE2:
            return (second == 0x80 && (0xAA...0xAE).contains(third))
                || (second == 0x81 && (0xA6...0xA9).contains(third))
        default: return false
        }
    }
}
