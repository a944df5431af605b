/// The text `karaoke sync` times: the lyric lines in order, each cut into the pieces word mode stamps
/// (DESIGN §13.1).
///
/// It comes from plain text (one lyric line per line, blank lines dropped, `[ti:]`-style tags at the top
/// kept) or from a lyric file of any format karaoke reads, whose lines are timed again from scratch.
public struct SyncScript: Sendable, Equatable {
    /// One line to time.
    public struct Line: Sendable, Equatable {
        /// The line as shown: control characters removed, outer spaces trimmed, `|` syllable marks gone.
        public var text: String
        /// What word mode stamps one at a time: words, or the syllables a `|` splits them into; each
        /// word's last piece keeps the space after it, so the pieces concatenate to `text`.
        public var pieces: [String]

        /// A line cut into pieces as `SyncScript.pieces(of:)` cuts it.
        public init(_ raw: String) {
            pieces = SyncScript.pieces(of: raw)
            text = pieces.joined()
        }

        /// A line whose pieces are given (a word-timed line's segments, re-timed).
        public init(pieces: [String]) {
            self.pieces = pieces
            text = pieces.joined()
        }
    }

    /// The song's tags (title, artist, album, author, creator); never an offset or a length, which
    /// belonged to the old timing.
    public var metadata: SongMetadata
    /// The lines, in the order they are sung.
    public var lines: [Line]

    /// Creates a script.
    public init(metadata: SongMetadata = SongMetadata(), lines: [Line]) {
        self.metadata = metadata
        self.lines = lines
    }

    /// Sets the tag called `key` (its LRC name) when it is one a plain text keeps; false for the others.
    static func keep(_ key: String, _ value: String, in metadata: inout SongMetadata) -> Bool {
        switch key {
        case "ti": metadata.title = value
        case "ar": metadata.artist = value
        case "al": metadata.album = value
        case "au": metadata.author = value
        case "by": metadata.creator = value
        default: return false
        }
        return true
    }

    /// Reads the UTF-8 `text` of `file`: a lyric file with timed lines is re-timed (its lines, its words
    /// and its tags kept), anything else is read as plain text. Nil when there is no line to time.
    public static func read(_ utf8: [UInt8], file: String) -> (script: SyncScript?, diagnostics: [Diagnostic]) {
        if LyricFormat.byContent(utf8) != nil || LyricFormat.byExtension(of: file) != nil {
            let result = LyricsReader.parse(utf8, file: file)
            if let song = result.song, !song.lines.isEmpty {
                var metadata = song.metadata
                metadata.offset = 0
                metadata.length = nil
                let lines = song.lines.map { line in
                    line.isWordTimed ? Line(pieces: line.segments.map(\.text)) : Line(line.text)
                }
                // A line sung at several stamps is listed once per stamp: timed again, it is a line each time.
                return (
                    SyncScript(metadata: metadata, lines: lines), result.diagnostics.filter { $0.severity == .warning }
                )
            }
        }
        let script = plain(String(decoding: utf8, as: UTF8.self))
        return (script.lines.isEmpty ? nil : script, [])
    }

    /// Plain text: one lyric line per line, blank lines dropped, `[key:value]` tags before the first
    /// lyric line read as tags (title, artist, album, author and creator kept, others dropped).
    public static func plain(_ text: String) -> SyncScript {
        var script = SyncScript(lines: [])
        var inHead = true
        // Every line end karaoke reads (LF, CRLF, CR) ends a line here too.
        let rows = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        for row in rows {
            let clean = trimmed(ControlCharacters.strip(String(row)))
            guard !clean.isEmpty else { continue }
            if inHead, let (key, value) = tag(in: clean) {
                if !value.isEmpty { _ = keep(key, value, in: &script.metadata) }
                continue
            }
            inHead = false
            let line = Line(clean)
            if !line.text.isEmpty { script.lines.append(line) }
        }
        return script
    }

    /// The pieces of a raw line: its words, split further at `|`; the last piece of each word but the
    /// line's last keeps one space after it.
    static func pieces(of raw: String) -> [String] {
        let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" })
        var pieces: [String] = []
        for (index, word) in words.enumerated() {
            var parts = word.split(separator: "|").map(String.init)
            guard !parts.isEmpty else { continue }
            if index < words.count - 1 { parts[parts.count - 1] += " " }
            pieces += parts
        }
        // A word of bars only, or bars around the last word, must not leave a trailing space.
        if let last = pieces.indices.last, pieces[last].hasSuffix(" ") { pieces[last].removeLast() }
        return pieces
    }

    /// `(key, value)` of a `[key:value]` tag line whose key is two to eight ASCII letters.
    static func tag(in line: String) -> (String, String)? {
        guard line.first == "[", line.last == "]", let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[line.index(after: line.startIndex)..<colon]
        guard (2...8).contains(key.count), key.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
        let value = line[line.index(after: colon)..<line.index(before: line.endIndex)]
        return (key.lowercased(), trimmed(String(value)))
    }

    /// `text` without outer spaces and tabs.
    static func trimmed(_ text: String) -> String {
        var characters = Substring(text)
        while let first = characters.first, first == " " || first == "\t" { characters.removeFirst() }
        while let last = characters.last, last == " " || last == "\t" { characters.removeLast() }
        return String(characters)
    }
}
