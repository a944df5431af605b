import Foundation

/// A detached tmux session of a fixed size running one command: a real terminal emulator to drive
/// `karaoke play` with keys and read back with `capture-pane -e` (which keeps the SGR codes).
///
/// Each session has its own server socket and no config file, so tests run in parallel and a user's
/// tmux is never touched. The command runs under `sh -c`, which prints `EXIT=<status>` when it ends, so
/// a test can read the exit status and see that the alternate screen was left.
final class TmuxSession {
    let socket = "karaoke-e2e-\(UUID().uuidString.prefix(8))"
    let columns: Int
    let rows: Int
    /// This session's own config and state folders (XDG_CONFIG_HOME, XDG_STATE_HOME), so neither the user's
    /// config file nor the offsets a test nudges reach another run; removed with the session.
    let settingsFolder: URL
    /// Whether the settings folder is this session's own, removed with it (not one a test shares between two).
    private let ownsSettings: Bool

    /// The pane's shell: the leader of the pane's process group (tmux starts each pane in a session of its own).
    private var panePID: pid_t = 0

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") }

    /// Starts `command` (a shell command line) in a `columns`×`rows` session with `TERM=term`.
    init(
        _ command: String, columns: Int = 80, rows: Int = 24, term: String = "tmux-256color",
        environment: [String: String] = [:], settingsFolder: URL? = nil
    ) throws {
        self.settingsFolder =
            settingsFolder
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "karaoke-e2e-settings-\(UUID().uuidString)")
        ownsSettings = settingsFolder == nil
        self.columns = columns
        self.rows = rows
        var assignments = "TERM=\(term) "
        for (key, value) in environment.sorted(by: { $0.key < $1.key }) { assignments += "\(key)=\(value) " }
        // The lyrics stay text in these sessions, as the tests read them (`--size` is auto by default, DESIGN
        // §23): the config file says `size = 1` unless a test's own file names a size. Written once, here.
        let configFile = self.settingsFolder.appendingPathComponent("config/karaoke/config")
        let existing = (try? String(contentsOf: configFile, encoding: .utf8)) ?? ""
        if !existing.contains("size") {
            try FileManager.default.createDirectory(
                at: configFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            let separator = existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n"
            try (existing + separator + "size = 1\n").write(to: configFile, atomically: true, encoding: .utf8)
        }
        // The wrapper shell ignores SIGINT: without job control it shares the player's process group, and
        // Ctrl-C must end only the player (which installs its own handler) for the wrapper to report.
        let script = "trap '' INT; env \(assignments)\(command); echo EXIT=$?; sleep 60"
        try tmux([
            "-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", "\(columns)", "-y", "\(rows)",
            "sh", "-c", script,
        ])
        // Resize-window below needs the window to follow the requested size, not a client's.
        try tmux(["set-option", "-g", "window-size", "manual"])
        let pane = try tmux(["display-message", "-p", "-t", "e2e", "#{pane_pid}"])
        panePID = pid_t(pane.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    deinit {
        // kill-session first, which ends the pane's processes even if kill-server alone would not.
        _ = try? tmux(["kill-session", "-t", "e2e"])
        _ = try? tmux(["kill-server"])
        // What ignores the hang-up (a test's `trap '' HUP`, and the wrapper's `sleep 60` after it), or outlived a
        // server a test killed, is ended with its process group; the group still exists while any of it runs.
        if panePID > 0 && kill(-panePID, 0) == 0 { kill(-panePID, SIGKILL) }
        // tmux 3.3a leaves its socket behind when the server ends with its last session, or is killed.
        unlink(socketPath)
        if ownsSettings { try? FileManager.default.removeItem(at: settingsFolder) }
    }

    /// The server's socket: `-L NAME` puts it in tmux-UID in TMUX_TMPDIR, or in /tmp.
    private var socketPath: String {
        let root = ProcessInfo.processInfo.environment["TMUX_TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return "\(root)/tmux-\(getuid())/\(socket)"
    }

    /// Runs a tmux command on this session's server and returns its stdout.
    ///
    /// Spawned and reaped directly: Foundation's `Process` can miss the exit of a client whose child
    /// (the tmux server) daemonizes, and its output goes to a file because the server inherits stdout,
    /// so a pipe would not reach end-of-file until the server exits.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("karaoke-tmux-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ["/usr/bin/tmux", "-L", socket] + arguments
        var cArguments: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var environment = ProcessInfo.processInfo.environment
        // The test runner may set NO_COLOR (swift test does when its output is not a terminal); a test
        // that wants it says so in its own environment.
        for name in ["TMUX", "NO_COLOR", "COLORFGBG"] { environment[name] = nil }
        environment["XDG_CONFIG_HOME"] = settingsFolder.appendingPathComponent("config").path
        environment["XDG_STATE_HOME"] = settingsFolder.appendingPathComponent("state").path
        var cEnvironment: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cEnvironment.forEach { free($0) } }
        // The test thread may block signals (SIGTERM among them); the tmux server would inherit that mask
        // and outlive kill-server. Start it with none blocked and default dispositions.
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
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, &cArguments, &cEnvironment)
        guard spawned == 0 else { throw TmuxError.spawn(spawned) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    enum TmuxError: Error {
        case spawn(Int32)
    }

    /// Sends keys as tmux names them (`Space`, `Right`, `q`, `C-c`).
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "e2e"] + keys)
    }

    /// The screen as plain text, one string per row.
    func screen() throws -> [String] {
        try tmux(["capture-pane", "-p", "-t", "e2e"]).components(separatedBy: "\n")
    }

    /// The screen with SGR codes (`capture-pane -e`), one string per row.
    func styledScreen() throws -> [String] {
        try tmux(["capture-pane", "-p", "-e", "-t", "e2e"]).components(separatedBy: "\n")
    }

    /// Resizes the window.
    func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", "e2e", "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The process id of the command (the shell's child), for sending signals.
    func commandPID() throws -> Int32? {
        let shell = try tmux(["display-message", "-p", "-t", "e2e", "#{pane_pid}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return children.split(separator: " ").first.flatMap { Int32($0) }
    }

    /// Polls the screen until `condition` holds or `timeout` seconds pass; returns the last screen.
    @discardableResult
    func waitFor(timeout: Double = 10, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var last = try screen()
        while !condition(last) && Date() < deadline {
            usleep(50_000)
            last = try screen()
        }
        return last
    }

    /// Waits for the `EXIT=` line the wrapper prints and returns the status, or nil on timeout.
    func exitStatus(timeout: Double = 10) throws -> Int? {
        let screen = try waitFor(timeout: timeout) { $0.contains { $0.hasPrefix("EXIT=") } }
        return screen.first { $0.hasPrefix("EXIT=") }.flatMap { Int($0.dropFirst(5)) }
    }
}

extension String {
    /// The SGR parameter lists in this text: `ESC[1;38;5;231m` gives "1;38;5;231".
    var sgrSequences: [String] {
        var result: [String] = []
        var rest = Substring(self)
        while let start = rest.range(of: "\u{1B}[") {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(where: { $0.isLetter }) else { break }
            if after[end] == "m" { result.append(String(after[..<end])) }
            rest = after[after.index(after: end)...]
        }
        return result
    }

    /// The foreground colours set in this text (`38;5;N` or `38;2;R;G;B`), in order of appearance.
    var foregroundColors: [String] {
        var colors: [String] = []
        for sequence in sgrSequences {
            let parts = sequence.split(separator: ";").map(String.init)
            var index = 0
            while index < parts.count {
                if parts[index] == "38", index + 1 < parts.count {
                    if parts[index + 1] == "5", index + 2 < parts.count {
                        colors.append("5;" + parts[index + 2]); index += 3; continue
                    }
                    if parts[index + 1] == "2", index + 4 < parts.count {
                        colors.append("2;" + parts[(index + 2)...(index + 4)].joined(separator: ";")); index += 5;
                        continue
                    }
                }
                index += 1
            }
        }
        return colors
    }
}
