import CNcursesw
import Glibc

/// What the process can learn about its terminal without taking it over.
enum TerminalInfo {
    /// The size of the terminal on `fd`, or nil when it is not a terminal.
    static func size(of fd: Int32) -> (columns: Int, rows: Int)? {
        guard isatty(fd) == 1 else { return nil }
        var columns: Int32 = 0, rows: Int32 = 0
        guard kk_window_size(fd, &columns, &rows) == 0 else { return nil }
        return (Int(columns), Int(rows))
    }

    /// An environment variable's value, or nil when it is unset.
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Whether `NO_COLOR` is set to something non-empty (no-color.org).
    static var noColorRequested: Bool {
        guard let value = getenv("NO_COLOR") else { return false }
        return value.pointee != 0
    }
}
