import Foundation

/// `karaoke follow … --print` running as a child: its JSON lines, each with the moment it arrived, and a pipe
/// to its stdin for commands (DESIGN §12).
///
/// Started with posix_spawn, like the LRCLIB server, so no Foundation thread waits on it; a thread of ours
/// reads its stdout. `stop()` (also from deinit) ends it with SIGKILL and reaps it.
final class FollowProcess: @unchecked Sendable {
    /// One line karaoke printed.
    struct Line {
        /// When it arrived, in monotonic seconds (`FollowProcess.now()`).
        var arrival: Double
        /// The line as printed.
        var text: String
        /// The line parsed as a JSON object (empty when it is not one).
        var object: [String: Any]

        /// `event`: report, gone or notice.
        var event: String? { object["event"] as? String }
        /// A report's state.
        var state: String? { object["state"] as? String }
        /// A report's position.
        var position: Double? { object["position"] as? Double }
        /// The monotonic time it arrived (the name the MPRIS tests use).
        var time: Double { arrival }
        /// A report's `at`.
        var at: Double? { object["at"] as? Double }
        /// A report's track's field `key`.
        func track(_ key: String) -> Any? { (object["track"] as? [String: Any])?[key] }
        /// A report's track's title.
        var title: String? { track("title") as? String }
    }

    /// The process id; 0 once stopped.
    private(set) var pid: pid_t = 0
    private let input: Int32
    private let lock = NSLock()
    private var received: [Line] = []
    /// Whether the reader has read karaoke's output to its end.
    private var outputEnded = false
    /// How far `next` has read.
    private var cursor = 0
    private var stderrPath: String

    /// Monotonic seconds, the clock karaoke stamps `at` with.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Starts `karaoke follow ARGUMENTS --print` with `environment` (stderr to a new file in `folder`), on
    /// its own environment only: the tests of the bus must not see the machine's session bus.
    convenience init(_ arguments: [String], environment: [String: String], folder: URL) throws {
        try self.init(
            arguments, environment: environment,
            stderrPath: folder.appendingPathComponent("follow-\(UUID().uuidString).err").path, inherits: false)
    }

    /// Starts `karaoke COMMAND ARGUMENTS PRINTING` (`follow … --print` unless told) with `environment` added to
    /// this process's (without `MPD_HOST`/`MPD_PORT`), or alone when `inherits` is false; its stderr goes to
    /// `stderrPath`.
    init(
        _ arguments: [String], command: String = "follow", printing: [String] = ["--print"],
        environment: [String: String] = [:], stderrPath: String, inherits: Bool = true
    ) throws {
        self.stderrPath = stderrPath
        var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0 else { throw CocoaError(.fileWriteUnknown) }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var env = inherits ? ProcessInfo.processInfo.environment : [:]
        env["MPD_HOST"] = nil
        env["MPD_PORT"] = nil
        for (key, value) in environment { env[key] = value }
        let all = [KaraokeProcess.binary.path, command] + arguments + printing
        var argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, all[0], &actions, &attributes, &argv, &envp)
        close(toChild[0])
        close(fromChild[1])
        guard spawned == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw CocoaError(.executableLoad)
        }
        pid = child
        input = toChild[1]
        let output = fromChild[0]
        let thread = Thread { [self] in readLines(from: output) }
        thread.start()
    }

    deinit { stop() }

    /// Writes `line` and a line feed to karaoke's stdin.
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    /// Every line so far.
    var lines: [Line] { lock.withLock { received } }

    /// What karaoke wrote on stderr so far.
    var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Waits up to `timeout` seconds for a line after the first `after` lines that satisfies `condition`; the
    /// default is generous, for a machine busy with every other suite (a CI run once saw no first report within 10 s).
    func waitFor(after: Int = 0, timeout: Double = 30, _ condition: (Line) -> Bool) -> Line? {
        let deadline = FollowProcess.now() + timeout
        repeat {
            if let line = lines.dropFirst(after).first(where: condition) { return line }
            usleep(5_000)
        } while FollowProcess.now() < deadline
        return nil
    }

    /// The user and system CPU seconds the process has used so far (from /proc).
    func cpuSeconds() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Whether the process is still running.
    var isRunning: Bool { pid != 0 && waitpid(pid, nil, WNOHANG) == 0 }

    /// Waits up to `timeout` seconds for the process to end by itself; its exit status (128 + N for a signal),
    /// or nil when it still runs. Reaps it.
    func waitForExit(timeout: Double) -> Int32? {
        guard pid != 0 else { return nil }
        let deadline = FollowProcess.now() + timeout
        repeat {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                pid = 0
                close(input)
                // What karaoke wrote just before it ended may still be in the pipe: read it before answering.
                while !lock.withLock({ outputEnded }) && FollowProcess.now() < deadline + 5 { usleep(2_000) }
                let signal = status & 0x7F
                return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
            }
            usleep(5_000)
        } while FollowProcess.now() < deadline
        return nil
    }

    /// Sends `signal` to the process.
    func signal(_ signal: Int32) {
        if pid != 0 { kill(pid, signal) }
    }

    /// The next line after those `next` has already passed over that satisfies `condition` (on its JSON
    /// object), waiting up to `timeout` seconds; the lines passed over are not looked at again.
    func next(timeout: Double = 10, where condition: ([String: Any]) -> Bool) -> Line? {
        let deadline = FollowProcess.now() + timeout
        repeat {
            let fresh = lines.dropFirst(cursor)
            for line in fresh {
                cursor += 1
                if condition(line.object) { return line }
            }
            usleep(5_000)
        } while FollowProcess.now() < deadline
        return nil
    }

    /// Every line printed so far, for a failure's message.
    var transcript: String { lines.map(\.text).joined(separator: "\n") }

    /// Ends karaoke (SIGKILL) and reaps it; returns what it wrote on stderr. Idempotent.
    @discardableResult
    func stop() -> String {
        defer { reap() }
        return stderr
    }

    private func reap() {
        guard pid != 0 else { return }
        close(input)
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
        pid = 0
    }

    private func readLines(from fd: Int32) {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            let arrival = FollowProcess.now()
            buffer += chunk[0..<count]
            while let newline = buffer.firstIndex(of: 0x0A) {
                let data = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
                let line = Line(arrival: arrival, text: String(decoding: data, as: UTF8.self), object: object)
                lock.withLock { received.append(line) }
            }
        }
        close(fd)
        lock.withLock { outputEnded = true }
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
