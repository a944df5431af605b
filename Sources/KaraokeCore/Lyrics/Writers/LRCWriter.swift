/// Writes LRC and Enhanced LRC as `LRCParser` reads them back.
///
/// Times are the song's file-time stamps rounded to the nearest centisecond, and `[offset:]` is kept,
/// so a round trip gives the same stamps and offset. A line ends where the next stamp is; a line that
/// ends earlier (a gap, as subtitle cues have) gets an empty end marker `[mm:ss.xx]` at its end.
struct LRCWriter {
    let song: Song
    /// Whether word segments are written as `<mm:ss.xx>` tags (Enhanced LRC) or dropped.
    let enhanced: Bool

    /// The kinds of thing LRC cannot hold, in the order of their warnings.
    private enum Loss: CaseIterable {
        case wordTimed, voiced, unvoicedAfterVoiced, overlapping, nudged, escaped, beyondReader
    }

    /// `LRCParser` refuses stamps of 100 hours and more as broken; a song can still have them (WebVTT
    /// allows any number of hours), so they are written, with a warning.
    static let readerLimit = ByteScanner.timeLimit

    /// The text and its warnings.
    func write() -> (text: String, warnings: [String]) {
        var out = ""
        var losses = LossTally<Loss>()
        let metadata = song.metadata
        for (key, value) in [
            ("ti", metadata.title), ("ar", metadata.artist), ("al", metadata.album),
            ("au", metadata.author), ("by", metadata.creator), ("la", metadata.language),
        ] {
            // A value runs to the last `]` of its line, so a `]` inside it reads back as it is.
            if let value, !value.isEmpty { out += "[\(key):\(value)]\n" }
        }
        if let length = metadata.length { out += "[length:\(Self.stamp(length))]\n" }
        if metadata.offset != 0 { out += "[offset:\(metadata.offset)]\n" }

        let stamps = writtenStamps(&losses)
        var sawVoice = false
        for (index, line) in song.lines.enumerated() {
            let start = stamps[index]
            let next = index + 1 < stamps.count ? stamps[index + 1] : nil
            // Where the line ends once read back, and whether an end marker must say so.
            var end = Self.rounded(line.end)
            var marker: Int?
            if let next {
                if end > next {
                    losses.count(.overlapping)
                    end = next
                } else if end < next {
                    // A marker on the line's own stamp would be read as nothing; 0.01 s is the least it can last.
                    let at = max(end, start + 10)
                    if at < next { marker = at }
                    end = min(at, next)
                }
            } else if !line.endIsEstimated {
                let at = max(end, start + 10)
                marker = at
                end = at
            }
            // Voice markers (`v1: `, `D: `) hold until the next one, as `LineMarkup` reads them: each voiced
            // line gets its own, and a line without a singer after a voiced one cannot say so.
            var voiceMarker = ""
            // Text that would read as a marker is kept as text by a word joiner in front.
            var joiner = ""
            switch line.voice {
            case .part(let n)? where n < 9: voiceMarker = "v\(n + 1): "
            case .part?: losses.count(.voiced)
            case .together?: voiceMarker = "D: "
            case nil:
                if sawVoice { losses.count(.unvoicedAfterVoiced) }
                if LineMarkup.voiceMarker(in: Substring(line.text)) != nil {
                    joiner = LyricWriter.wordJoiner
                    losses.count(.escaped)
                }
            }
            if line.voice != nil { sawVoice = true }
            if max(start, marker ?? start) >= Self.readerLimit { losses.count(.beyondReader) }
            var escapedLine = false
            // The voice marker comes right after the stamp, before any word tag: a player that knows no
            // voices then shows it as text and still reads a timed first word.
            out += "[\(Self.stamp(start))]" + voiceMarker
            if line.isWordTimed && enhanced {
                escapedLine = appendWordTagged(
                    line, start: start, end: end, isLast: next == nil, joiner: joiner, to: &out)
            } else {
                if line.isWordTimed { losses.count(.wordTimed) }
                out += joiner
                escapedLine = append(
                    line.text, leading: voiceMarker.isEmpty && joiner.isEmpty, tagFollows: false, to: &out)
            }
            out += "\n"
            for translation in line.translations where !translation.isEmpty {
                out += "[\(Self.stamp(start))]"
                if append(translation, leading: true, tagFollows: false, to: &out) { escapedLine = true }
                out += "\n"
            }
            if let marker { out += "[\(Self.stamp(marker))]\n" }
            if escapedLine { losses.count(.escaped) }
        }
        return (out, warnings(losses))
    }

