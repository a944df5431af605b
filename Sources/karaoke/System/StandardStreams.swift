import Glibc
import KaraokeCore

/// Writing to stdout and stderr without Foundation, whole strings at a time.
enum StandardStreams {
    /// The exit status when the reader of stdout or stderr has gone (`karaoke render … | head -c 10`):
    /// 128 + SIGPIPE, what a shell reports for a program the signal ended, as it would end `cat`.
    static let brokenPipeStatus: Int32 = 128 + SIGPIPE

    /// Writes all of `text` to `fd`, retrying short writes; on a closed pipe, ends the process quietly.
    ///
    /// SIGPIPE is ignored (a write to mpv's socket must not kill karaoke), so a closed pipe shows as
    /// EPIPE here; nobody reads what comes next, so the work is stopped rather than finished unseen.
    static func write(_ text: String, to fd: Int32) {
        var text = text
        let written = text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: fd) }
        if !written && errno == EPIPE { Glibc.exit(brokenPipeStatus) }
    }

    /// Writes all of `text` to `fd`; false (with `errno` set) when a write fails, such as EPIPE once the reader
    /// has gone, for a caller that has something to stop before it ends (mpv, DESIGN §28).
    static func writeWhole(_ text: String, to fd: Int32) -> Bool {
        var text = text
        return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: fd) }
    }

    /// Writes all of `buffer` to `fd`, retrying short and interrupted writes; false (with `errno` set) when a
    /// write fails.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Writes to stdout.
    static func out(_ text: String) { write(text, to: STDOUT_FILENO) }

    /// Writes a line to stderr.
    static func err(_ line: String) { write(line + "\n", to: STDERR_FILENO) }

    /// Prints diagnostics to stderr as compilers do, with colour only when stderr is a terminal.
    static func report(_ diagnostics: [Diagnostic]) {
        let colour = isatty(STDERR_FILENO) == 1 && getenv("NO_COLOR").map({ $0.pointee == 0 }) ?? true
        var text = ""
        for diagnostic in diagnostics {
            if colour {
                let label =
                    diagnostic.severity == .error ? "\u{1B}[1;31merror:\u{1B}[0m" : "\u{1B}[1;35mwarning:\u{1B}[0m"
                text += "\(diagnostic.location): \(label) \(diagnostic.message)\n"
            } else {
                text += diagnostic.description + "\n"
            }
        }
        write(text, to: STDERR_FILENO)
    }

    /// Ends the process with `code`.
    static func exit(_ code: Int32) -> Never { Glibc.exit(code) }
}
