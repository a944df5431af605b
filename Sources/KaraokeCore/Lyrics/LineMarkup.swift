/// Conventions some LRC files write inside a line's text: a duet voice marker at its start (`v1:`,
/// `M:`, `F:`, `D:`) and an inline translation after ` | `.
enum LineMarkup {
    /// The voice a marker at the start of `text` names, and the text after it; nil when there is none.
    ///
    /// `v1:`…`v9:` are parts 0…8, `M:` (male) part 0, `F:` (female) part 1, `D:` (duet) everyone. The
    /// marker must be followed by a space or the end, so `F:ever` is not read as one.
    static func voiceMarker(in text: Substring) -> (voice: Voice, rest: Substring)? {
        let utf8 = text.utf8
        guard let first = utf8.first else { return nil }
        var index = utf8.index(after: utf8.startIndex)
        let voice: Voice
        switch first {
        case UInt8(ascii: "v"), UInt8(ascii: "V"):
            guard index < utf8.endIndex, let digit = Optional(utf8[index]), digit >= 0x31 && digit <= 0x39 else {
                return nil
            }
            voice = .part(Int(digit) - 0x31)
            index = utf8.index(after: index)
        case UInt8(ascii: "M"): voice = .part(0)
        case UInt8(ascii: "F"): voice = .part(1)
        case UInt8(ascii: "D"): voice = .together
        default: return nil
        }
        guard index < utf8.endIndex, utf8[index] == UInt8(ascii: ":") else { return nil }
        index = utf8.index(after: index)
        guard index == utf8.endIndex || utf8[index] == UInt8(ascii: " ") else { return nil }
        let rest = Substring(text.utf8[index...]).drop { $0 == " " }
        return rest.isEmpty ? nil : (voice, rest)
    }

    /// The sung text and the translation of a line written `sung | translation`, or nil without ` | `.
    static func inlineTranslation(in text: String) -> (sung: String, translation: String)? {
        // Searched in the UTF-8 bytes: this runs on every line of every LRC file, and nearly none has a bar.
        let utf8 = text.utf8
        guard let bar = utf8.firstIndex(of: UInt8(ascii: "|")) else { return nil }
        var search = bar
        var found: String.Index?
        while true {
            if search > utf8.startIndex, utf8[utf8.index(before: search)] == UInt8(ascii: " "),
                utf8.index(after: search) < utf8.endIndex, utf8[utf8.index(after: search)] == UInt8(ascii: " ")
            {
                found = search
                break
            }
            guard let next = utf8[utf8.index(after: search)...].firstIndex(of: UInt8(ascii: "|")) else { break }
            search = next
        }
        guard let found else { return nil }
        let sung = Substring(utf8[..<utf8.index(before: found)]).trimmingSpaces
        let translation = Substring(utf8[utf8.index(found, offsetBy: 2)...]).trimmingSpaces
        guard !sung.isEmpty, !translation.isEmpty else { return nil }
        return (String(sung), String(translation))
    }

    /// Applies both conventions to the lines of an LRC song: a voice marker sets the voice of its line and
    /// of the lines after it until the next marker; a line-timed line's ` | ` part becomes a translation.
    static func apply(to lines: inout [LyricLine]) {
        var voice: Voice?
        var sawMarker = false
        for index in lines.indices {
            let marker = voiceMarker(in: Substring(lines[index].text))
            // Most lines of most files have neither: leave them untouched, without a copy.
            if marker == nil && !sawMarker && !lines[index].text.utf8.contains(UInt8(ascii: "|")) { continue }
            var line = lines[index]
            if let marker {
                sawMarker = true
                voice = marker.voice
                let removed = line.text.utf8.count - marker.rest.utf8.count
                line.text = String(marker.rest)
                if !line.segments.isEmpty {
                    // The marker is at the start of the first segment(s); drop its bytes from them.
                    var left = removed
                    var k = 0
                    while left > 0, k < line.segments.count {
                        let segmentBytes = line.segments[k].text.utf8.count
                        let cut = min(left, segmentBytes)
                        line.segments[k].text = String(Substring(line.segments[k].text.utf8.dropFirst(cut)))
                        left -= cut
                        k += 1
                    }
                    line.segments.removeAll { $0.text.isEmpty }
                }
            }
            if sawMarker { line.voice = voice }
            if line.segments.isEmpty, let split = inlineTranslation(in: line.text) {
                line.text = split.sung
                line.translations.insert(split.translation, at: 0)
            }
            lines[index] = line
        }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while result.first == " " { result.removeFirst() }
        while result.last == " " { result.removeLast() }
        return result
    }
}

extension Song {
    /// The song without its translations (`--no-translation`).
    public func withoutTranslations() -> Song {
        var song = self
        for index in song.lines.indices { song.lines[index].translations = [] }
        return song
    }

    /// The number of distinct duet parts (voices other than everyone together).
    public var partCount: Int {
        Set(lines.compactMap { line -> Int? in if case .part(let n) = line.voice { return n } else { return nil } })
            .count
    }
}
