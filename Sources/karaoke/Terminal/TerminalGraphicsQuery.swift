import CNcursesw
import Glibc
import KaraokeCore
import KaraokeDriver

/// Asks the terminal whether it draws pixels, before curses takes it (DESIGN §19.9).
///
/// The terminal is put in raw mode without echo for the wait, so the answers are read here and never
/// reach curses as keys; a key typed in those moments is lost. The wait ends with the device attributes'
/// answer, or after `deadline` seconds for a terminal that says nothing.
enum TerminalGraphicsQuery {
    /// What the terminal on stdin and stdout said, with the cell size from the window size in pixels when
    /// the terminal did not give one.
    static func ask(deadline: Double = 0.2) -> TerminalGraphicsAnswer {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return TerminalGraphicsAnswer() }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 0 // VMIN: reads return what is there
        raw.c_cc.5 = 0 // VTIME
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        _ = TerminalGraphicsAnswer.query.withUnsafeBytes { StandardStreams.writeAll($0, to: STDOUT_FILENO) }
        var bytes: [UInt8] = []
        var answer = TerminalGraphicsAnswer()
        let end = monotonicSeconds() + deadline
        var buffer = [UInt8](repeating: 0, count: 256)
        while !answer.isComplete {
            let left = end - monotonicSeconds()
            guard left > 0 else { break }
            var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, left * 1000)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            // An answer is a few dozen bytes: a terminal that sends more is not answering.
            if bytes.count > 4096 { break }
            answer = TerminalGraphicsAnswer(bytes: bytes)
        }
        // A terminal past the deadline may still answer: what has come of it is thrown away here, so that
        // less of it can reach curses as keys.
        if !answer.isComplete { _ = tcflush(STDIN_FILENO, TCIFLUSH) }
        if answer.cellSize == nil {
            var width: Int32 = 0, height: Int32 = 0
            if kk_window_pixels(STDOUT_FILENO, &width, &height) == 0, width > 0, height > 0 {
                answer.cellSize = .init(width: Int(width), height: Int(height))
            }
        }
        return answer
    }
}
