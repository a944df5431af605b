/// The timed-lyric formats karaoke reads. Every one of them lands in the same `Song`.
public enum LyricFormat: String, CaseIterable, Sendable {
    /// LRC, Enhanced LRC and the ESLyric variant.
    case lrc
    /// SubRip subtitles.
    case srt
    /// WebVTT subtitles.
    case webvtt
    /// UltraStar song `.txt`.
    case ultrastar
    /// Advanced SubStation Alpha / SubStation Alpha, with `\k` karaoke tags.
    case ass
    /// Timed Text Markup Language.
    case ttml
    /// MIDI karaoke: Soft Karaoke `.kar` and Standard MIDI Files with lyric events. Binary: read from the file's
    /// bytes, not from decoded text.
    case midi

    /// The format a file's own words name it by, for messages: "SRT", "WebVTT", ….
    public var displayName: String {
        switch self {
        case .lrc: return "LRC"
        case .srt: return "SRT"
        case .webvtt: return "WebVTT"
        case .ultrastar: return "UltraStar"
        case .ass: return "ASS"
        case .ttml: return "TTML"
        case .midi: return "MIDI karaoke"
        }
    }

    /// The format a file name's extension suggests, or nil for an extension that says nothing.
    public static func byExtension(of fileName: String) -> LyricFormat? {
        guard let dot = fileName.lastIndex(of: "."), !fileName[dot...].contains("/") else { return nil }
        switch fileName[fileName.index(after: dot)...].lowercased() {
        case "lrc", "elrc": return .lrc
        case "srt": return .srt
        case "vtt", "webvtt": return .webvtt
        case "ass", "ssa": return .ass
        case "ttml", "dfxp", "xml": return .ttml
        case "kar", "mid", "midi", "rmi": return .midi
        case "txt": return nil // UltraStar songs are .txt, but so is every other text file
        default: return nil
        }
    }

    /// The format of a file: what its first lines show, else what its extension says, else LRC.
    ///
    /// Content comes first because files are often misnamed (an LRC saved as `.txt`, a WebVTT as `.srt`).
    public static func detect(utf8: [UInt8], fileName: String) -> LyricFormat {
        if isMIDI(utf8) { return .midi }
        return byContent(utf8) ?? byExtension(of: fileName) ?? .lrc
    }

    /// Whether a file is MIDI: its bytes start with `MThd` (or a RIFF MIDI header), or its name ends in `.kar`,
    /// `.mid`, `.midi` or `.rmi` and its head shows no text format. Such a file is parsed from its bytes, before any
    /// text decoding (which would refuse its NUL bytes).
    public static func isMIDI(bytes: [UInt8], fileName: String) -> Bool {
        isMIDI(bytes) || byExtension(of: fileName) == .midi && byContent(bytes) == nil
    }

    /// Whether `bytes` start as a MIDI file does: `MThd`, or `RIFF` … `RMID`.
    static func isMIDI(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: "MThd".utf8)
            || bytes.count >= 12 && bytes.starts(with: "RIFF".utf8) && bytes[8..<12].elementsEqual("RMID".utf8)
    }

    /// The format the first non-blank lines of the text show, or nil when they show none.
    static func byContent(_ utf8: [UInt8]) -> LyricFormat? {
        var lines: [Substring] = []
        var start = 0
        // Only the head of the file is looked at: a format shows itself in its first lines.
        let head = utf8.prefix(4096)
        while start < head.count, lines.count < 12 {
            var end = start
            while end < head.count, head[end] != 0x0A, head[end] != 0x0D { end += 1 }
            let line = String(decoding: head[start..<end], as: UTF8.self)
            let trimmed = line.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }
            if !trimmed.isEmpty { lines.append(Substring(trimmed)) }
            start = end + 1
        }
        guard let first = lines.first else { return nil }
        if first.hasPrefix("WEBVTT") { return .webvtt }
        if first.hasPrefix("<?xml") || first.hasPrefix("<tt")
            || first.hasPrefix("<!--") && lines.contains(where: { $0.hasPrefix("<tt") })
        {
            return .ttml
        }
        let lowered = lines.map { $0.lowercased() }
        if lowered.contains(where: { $0.hasPrefix("[script info]") || $0.hasPrefix("[events]") || $0.hasPrefix("[v4") })
        {
            return .ass
        }
        if lines.contains(where: { $0.hasPrefix("#BPM:") || $0.hasPrefix("#bpm:") })
            || lowered.contains(where: { $0.hasPrefix("#bpm") })
        {
            return .ultrastar
        }
        // UltraStar songs of format 1.1 may leave #BPM out; they still open with their header tags.
        let ultraStarTags = ["#version", "#title", "#artist", "#audio", "#mp3"]
        if ultraStarTags.contains(where: { lowered[0].hasPrefix($0) }) { return .ultrastar }
        // SRT: a cue number, then a `-->` line (the number is often missing in files made by hand).
        if let arrow = lines.firstIndex(where: { $0.includes("-->") }), arrow <= 2,
            lines[0].allSatisfy(\.isNumber) || arrow == 0
        {
            return .srt
        }
        if first.hasPrefix("[") { return .lrc }
        return nil
    }
}

/// Reads a lyric file of any supported format into a song.
public enum LyricsReader {
    /// Parses the UTF-8 text (without BOM; see `SourceText`) in `format`, or the detected one when nil; for
    /// `.midi`, the file's own bytes (`MIDIKaraokeParser` decodes its text).
    public static func parse(_ utf8: [UInt8], file: String, format: LyricFormat? = nil) -> ParseResult {
        switch format ?? LyricFormat.detect(utf8: utf8, fileName: file) {
        case .lrc: return LRCParser.parse(utf8, file: file)
        case .srt: return SubtitleParser.parseSRT(utf8, file: file)
        case .webvtt: return SubtitleParser.parseWebVTT(utf8, file: file)
        case .ass: return ASSParser.parse(utf8, file: file)
        case .ultrastar: return UltraStarParser.parse(utf8, file: file)
        case .ttml: return TTMLParser.parse(utf8, file: file)
        case .midi: return MIDIKaraokeParser.parse(utf8, file: file)
        }
    }
}
