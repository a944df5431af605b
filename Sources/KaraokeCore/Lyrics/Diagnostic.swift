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
    /// Lower case, the bad input quoted, no full stop; control and bidi characters shown as `<U+001B>`.
    public var message: String

    /// Creates a diagnostic.
    public init(_ severity: Severity, file: String, line: Int, column: Int, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.column = column
        self.message = Diagnostic.visible(message)
    }

    /// `text` with each character that must never reach a terminal (`ControlCharacters.isForbidden`:
    /// C0, DEL, C1, bidi controls) written as `<U+001B>`.
    ///
    /// Messages quote the bad input, and a file's bad input can be an escape sequence: printed as it was,
    /// `check` would hand the file's ESC ] 52 or ESC [ 2 J to the user's terminal.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { ControlCharacters.isForbidden($0.value) }) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if ControlCharacters.isForbidden(scalar.value) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "<U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + ">"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `FILE:LINE:COL`, shortened when the line or column is unknown.
    public var location: String {
        let file = Diagnostic.visible(self.file)
        guard line > 0 else { return file }
        return column > 0 ? "\(file):\(line):\(column)" : "\(file):\(line)"
    }

    /// The printed form, `FILE:LINE:COL: severity: message`.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}
