/// Turning what the tags hold into lyrics (DESIGN §10.2).
///
/// The order: the SYLT lines when they have text (timed by the tag itself), then the first lyric text
/// that reads as LRC with at least one timed line, then the first text with words in it as plain lyrics.
extension AudioTags {
    /// The lyrics the tags hold, or nil when they hold none. `fileName` names the audio in messages.
    public func lyrics(fileName: String) -> EmbeddedLyrics? {
        if let synced = syncedResult(fileName: fileName) {
            return EmbeddedLyrics(tag: "SYLT", fileName: fileName, content: .timed(synced))
        }
        for text in lyricTexts {
            let result = LRCParser.parse(Array(text.text.utf8), file: fileName)
            if result.song != nil {
                return EmbeddedLyrics(tag: text.source, fileName: fileName, content: .timed(result))
            }
        }
        for text in lyricTexts {
            let lines = Self.plainLines(text.text)
            if !lines.isEmpty { return EmbeddedLyrics(tag: text.source, fileName: fileName, content: .plain(lines)) }
        }
        return nil
    }

    /// The metadata the tags give a song: names, and the length as `[length:]` would.
    public var songMetadata: SongMetadata {
        var metadata = SongMetadata()
        metadata.title = title.map(ControlCharacters.strip)
        metadata.artist = artist.map(ControlCharacters.strip)
        metadata.album = album.map(ControlCharacters.strip)
        if let duration { metadata.length = Int((duration * 1000).rounded()) }
        return metadata
    }

    /// The SYLT lines as a song, through the same assembly as every lyric file (DESIGN §2), or nil when
    /// no line has text.
    ///
    /// A SYLT frame times either whole lines or pieces of lines: taggers that time words start each new
    /// line's piece with a line break. So when any entry after the first starts with one, entries are
    /// joined into lines at the breaks and each piece becomes a word segment; otherwise each entry is a
    /// line. Entries are sorted by time first (ties keep frame order), since nothing makes a frame ordered.
    /// Text is sanitised as lyric files are: control and bidi characters dropped, tabs made spaces.
    func syncedResult(fileName: String) -> ParseResult? {
        guard !syncedLines.isEmpty else { return nil }
        var log = DiagnosticLog(file: fileName)
        var ordered = Array(syncedLines.enumerated())
        ordered.sort {
            $0.element.milliseconds != $1.element.milliseconds
                ? $0.element.milliseconds < $1.element.milliseconds : $0.offset < $1.offset
        }
        let byWords = syncedLines.dropFirst().contains { $0.text.first?.isNewline == true }
        var entries: [LyricEntry] = []
        entries.reserveCapacity(ordered.count)
        for (position, item) in ordered.enumerated() {
            let line = item.element
            let text = Self.sanitised(line.text)
            let startsLine = !byWords || position == 0 || line.text.first?.isNewline == true
            if startsLine {
                let segments =
                    byWords && !text.isEmpty
                    ? [
                        WordSegment(
                            start: line.milliseconds, end: LyricEntry.openEnd,
                            text: Self.sanitisedKeepingSpaces(line.text))
                    ]
                    : []
                entries.append(
                    LyricEntry(stamp: line.milliseconds, text: text, segments: segments, sourceLine: item.offset + 1))
            } else if !text.isEmpty || line.text.contains(" ") {
                // A piece of the current line: the open segment before it ends here.
                // Changed in place: a copy of the entry would copy its segments for every piece.
                let piece = text.isEmpty ? " " : Self.sanitisedKeepingSpaces(line.text)
                let current = entries.count - 1
                if let last = entries[current].segments.indices.last,
                    entries[current].segments[last].end == LyricEntry.openEnd
                {
                    entries[current].segments[last].end = line.milliseconds
                }
                entries[current].segments.append(
                    WordSegment(start: line.milliseconds, end: LyricEntry.openEnd, text: piece))
            }
        }
        // A word-timed line's text is its pieces joined, without spaces at its ends.
        for index in entries.indices where !entries[index].segments.isEmpty {
            entries[index] = Self.trimmedWordLine(entries[index])
        }
        let assembled = SongAssembly.assemble(metadata: songMetadata, entries: entries)
        for note in assembled.notes { log.warn(line: note.line, column: 0, note.message) }
        guard assembled.song != nil else { return nil }
        return log.finish(song: assembled.song, noSongMessage: "no SYLT line has text")
    }

    /// `text` without control and bidi characters (tabs as spaces), outer blanks trimmed.
    static func sanitised(_ text: String) -> String { trimmedBlanks(sanitisedKeepingSpaces(text)) }

    /// `text` without control and bidi characters (tabs as spaces); line breaks are dropped with them.
    static func sanitisedKeepingSpaces(_ text: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        source.withUnsafeBufferPointer { ControlCharacters.appendStripped($0, $0.indices, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` without spaces at either end.
    static func trimmedBlanks(_ text: String) -> String {
        let bytes = Array(text.utf8)
        let range = ByteScanner.trimmed(bytes, bytes.indices)
        return String(decoding: bytes[range], as: UTF8.self)
    }

    /// A word-timed line without spaces at its ends, as LRC shows one: the first segment loses its
    /// leading blanks, the last its trailing ones, and a segment left empty goes.
    static func trimmedWordLine(_ entry: LyricEntry) -> LyricEntry {
        var entry = entry
        var segments = entry.segments
        if !segments.isEmpty { segments[0].text = String(segments[0].text.drop { $0 == " " }) }
        if let last = segments.indices.last {
            segments[last].text = String(segments[last].text.reversed().drop { $0 == " " }.reversed())
        }
        segments.removeAll { $0.text.isEmpty }
        entry.segments = segments
        entry.text = segments.map(\.text).joined()
        return entry
    }

    /// The lines of an untimed text, sanitised; blank lines inside it (between verses) stay, outer ones go.
    static func plainLines(_ text: String) -> [String] {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0.isNewline }).map {
            sanitised(String($0))
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        return lines
    }
}
