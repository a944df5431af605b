import Foundation

/// Our LRCLIB-compatible test server (`lrclib_server.py`) running on 127.0.0.1 and a free port, for the
/// fetch tests; what it answers depends on the track name asked for (the script lists the cases).
///
/// Started with posix_spawn rather than Foundation's `Process`: with a `Process` child that lives on, the
/// exits of the karaoke runs beside it were not seen (a thread of Foundation's waits on that child).
final class LRCLIBServer {
    /// The script, beside this file.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("lrclib_server.py").path

    /// python3 from PATH, when there is one.
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Whether the fetch tests can run here: python3 for the server, libcurl for karaoke.
    static let isAvailable: Bool = {
        guard python != nil, let handle = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL) else { return false }
        dlclose(handle)
        return true
    }()

    /// The script's process id; 0 once stopped.
    private var pid: pid_t = 0
    /// The port it listens on.
    let port: Int

    /// The address to pass to `--lrclib-url`.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Why the server could not start.
    struct StartFailure: Error {}

    /// Starts the server and waits for the port it prints.
    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw StartFailure() }
        // Neither end may leak into the karaoke runs of other tests.
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let python = LRCLIBServer.python ?? "/usr/bin/python3"
        let arguments = [python, LRCLIBServer.script]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var child: pid_t = 0
        let spawned = posix_spawn(&child, python, &actions, nil, &argv, environ)
        posix_spawn_file_actions_destroy(&actions)
        for pointer in argv { free(pointer) }
        close(fds[1])
        defer { close(fds[0]) }
        guard spawned == 0 else { throw StartFailure() }
        pid = child
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1, byte != 0x0A { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            kill(child, SIGKILL)
            waitpid(child, nil, 0)
            throw StartFailure()
        }
        self.port = port
    }

    /// Stops the server (a test may do it early: the cache must answer without it).
    func stop() {
        guard pid != 0 else { return }
        // SIGKILL: the test's threads block SIGTERM, and a child starts with their mask.
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
        pid = 0
    }

    deinit { stop() }
}
