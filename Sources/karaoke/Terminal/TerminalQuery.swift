import CNcursesw
import Glibc
import KaraokeCore
import KaraokeDriver

/// Asks the terminal questions before curses takes it: whether it draws pixels (DESIGN §19.9) and whether
/// it is in grapheme-cluster mode (DESIGN §3.6), in one write and one wait.
///
/// The terminal is put in raw mode without echo for the wait, so the answers are read here and never
/// reach curses as keys; a key typed in those moments is lost. Every question ends with the primary device
/// attributes, which every terminal answers last: the wait ends with that answer, or after `deadline`
/// seconds for a terminal that says nothing.
enum TerminalQuery {
    /// What the terminal answered: about pixels when asked, and about grapheme-cluster mode when asked.
    struct Answers {
        /// The pixels' answer, with the cell size from the window size in pixels when the terminal did not
        /// give one; nil when not asked.
        var graphics: TerminalGraphicsAnswer?
        /// The grapheme-cluster mode's answer; nil when not asked.
        var graphemes: GraphemeModeAnswer?
    }

    /// Asks about pixels when `graphics`, about grapheme-cluster mode when `graphemes`, in one round trip.
    static func ask(graphics: Bool, graphemes: Bool, deadline: Double = 0.2) -> Answers {
        guard graphics || graphemes else { return Answers() }
        // The device attributes end both queries: sent once, after every question.
        var query = graphemes ? GraphemeModeAnswer.query : TerminalGraphicsAnswer.query
        if graphics && graphemes { query = TerminalGraphicsAnswer.questions + GraphemeModeAnswer.query }
        let bytes = read(answering: query, deadline: deadline)
        var answers = Answers()
        if graphemes { answers.graphemes = GraphemeModeAnswer(bytes: bytes) }
        if graphics {
            var answer = TerminalGraphicsAnswer(bytes: bytes)
            if answer.cellSize == nil {
                var width: Int32 = 0, height: Int32 = 0
                if kk_window_pixels(STDOUT_FILENO, &width, &height) == 0, width > 0, height > 0 {
                    answer.cellSize = .init(width: Int(width), height: Int(height))
                }
            }
            answers.graphics = answer
        }
        return answers
    }

    /// Writes `query` and reads what comes back until the device attributes' answer or the deadline;
    /// nothing when stdin is not a terminal.
    private static func read(answering query: [UInt8], deadline: Double) -> [UInt8] {
        var saved = termios()
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1, tcgetattr(STDIN_FILENO, &saved) == 0 else {
            return []
        }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        raw.c_cc.6 = 0 // VMIN: reads return what is there
        raw.c_cc.5 = 0 // VTIME
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &raw)
        defer { _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        _ = query.withUnsafeBytes { StandardStreams.writeAll($0, to: STDOUT_FILENO) }
        var bytes: [UInt8] = []
        var complete = false
        let end = monotonicSeconds() + deadline
        var buffer = [UInt8](repeating: 0, count: 256)
        while !complete {
            let left = end - monotonicSeconds()
            guard left > 0 else { break }
            var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, left * 1000)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = Glibc.read(STDIN_FILENO, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
            // An answer is a few dozen bytes: a terminal that sends more is not answering.
            if bytes.count > 4096 { break }
            // Both readers stop at the device attributes' answer: either one says when it has come.
            complete = GraphemeModeAnswer(bytes: bytes).isComplete
        }
        // A terminal past the deadline may still answer: what has come of it is thrown away here, so that
        // less of it can reach curses as keys.
        if !complete { _ = tcflush(STDIN_FILENO, TCIFLUSH) }
        return bytes
    }
}
