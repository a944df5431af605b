/// Reads an `.m3u`/`.m3u8` playlist into queue entries (DESIGN §14.2).
///
/// One path a line, relative paths against the playlist's folder; `#EXTINF:SECONDS,TEXT` gives the
/// next entry's title and `#EXTSINGER:NAME` its singer; other `#` lines are comments. A BOM and CRLF
/// line ends are accepted. URLs are refused with a warning: karaoke plays files on this machine.
public enum Playlist {
    /// The extensions read as playlists.
    public static let extensions = ["m3u", "m3u8"]

    /// Whether `path` names a playlist (by its extension, in any case).
    public static func isPlaylist(_ path: String) -> Bool {
        guard let ext = AudioFiles.fileExtension(of: path) else { return false }
        return extensions.contains(ext.lowercased())
    }

    /// The entries of the playlist `file` whose bytes are `bytes`, and a warning for each line skipped.
    public static func parse(_ bytes: [UInt8], file: String) -> (entries: [QueueEntry], diagnostics: [Diagnostic]) {
        var text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let folder = AudioFiles.folder(of: file)
        var entries: [QueueEntry] = []
        var diagnostics: [Diagnostic] = []
        var title: String?, singer: String?
        // Split on LF only: "\r\n" is one Character in Swift, so splitting on "\n" would miss CRLF lines.
        let lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
        for (number, scalars) in zip(1..., lines) {
            var line = String(String.UnicodeScalarView(scalars))
            while line.last == "\r" || line.last == " " || line.last == "\t" { line.removeLast() }
            while line.first == " " || line.first == "\t" { line.removeFirst() }
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if let rest = value(of: "#EXTINF:", in: line) {
                    // `#EXTINF:SECONDS,TEXT`: the text after the first comma is the title.
                    if let comma = rest.firstIndex(of: ",") {
                        let shown = trimmed(String(rest[rest.index(after: comma)...]))
                        title = shown.isEmpty ? nil : shown
                    }
                } else if let rest = value(of: "#EXTSINGER:", in: line) {
                    let shown = trimmed(rest)
                    singer = shown.isEmpty ? nil : shown
                }
                continue
            }
            if isURL(line) {
                diagnostics.append(
                    Diagnostic(
                        .warning, file: file, line: number, column: 1,
                        "'\(line.prefix(60))' is a URL; a queue plays files on this machine, so it is skipped"))
            } else {
                let path = line.hasPrefix("/") ? line : folder + line
                entries.append(QueueEntry(path: path, title: title, singer: singer))
            }
            title = nil
            singer = nil
        }
        return (entries, diagnostics)
    }

    /// What follows `prefix` in `line`, matched without regard to case, or nil.
    private static func value(of prefix: String, in line: String) -> String? {
        guard line.count >= prefix.count, line.prefix(prefix.count).uppercased() == prefix else { return nil }
        return String(line.dropFirst(prefix.count))
    }

    /// `text` without leading and trailing blanks.
    private static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return String(text)
    }

    /// Whether `line` starts with a URL scheme (`http://`, `file://`…).
    static func isURL(_ line: String) -> Bool {
        // A scheme is letters, digits, `+`, `-` and `.` before "://"; a path can hold ":" elsewhere.
        var scheme = 0
        var rest = Substring(line)
        while let first = rest.first, first.isASCII, first.isLetter || first.isNumber || "+-.".contains(first) {
            scheme += 1
            rest.removeFirst()
        }
        return scheme > 0 && rest.hasPrefix("://")
    }
}
