import Foundation

/// A long-lived child process started with posix_spawn (Foundation's `Process` is kept for short runs: a
/// `Process` child that lives on hid the exits of the runs beside it), with no signal blocked.
final class ChildProcess {
    /// The child's process id; 0 once it is waited for.
    private(set) var pid: pid_t

    /// Starts `arguments[0]` (a path) with the test's environment plus `environment` (an empty value
    /// removes a variable); `stdin`, `stdout`, `stderr` are descriptors to give it (nil: /dev/null).
    init(
        _ arguments: [String], environment: [String: String] = [:], stdin: Int32? = nil, stdout: Int32? = nil,
        stderr: Int32? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            }
        }
        var merged = ProcessInfo.processInfo.environment
        merged["NO_COLOR"] = nil
        for (key, value) in environment { merged[key] = value.isEmpty ? nil : value }
        var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cEnvironment.forEach { free($0) } }
        // The test thread may block SIGTERM; the child would inherit the mask and ignore the stop.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, &attributes, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        pid = child
    }

    deinit { stop() }

    /// Whether it has exited (it is reaped then).
    var hasExited: Bool {
        guard pid != 0 else { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            pid = 0
            return true
        }
        return false
    }

    /// Waits up to `timeout` seconds for it to exit; whether it did.
    func waitForExit(timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !hasExited {
            if Date() > deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Whether process `pid` (any, not only a child) is alive: exists and is not a zombie.
    static func isAlive(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        let status = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return !status.contains(") Z ")
    }

    /// Sends SIGTERM, waits up to 3 s, then SIGKILL; idempotent.
    func stop() {
        guard pid != 0 else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            if hasExited { return }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        pid = 0
    }

    /// An executable on PATH, or nil.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// The monotonic clock karaoke stamps its reports with.
    static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
