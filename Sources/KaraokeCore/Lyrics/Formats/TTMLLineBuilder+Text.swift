extension TTMLLineBuilder {
    /// Hands the characters read since the last tag to the element they are in.
    mutating func flushText() {
        guard !text.isEmpty else { return }
        defer { text = "" }
        guard let frame = stack.last else { return }
        switch frame.role {
        case .ignored: return
        case .title: if metadata.title == nil { metadata.title = nonEmpty(collapsed(text)) }
        case .songwriter: if let name = nonEmpty(collapsed(text)) { songwriters.append(name) }
        case .lineTranslation: spanTranslation += text
        case .keyedTranslation: translationMain += text
        case .keyedBackgroundTranslation: translationBackground += text
        case .line: appendText(text, to: frame)
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

    /// `agent` for `ttm:agent`: prefixes differ between files, the local names do not.
    func localName<S: StringProtocol>(_ name: S) -> Substring {
        guard let colon = name.lastIndex(of: ":") else { return Substring(name) }
        return Substring(name[name.index(after: colon)...])
    }

    /// `localName` as a `String`.
    func localName(_ name: String) -> String { String(localName(name) as Substring) }

    /// Nil for an empty text.
    func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// The text with XML whitespace runs as one space, outer spaces trimmed, control characters removed.
    func collapsed(_ text: String) -> String { collapsedRuns([text]).joined() }

    /// Texts that are shown one after another, whitespace collapsed across their joins: a run of XML
    /// whitespace is one space, kept at the end of the text it starts in; the outer spaces are dropped.
    func collapsedRuns(_ texts: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(texts.count)
        var pendingSpace = false
        var sawText = false
        for text in texts {
            var scalars = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                if scalar.isASCII, ByteScanner.isXMLWhitespace(UInt8(ascii: scalar)) {
                    pendingSpace = sawText
                    continue
                }
                guard !ControlCharacters.isForbidden(scalar.value) else { continue }
                if pendingSpace {
                    // The space belongs to the end of the text before, when that is where it was.
                    if scalars.isEmpty, !result.isEmpty, let last = result.indices.last(where: { !result[$0].isEmpty })
                    {
                        result[last] += " "
                    } else {
                        scalars.append(" ")
                    }
                    pendingSpace = false
                }
                scalars.append(scalar)
                sawText = true
            }
            result.append(String(scalars))
        }
        return result
    }
}
