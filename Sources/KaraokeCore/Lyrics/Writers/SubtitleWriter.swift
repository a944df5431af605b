/// Writes SubRip and WebVTT as `SubtitleParser` reads them back.
///
/// Cues are the song's lines in time order, each with its own start and end (to the millisecond), so
/// gaps and overlapping duet lines survive. Neither format has an offset tag: the song's `[offset:]`
/// is applied to the times instead, so the cues play at the moment the lines did.
struct SubtitleWriter {
    /// The two subtitle formats.
    enum Kind {
        case srt, vtt

        /// The format's name in warnings.
        var name: String { self == .srt ? "srt" : "vtt" }
    }

    let song: Song
    let kind: Kind

    /// The kinds of thing the format cannot hold, in the order of their warnings; `beforeZero` (lines the
    /// offset would start before 0:00) is worded in the offset's warning.
    private enum Loss: CaseIterable { case wordTimed, voiced, together, translated, escaped, noteEscaped, beforeZero }

    /// The text and its warnings.
    func write() -> (text: String, warnings: [String]) {
        var out = ""
        var losses = LossTally<Loss>()
        if kind == .vtt {
            out += "WEBVTT\n\n"
            var note = ""
            for (key, value) in [("title", song.metadata.title), ("artist", song.metadata.artist)] {
                guard let value, !value.isEmpty else { continue }
                // A NOTE block ends at `-->`, so an arrow in a title is broken up.
                let safe = value.replacingOccurrences(of: "-->", with: "--\(LyricWriter.wordJoiner)>")
                if safe != value { losses.count(.noteEscaped) }
                note += "\(key): \(safe)\n"
            }
            if !note.isEmpty { out += "NOTE\n\(note)\n" }
        }
        let offset = song.metadata.offset
        for (index, line) in song.lines.enumerated() {
            if line.start - offset < 0 { losses.count(.beforeZero) }
            let start = max(0, line.start - offset), end = max(start, line.end - offset)
            if kind == .srt { out += "\(index + 1)\n" }
            out += "\(time(start)) --> \(time(end))\n"
            var escaped = false
            switch kind {
            case .srt:
                if line.isWordTimed { losses.count(.wordTimed) }
                if line.voice != nil { losses.count(.voiced) }
                for text in [line.text] + line.translations where !text.isEmpty {
                    if appendSRT(text, to: &out) { escaped = true }
                    out += "\n"
                }
            case .vtt:
                if let voice = line.voice {
                    switch voice {
                    case .part(let part): out += "<v Voice \(part + 1)>"
                    case .together:
                        out += "<v Together>"
                        losses.count(.together)
                    }
                }
                if line.isWordTimed {
                    appendWordTimed(line, start: start, end: end, offset: offset, to: &out)
                } else {
                    appendVTT(line.text, to: &out)
                }
                out += "\n"
                for translation in line.translations where !translation.isEmpty {
                    appendVTT(translation, to: &out)
                    out += "\n"
                }
            }
            if line.translations.contains(where: { !$0.isEmpty }) { losses.count(.translated) }
            if escaped { losses.count(.escaped) }
            out += "\n"
        }
        return (out, warnings(losses))
    }

    /// Appends a word-timed cue's text with an inline timestamp before each segment after the first,
    /// and where the words leave gaps: before the first when it starts after the cue, at a gap's start,
    /// and after the last when it ends before the cue does.
    ///
    /// The reader makes a word-timed line only from a cue with at least one timestamp, so a line of
    /// one segment filling its cue gets a timestamp at its end.
    private func appendWordTimed(_ line: LyricLine, start: Int, end: Int, offset: Int, to out: inout String) {
        var previousEnd = start
        var wroteTimestamp = false
        for (index, segment) in line.segments.enumerated() {
            let from = min(max(segment.start - offset, previousEnd), end)
            let to = min(max(segment.end - offset, from), end)
            if index > 0 || from != start {
                if index > 0, from != previousEnd { out += "<\(time(previousEnd))>" }
                out += "<\(time(from))>"
                wroteTimestamp = true
            }
            appendVTT(segment.text, to: &out)
            previousEnd = to
        }
        if previousEnd != end || !wroteTimestamp { out += "<\(time(previousEnd))>" }
    }

