import Foundation

/// `karaoke follow … --print` running as a child: its JSON lines, each with the monotonic time it arrived
/// (read by a thread of its own, so the times are right however the test waits), and its stdin for commands.
final class FollowPrintProcess {
    /// One line karaoke printed.
    struct Line {
        /// When it arrived (CLOCK_MONOTONIC, the clock of karaoke's `at`).
        var time: Double
        /// The line parsed; empty when it was not a JSON object.
        var object: [String: Any]
    }

    /// The lines read so far, shared with the reader thread.
    private final class Store: @unchecked Sendable {
        let lock = NSLock()
        var lines: [(time: Double, text: String)] = []
    }

    private let process: ChildProcess
    private let store = Store()
    private var input: Int32
    private let errorPath: String
    /// How many lines `next` has looked at.
    private var cursor = 0

    /// Starts `karaoke follow ARGUMENTS --print` with `environment`; its stderr goes to a file in `folder`.
    init(_ arguments: [String], environment: [String: String], folder: URL) throws {
        var stdinEnds: [Int32] = [-1, -1]
        var stdoutEnds: [Int32] = [-1, -1]
        guard pipe(&stdinEnds) == 0, pipe(&stdoutEnds) == 0 else { throw POSIXError(.EMFILE) }
        for end in stdinEnds + stdoutEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        errorPath = folder.appendingPathComponent("follow-\(UUID().uuidString).err").path
        let errorFile = open(errorPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(errorFile) }
        process = try ChildProcess(
            [KaraokeProcess.binary.path, "follow"] + arguments + ["--print"], environment: environment,
            stdin: stdinEnds[0], stdout: stdoutEnds[1], stderr: errorFile)
        close(stdinEnds[0])
        close(stdoutEnds[1])
        input = stdinEnds[1]
        let output = stdoutEnds[0]
        let store = store
        let reader = Thread {
            var buffer: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(output, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let now = ChildProcess.monotonic()
                buffer += chunk[0..<count]
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let text = String(decoding: buffer[..<newline], as: UTF8.self)
                    buffer.removeSubrange(...newline)
                    store.lock.lock()
                    store.lines.append((now, text))
                    store.lock.unlock()
                }
            }
            close(output)
        }
        reader.start()
    }

    deinit { _ = stop() }

    /// Writes `command` and a line feed to karaoke's stdin.
    func send(_ command: String) {
        let bytes = Array((command + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    /// The next line, after those already looked at, for which `condition` holds; nil when none came
    /// within `timeout` seconds. Lines passed over are not looked at again.
    func next(timeout: Double = 10, where condition: ([String: Any]) -> Bool) -> Line? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let fresh: [(time: Double, text: String)] = store.lock.withLock {
                let lines = Array(store.lines[cursor...])
                return lines
            }
            for line in fresh {
                cursor += 1
                let object =
                    (try? JSONSerialization.jsonObject(with: Data(line.text.utf8))) as? [String: Any] ?? [:]
                if condition(object) { return Line(time: line.time, object: object) }
            }
            if Date() > deadline { return nil }
            usleep(5_000)
        }
    }

    /// Every line printed so far, for a failure's message.
    var transcript: String { store.lock.withLock { store.lines.map(\.text).joined(separator: "\n") } }

    /// Closes stdin, stops karaoke (SIGTERM) and returns what it wrote on stderr; idempotent.
    func stop() -> String {
        if input >= 0 { close(input) }
        input = -1
        process.stop()
        return (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    }
}

extension [String: Any] {
    /// The `event` of a follow line.
    var event: String? { self["event"] as? String }
    /// A report's `state`.
    var state: String? { self["state"] as? String }
    /// A report's `position`.
    var position: Double? { self["position"] as? Double }
    /// A report's track's `title`.
    var title: String? { (self["track"] as? [String: Any])?["title"] as? String }
    /// A report's track's `file`.
    var file: String? { (self["track"] as? [String: Any])?["file"] as? String }
}
