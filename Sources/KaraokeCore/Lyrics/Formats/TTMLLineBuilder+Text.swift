extension TTMLLineBuilder {
    /// Hands the characters read since the last tag to the element they are in.
    mutating func flushText() {
        guard !text.isEmpty else { return }
        let text = String(decoding: self.text, as: UTF8.self)
        self.text.removeAll(keepingCapacity: true)
        guard let frame = stack.last else { return }
        switch frame.role {
        case .ignored: return
        case .title: if metadata.title == nil { metadata.title = nonEmpty(collapsed(text)) }
        case .songwriter: if let name = nonEmpty(collapsed(text)) { songwriters.append(name) }
        case .lineTranslation: spanTranslation += text
        case .keyedTranslation: translationMain += text
        case .keyedBackgroundTranslation: translationBackground += text
        case .line: appendText(text, to: frame)
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

    /// Adds text of a line to the piece it belongs to.
    mutating func appendText(_ text: String, to frame: OpenElement) {
        guard let draft = frame.draft else { return }
        if let ruby = frame.ruby {
            // Inside a ruby container only the base is shown.
            if frame.isRubyBase { drafts[draft].pieces[ruby].text += text }
            return
        }
        let isWhitespace = text.utf8.allSatisfy(ByteScanner.isXMLWhitespace)
        if frame.isSequence, !isWhitespace, let node = frame.node {
            // An anonymous span in a `seq` container lasts no time: W3C never shows it (DESIGN §7.5).
            if !timing.nodes[node].hasAnonymousText {
                timing.nodes[node].hasAnonymousText = true
                let shown = collapsed(text).prefix(40)
                log.warn(
                    line: drafts[draft].sourceLine, column: 0,
                    "text '\(shown)' directly inside a timeContainer=\"seq\" element lasts "
                        + "no time and is never shown; put it in a <span>")
            }
            return
        }
        let isLayout = isWhitespace && text.utf8.contains(0x0A)
        if isLayout {
            drafts[draft].append(Piece(text: text, timing: [], isLayout: true))
            return
        }
        let lastContent = drafts[draft].lastContent
        let last = drafts[draft].pieces.count - 1
        // The innermost timed span takes its text, unless words came after it (the span resumed after
        // a nested one ended): then the text runs on untimed, so the line keeps its order.
        if let piece = frame.piece, lastContent <= piece {
            drafts[draft].pieces[piece].text += text
        } else if last >= 0, last == lastContent, drafts[draft].pieces[last].timing.isEmpty {
            drafts[draft].pieces[last].text += text
        } else {
            drafts[draft].append(Piece(text: text, timing: []))
        }
    }

    /// Nil for an empty text.
    func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// The text with XML whitespace runs as one space, outer spaces trimmed, control characters removed.
    func collapsed(_ text: String) -> String { collapsedRuns([text]).joined() }

    /// Texts that are shown one after another, whitespace collapsed across their joins: a run of XML
    /// whitespace is one space, kept at the end of the text it starts in; the outer spaces are dropped.
    func collapsedRuns(_ texts: [String]) -> [String] {
        // Byte by byte: XML whitespace is ASCII, and the forbidden characters are a few fixed sequences.
        var result: [[UInt8]] = []
        result.reserveCapacity(texts.count)
        var pendingSpace = false
        var sawText = false
        for text in texts {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            var utf8 = text.utf8.makeIterator()
            while let byte = utf8.next() {
                if byte < 0x80 {
                    if ByteScanner.isXMLWhitespace(byte) {
                        pendingSpace = sawText
                        continue
                    }
                    if byte < 0x20 || byte == 0x7F { continue }
                    appendSpace(&pendingSpace, to: &bytes, or: &result)
                    bytes.append(byte)
                    sawText = true
                    continue
                }
                // A whole scalar: the lead byte says how many bytes follow (the text is valid UTF-8).
                let count = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                let second = utf8.next() ?? 0
                let third = count > 2 ? utf8.next() ?? 0 : 0
                let fourth = count > 3 ? utf8.next() ?? 0 : 0
                if Self.isForbiddenSequence(byte, second, third) { continue }
                appendSpace(&pendingSpace, to: &bytes, or: &result)
                bytes.append(byte)
                bytes.append(second)
                if count > 2 { bytes.append(third) }
                if count > 3 { bytes.append(fourth) }
                sawText = true
            }
            result.append(bytes)
        }
        return result.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Puts a pending space at the end of the text before when this text has nothing yet (the space
    /// belongs where it was), else into this text.
    private func appendSpace(_ pending: inout Bool, to bytes: inout [UInt8], or result: inout [[UInt8]]) {
        guard pending else { return }
        pending = false
        if bytes.isEmpty, let last = result.indices.last(where: { !result[$0].isEmpty }) {
            result[last].append(0x20)
        } else {
            bytes.append(0x20)
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
