/// Reads TTML (Timed Text Markup Language): W3C subtitles and the word-timed lyrics of Apple Music
/// and AMLL (DESIGN §7.5).
///
/// Each `<p>` is a line; each timed `<span>` in it a word segment. Background vocals
/// (`ttm:role="x-bg"`) become a line of their own in parentheses; `x-translation` spans and the
/// iTunes `<translations>` block become translations. Singers come from `ttm:agent`.
///
/// The XML is read by libxml2, loaded on first use (`XMLEventReader`); the lines are built by
/// `TTMLLineBuilder`, and their times settled by `TTMLTimingModel`: W3C's model, or absolute times for
/// files that write nested times that way (Apple Music, AMLL; see `TTMLTimingModel.isAbsolute`).
public enum TTMLParser {
    /// Parses the UTF-8 text of a TTML file (without BOM; see `SourceText`). `file` names it in messages.
    ///
    /// An encoding named in the XML declaration is ignored: the text has been decoded already.
    public static func parse(_ utf8: [UInt8], file: String) -> ParseResult {
        var builder = TTMLLineBuilder(file: file)
        switch XMLEventReader.read(utf8, into: &builder) {
        case .complete:
            break
        case .malformed(let code, let line, let column):
            builder.malformed(code: code, line: line, column: column)
        case .libraryMissing(let message):
            return DiagnosticLog(file: file).finish(song: nil, noSongMessage: ControlCharacters.strip(message))
        }
        return builder.finish()
    }

    /// The error for a file that cannot be read because libxml2 is missing, with the loader's `reason`:
    /// which package brings it, worded by the CLibXML2 shim.
    static func libraryMissingMessage(_ reason: String) -> String {
        ControlCharacters.strip(XMLEventReader.libraryMissingMessage(reason))
    }

    /// How `libraryMissingMessage` begins: the shim's message ends with the reason.
    private static let libraryMissingPrefix = libraryMissingMessage("")

    /// The error of a result that has no song because libxml2 could not be loaded, else nil: the edge
    /// shows it instead of its usual "no timed lyric line".
    public static func libraryMissingError(in result: ParseResult) -> String? {
        guard result.song == nil else { return nil }
        return result.diagnostics.first { $0.severity == .error && $0.message.hasPrefix(libraryMissingPrefix) }?.message
    }
}
