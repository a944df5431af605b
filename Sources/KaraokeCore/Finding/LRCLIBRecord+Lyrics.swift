/// A record's lyrics as karaoke writes them (DESIGN §11): timed lyrics go through the LRC parser and
/// writer like any lyric file, so control characters and bidi controls are dropped exactly as they are
/// from files.
extension LRCLIBRecord {
    /// What a record gives to write.
    public enum Lyrics: Sendable, Equatable {
        /// LRC text, with the parser's warnings about the record's lyrics.
        case timed(String, warnings: [Diagnostic])
        /// Untimed lines as text, one a line.
        case untimed(String)
        /// An instrumental: nothing to sing.
        case instrumental
        /// No lyrics, or timed lyrics without a single timed line.
        case none
    }

    /// How the record is named in diagnostics about its lyrics: `lrclib:ID`.
    public var sourceName: String { "lrclib:\(id)" }

    /// The record's lyrics: timed ones parsed and written back as LRC with the record's names and length as
    /// tags (where the lyrics have none), else the untimed ones with control characters dropped.
    public func lyrics() -> Lyrics {
        if isSynced, let synced = syncedLyrics {
            let result = LRCParser.parse(Array(synced.utf8), file: sourceName)
            if var song = result.song {
                song.metadata.title = song.metadata.title ?? ControlCharacters.strip(trackName)
                song.metadata.artist = song.metadata.artist ?? ControlCharacters.strip(artistName)
                song.metadata.album = song.metadata.album ?? albumName.map(ControlCharacters.strip)
                if song.metadata.length == nil, let duration, duration > 0, duration < 360_000 {
                    song.metadata.length = Int((duration * 1000).rounded())
                }
                return .timed(LyricWriter.write(song, to: .lrc).text, warnings: result.diagnostics)
            }
        }
        if hasPlainLyrics, let plain = plainLyrics {
            var lines = plain.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map {
                ControlCharacters.strip(String($0))
            }
            while lines.last?.isEmpty == true { lines.removeLast() }
            return .untimed(lines.joined(separator: "\n") + "\n")
        }
        return instrumental ? .instrumental : .none
    }

    /// One line naming the record for the user: `Artist — Title · Album · 3:52 · synced`.
    public var summary: String {
        var parts = [ControlCharacters.strip(artistName) + " — " + ControlCharacters.strip(trackName)]
        if let album = albumName, !album.isEmpty { parts.append(ControlCharacters.strip(album)) }
        if let duration {
            let seconds = Int(duration.rounded())
            parts.append("\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)")
        }
        parts.append(isSynced ? "synced" : hasPlainLyrics ? "plain" : instrumental ? "instrumental" : "no lyrics")
        return parts.joined(separator: " · ")
    }
}
