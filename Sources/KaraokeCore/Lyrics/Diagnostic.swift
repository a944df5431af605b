/// A problem found in a lyric file, printed as compilers print them: `FILE:LINE:COL: warning: message`.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    /// How bad the problem is.
    public enum Severity: String, Sendable {
        /// The line or tag is skipped or repaired; the rest plays.
        case warning
        /// The file cannot be used.
        case error
    }

    /// How bad the problem is.
    public var severity: Severity
    /// The file's name as the user gave it.
    public var file: String
    /// 1-based line; 0 when the problem is about the whole file.
    public var line: Int
    /// 1-based byte column; 0 when the problem is about the whole line or file.
    public var column: Int
    /// Lower case, the bad input quoted, no full stop.
    public var message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, file: String, line: Int, column: Int, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `FILE:LINE:COL`, shortened when the line or column is unknown.
    public var location: String {
        guard line > 0 else { return file }
        return column > 0 ? "\(file):\(line):\(column)" : "\(file):\(line)"
    }

    /// The printed form, `FILE:LINE:COL: severity: message`.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}
