/// What reading a lyric file gives, whatever its format: the song (nil when nothing in it is timed)
/// and every problem found.
public struct ParseResult: Sendable {
    /// The song, or nil when nothing in the file is timed.
    public var song: Song?
    /// Warnings, and an error when there is no song.
    public var diagnostics: [Diagnostic]

    /// Creates a result.
    public init(song: Song?, diagnostics: [Diagnostic]) {
        self.song = song
        self.diagnostics = diagnostics
    }
}

/// The warnings of one file, at most `DiagnosticLog.limit` of them and then a count of the rest.
///
/// Every format parser keeps its warnings here, so a broken file of a million lines prints a screenful,
/// not a million lines.
struct DiagnosticLog {
    /// At most this many diagnostics are kept for one file; the rest are counted in a closing one.
    static let limit = 100

    let file: String
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var dropped = 0

    init(file: String) { self.file = file }

    /// Keeps a warning about `line` (0: the whole file) at byte `column` (0: the whole line).
    mutating func warn(line: Int, column: Int, _ message: @autoclosure () -> String) {
        guard diagnostics.count < DiagnosticLog.limit else { dropped += 1; return }
        diagnostics.append(Diagnostic(.warning, file: file, line: line, column: column, message()))
    }

    /// The warnings, the count of those not kept, and for a file without a song the error that says so.
    func finish(song: Song?, noSongMessage: String) -> ParseResult {
        var all = diagnostics
        if dropped > 0 {
            all.append(
                Diagnostic(
                    .warning, file: file, line: 0, column: 0,
                    "\(dropped) more warning\(dropped == 1 ? "" : "s") not shown"))
        }
        if song == nil { all.append(Diagnostic(.error, file: file, line: 0, column: 0, noSongMessage)) }
        return ParseResult(song: song, diagnostics: all)
    }
}