    /// The stamp each line is written at: its start rounded to the centisecond, and at least 0.01 s
    /// after the line before, since LRC reads a second line on the same stamp as a translation.
    private func writtenStamps(_ losses: inout LossTally<Loss>) -> [Int] {
        var stamps: [Int] = []
        stamps.reserveCapacity(song.lines.count)
        var previous = Int.min
        for line in song.lines {
            var stamp = Self.rounded(line.start)
            if previous != Int.min, stamp <= previous {
                stamp = previous + 10
                losses.count(.nudged)
            }
            stamps.append(stamp)
            previous = stamp
        }
        return stamps
    }

    /// Appends a word-timed line's text with a tag before each segment, a tag at the end of a gap
    /// between words, and a closing tag; true when some text had to be escaped.
    ///
    /// The last line's closing tag is left out when the segment runs to the line's estimated end (as an
    /// open last segment does), so that the reader estimates the same end again. `joiner` (a word joiner,
    /// or nothing) goes in front of the first segment's text, where it keeps a would-be voice marker text.
    private func appendWordTagged(
        _ line: LyricLine, start: Int, end: Int, isLast: Bool, joiner: String, to out: inout String
    ) -> Bool {
        var escaped = false
        var previousEnd = start
        for (index, segment) in line.segments.enumerated() {
            // Clamped into the line as it is read back, and never before the segment before.
            let from = min(max(Self.rounded(segment.start), previousEnd), end)
            let to = min(max(Self.rounded(segment.end), from), end)
            if index > 0, from != previousEnd { out += "<\(Self.stamp(previousEnd))>" }
            out += "<\(Self.stamp(from))>"
            if index == 0 { out += joiner }
            if append(segment.text, leading: false, tagFollows: true, to: &out) { escaped = true }
            previousEnd = to
        }
        let last = line.segments[line.segments.count - 1]
        let open =
            isLast && line.endIsEstimated
            && (last.end == line.end || last.end - last.start == song.sweepCap) // no cap is Int.max: subtract
        if !open { out += "<\(Self.stamp(previousEnd))>" }
        return escaped
    }