    /// Appends text with `&`, `<` and `>` as entities, so nothing in it reads as a tag or an arrow.
    private func appendVTT(_ text: String, to out: inout String) {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E }) else {
            out += text
            return
        }
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.unicodeScalars.append(character)
            }
        }
    }

    /// Appends one SRT text line, with a word joiner where the reader would see markup or an arrow;
    /// true when one was put in.
    ///
    /// SRT has no escapes. `SubtitleParser` reads past `<i>`, `<b>`, `<u>`, `<s>`, `<font …>` and their
    /// closing tags, and `{\…}` blocks, when a closer follows; and `-->` makes a line a timing line, or
    /// ends the cue in other readers. A line of digits alone is safe: every cue ends with a blank line,
    /// and only digits right before a timing line are a cue number.
    private func appendSRT(_ text: String, to out: inout String) -> Bool {
        let bytes = Array(text.utf8)
        let count = bytes.count
        let lastAngle = bytes.lastIndex(of: 0x3E) ?? -1, lastBrace = bytes.lastIndex(of: 0x7D) ?? -1
        var insertAfter: [Int] = []
        var i = 0
        while i < count {
            let byte = bytes[i]
            if byte == 0x2D, i + 2 < count, bytes[i + 1] == 0x2D, bytes[i + 2] == 0x3E {
                insertAfter.append(i + 1)
                i += 3
                continue
            }
            if byte == 0x3C, let nameEnd = styleTagNameEnd(bytes, i + 1), lastAngle >= nameEnd {
                insertAfter.append(i)
            } else if byte == 0x7B, i + 1 < count, bytes[i + 1] == 0x5C, lastBrace > i + 1 {
                insertAfter.append(i)
            }
            i += 1
        }
        guard !insertAfter.isEmpty else {
            out += text
            return false
        }
        out += LyricWriter.insertingWordJoiners(into: bytes, after: insertAfter)
        return true
    }

    /// Where a styling tag's name ends when one starts at `from` (after `<`), as `SubtitleParser` sees them.
    private func styleTagNameEnd(_ bytes: [UInt8], _ from: Int) -> Int? {
        var i = from
        if i < bytes.count, bytes[i] == 0x2F { i += 1 }
        guard i < bytes.count else { return nil }
        if bytes.count - i >= 5, bytes[i..<(i + 4)].map({ $0 | 0x20 }) == Array("font".utf8),
            bytes[i + 4] == 0x3E || bytes[i + 4] == 0x20
        {
            return i + 4
        }
        let letter = bytes[i] | 0x20
        guard letter == 0x69 || letter == 0x62 || letter == 0x75 || letter == 0x73, // i b u s
            i + 1 < bytes.count, bytes[i + 1] == 0x3E
        else { return nil }
        return i + 1
    }

    /// `HH:MM:SS,mmm` (SRT) or `HH:MM:SS.mmm` (WebVTT); hours may pass 99.
    func time(_ milliseconds: Int) -> String {
        let total = max(0, milliseconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let fraction = total % 1000
        let three = fraction < 10 ? "00\(fraction)" : fraction < 100 ? "0\(fraction)" : "\(fraction)"
        let separator = kind == .srt ? "," : "."
        return "\(two(total / 3_600_000)):\(two(total / 60_000 % 60)):\(two(total / 1000 % 60))\(separator)\(three)"
    }

    /// The warnings for what was lost, in a fixed order.
    private func warnings(_ losses: LossTally<Loss>) -> [String] {
        let name = kind.name
        var warnings = losses.warnings { loss, n in
            let lines = counted(n, "line")
            switch loss {
            case .wordTimed:
                return "\(lines) lost word timing, which srt cannot hold; convert to vtt or elrc to keep it"
            case .voiced:
                return "\(lines) lost \(agreeing(n, "its singer", "their singers")), which srt cannot hold; convert "
                    + "to vtt to keep them"
            case .together:
                return "\(lines) sung together \(agreeing(n, "is", "are")) written as a singer named 'Together', "
                    + "which reads back as one more part"
            case .translated:
                return "\(lines) \(agreeing(n, "has", "have")) translations, which \(name) cannot hold apart; they "
                    + "become part of the cue's text"
            case .escaped:
                return "\(lines) \(agreeing(n, "holds", "hold")) text that srt would read as markup or a timing "
                    + "arrow; a word joiner (U+2060) keeps it text"
            case .noteEscaped:
                return "the title or artist holds '-->', which a vtt NOTE cannot; a word joiner (U+2060) breaks it up"
            case .beforeZero: return nil
            }
        }
        let offset = song.metadata.offset
        if offset != 0 {
            var message = "the offset of \(offset) ms is applied to the times, as \(name) has no offset tag"
            if case let n = losses[.beforeZero], n > 0 {
                message +=
                    "; \(counted(n, "line")) that would start before 0:00 \(agreeing(n, "starts", "start")) at 0:00"
            }
            warnings.append(message)
        }
        let fields: Set<MetadataField> =
            kind == .srt
            ? Set(MetadataField.allCases)
            : [.album, .author, .creator, .length, .audioFile]
        let dropped = metadataNames(song.metadata, including: fields)
        if !dropped.isEmpty {
            let holds = kind == .srt ? "srt has no metadata" : "vtt keeps only the title and artist, in a NOTE"
            warnings.append("\(holds); dropped: \(dropped.joined(separator: ", "))")
        }
        return warnings
    }
}