    /// Appends `text`, with a word joiner after any bracket LRC would read as a timestamp or tag;
    /// true when one was put in.
    ///
    /// What `LRCParser` takes for a tag: at the start of a line, `[` followed by a digit or sign and
    /// any `]` (a stamp, or a malformed one that is dropped), or `[` with no `]` at all (the whole
    /// line is dropped, so the joiner goes before it); inside the text, `<` or `[` followed by a digit
    /// or sign and its closer within 16 bytes, when what is between reads as a time or holds a colon.
    /// When the text ends before a closer and a word tag follows, the tag's own `>` could close it,
    /// so that is escaped too.
    private func append(_ text: String, leading: Bool, tagFollows: Bool, to out: inout String) -> Bool {
        let bytes = Array(text.utf8)
        var positions: [Int] = [] // indices after which a word joiner goes
        var prefixed = false // whether one goes before the text
        bytes.withUnsafeBufferPointer { buffer in
            let count = buffer.count
            for i in 0..<count where buffer[i] == 0x5B || buffer[i] == 0x3C {
                let closer: UInt8 = buffer[i] == 0x5B ? 0x5D : 0x3E
                let next = i + 1 < count ? buffer[i + 1] : nil
                let signOrDigit = next.map { ByteScanner.isDigit($0) || $0 == 0x2B || $0 == 0x2D } ?? false
                if leading, i == 0, buffer[i] == 0x5B {
                    var close = 1
                    while close < count, buffer[close] != 0x5D { close += 1 }
                    if close == count {
                        // No bracket inside can help here: the reader looks for `]` to the line's end.
                        prefixed = true
                    } else {
                        if signOrDigit { positions.append(i) }
                        continue
                    }
                }
                guard signOrDigit else { continue }
                var close = i + 1
                while close < count, buffer[close] != closer, close - i < 16 { close += 1 }
                if close < count, buffer[close] == closer {
                    switch readStamp(buffer, (i + 1)..<close) {
                    case .time, .secondsAbove59: positions.append(i)
                    case .malformed:
                        if ((i + 1)..<close).contains(where: { buffer[$0] == 0x3A }) { positions.append(i) }
                    case .notStamp: break
                    }
                } else if close == count, close - i < 16, tagFollows {
                    positions.append(i)
                }
            }
        }
        guard !positions.isEmpty || prefixed else {
            out += text
            return false
        }
        out += LyricWriter.insertingWordJoiners(into: bytes, after: positions, inFront: prefixed)
        return true
    }

    /// The warnings for what was lost, in a fixed order.
    private func warnings(_ losses: LossTally<Loss>) -> [String] {
        let target = enhanced ? "elrc" : "lrc"
        var warnings = losses.warnings { loss, n in
            let lines = counted(n, "line")
            switch loss {
            case .wordTimed: return "\(lines) lost word timing, which lrc cannot hold; convert to elrc to keep it"
            case .voiced:
                return "\(lines) lost \(agreeing(n, "its singer", "their singers")): LRC voice markers go from v1 to v9"
            case .unvoicedAfterVoiced:
                return "\(lines) without a singer \(agreeing(n, "follows", "follow")) a voiced line; LRC voice markers "
                    + "hold until the next one, so \(agreeing(n, "it is", "they are")) read as sung by the singer before"
            case .overlapping:
                return "\(lines) \(agreeing(n, "overlaps", "overlap")) the line after; \(target) ends a line where the "
                    + "next one starts, so \(agreeing(n, "it ends", "they end")) earlier"
            case .nudged:
                return
                    "\(lines) \(agreeing(n, "starts", "start")) within 0.01 s of the line before; moved 0.01 s later "
                    + "so that \(target) does not read \(agreeing(n, "it", "them")) as a translation"
            case .escaped:
                return "\(lines) \(agreeing(n, "holds", "hold")) text that \(target) would read as a timestamp; a word "
                    + "joiner (U+2060) after the bracket keeps it text"
            case .beyondReader:
                return "\(lines) \(agreeing(n, "starts or ends", "start or end")) at 100 hours or later; "
                    + "\(agreeing(n, "it is", "they are")) written, but karaoke's LRC reader takes such stamps for "
                    + "broken ones"
            }
        }
        let dropped = metadataNames(song.metadata, including: [.audioFile])
        if !dropped.isEmpty {
            warnings.append("\(target) has no tag for the \(dropped.joined(separator: ", ")); dropped")
        }
        return warnings
    }

    /// A time rounded to the nearest centisecond, in milliseconds; never negative.
    static func rounded(_ milliseconds: Int) -> Int { (max(0, milliseconds) + 5) / 10 * 10 }

    /// `mm:ss.xx` for a time in milliseconds, rounded to the nearest centisecond; minutes may pass 59.
    static func stamp(_ milliseconds: Int) -> String {
        let centiseconds = rounded(milliseconds) / 10
        let minutes = centiseconds / 6000, seconds = centiseconds / 100 % 60, hundredths = centiseconds % 100
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(minutes)):\(two(seconds)).\(two(hundredths))"
    }
}
