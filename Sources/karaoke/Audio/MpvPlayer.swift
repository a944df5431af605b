import CProcess
import Glibc
import KaraokeCore
import KaraokeDriver

/// mpv playing one audio file, driven over its JSON IPC socket.
///
/// mpv runs under a guard process (see `kk_spawn_guarded`): however karaoke ends, SIGKILL included, the
/// guard stops mpv and removes the socket and its private directory. A thread reads mpv's messages and
/// queues the events with the monotonic time they arrived; the play loop takes them each frame.
final class MpvPlayer: Sendable {
    /// Why mpv could not be started.
    struct Failure: Error {
        var message: String
    }

    /// What the reader thread hands the play loop.
    enum Message: Sendable {
        case event(AudioEvent, at: Double)
        /// The connection ended (mpv quit or died), or never came up; the text says which.
        case gone(String)
    }

    private struct Shared {
        var socket: Int32 = -1
        var pending: [String] = []
        var messages: [Message] = []
        var closing = false
    }

    private let shared = PthreadLock(Shared())
    /// Woken at every message, so the driver hands it on at once (DESIGN §17.3).
    private let wake: WakePipe?
    private let guardProcess: pid_t
    private let lifeline: Int32
    /// The IPC socket's path (its folder is private to the user, mode 0700).
    let socketPath: String

    /// Starts mpv on `audioFile` from `start` seconds, paused or not, with the singer's vocals, key and
    /// tempo, and `extraOptions` (`KEY=VALUE`).
    init(
        executable: String, audioFile: String, start: Double, paused: Bool, volume: Int,
        singing: SingingSettings = SingingSettings(), extraOptions: [String], wake: WakePipe? = nil
    ) throws(Failure) {
        self.wake = wake
        let base = MpvPlayer.temporaryFolder()
        var template = Array("\(base)/karaoke-XXXXXX".utf8CString)
        guard let folderPointer = mkdtemp(&template) else {
            throw Failure(message: "cannot make a folder for mpv's socket in \(base): \(MpvPlayer.errorText())")
        }
        let folder = String(cString: folderPointer)
        let socketPath = folder + "/mpv.sock"
        self.socketPath = socketPath
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0
        else {
            rmdir(folder)
            throw Failure(message: "cannot start mpv: \(MpvPlayer.errorText())")
        }
        lifeline = ends[1]
        var arguments = [
            "mpv", "--no-video", "--no-terminal", "--idle=no", "--keep-open=yes",
            "--input-ipc-server=\(socketPath)", "--start=\(MpvProtocol.number(start))",
            "--volume=\(volume)", "--pause=\(paused ? "yes" : "no")", "--resume-playback=no",
            "--save-position-on-quit=no",
        ]
        // Only when changed: an `af` given with --mpv-option stays in force until a key changes the filters.
        if !singing.audioFilters.isEmpty { arguments.append("--af=\(singing.audioFilters)") }
        if singing.tempoPercent != 100 { arguments.append("--speed=\(MpvProtocol.number(singing.tempo))") }
        arguments += extraOptions.map { "--" + $0 }
        arguments += ["--", audioFile]
        let pid = MpvPlayer.withCStrings(arguments) { argv in
            MpvPlayer.withCStrings(MpvPlayer.environment()) { envp in
                kk_spawn_guarded(executable, argv, envp, ends[0], ends[1], socketPath, folder)
            }
        }
        close(ends[0])
        guard pid > 0 else {
            close(ends[1])
            rmdir(folder)
            throw Failure(message: "cannot start mpv: \(MpvPlayer.errorText())")
        }
        guardProcess = pid
        // A thread of its own: the reader blocks in read(2) for the whole song, which is no job for a task.
        do {
            try BackgroundThread.detach { [self] in readLoop() }
        } catch {
            post(.gone("cannot read from mpv; playing without sound"))
        }
    }

    /// mpv playing `audioFile` from `start` seconds, not paused, or why not in the user's words, each ending
    /// with `consequence` (what happens instead, such as "playing without sound"): no such file, no mpv on
    /// PATH, or mpv would not start.
    static func start(
        _ audioFile: String, from start: Double, volume: Int, singing: SingingSettings = SingingSettings(),
        extraOptions: [String], wake: WakePipe?, otherwise consequence: String
    ) -> Result<MpvPlayer, Failure> {
        // An entry of a zipped MP3+G song is read by mpv itself (DESIGN §19.6).
        guard audioFile.hasPrefix(GraphicsFile.archiveScheme) || AudioSource.isRegularFile(audioFile) else {
            return .failure(
                Failure(message: "\(ControlCharacters.strip(audioFile)): no such audio file; \(consequence)"))
        }
        guard let mpv = find() else {
            return .failure(Failure(message: "mpv is not installed (not on PATH); \(consequence)"))
        }
        do throws(Failure) {
            return .success(
                try MpvPlayer(
                    executable: mpv, audioFile: audioFile, start: start, paused: false, volume: volume,
                    singing: singing, extraOptions: extraOptions, wake: wake))
        } catch {
            return .failure(Failure(message: "\(error.message); \(consequence)"))
        }
    }

    /// Queues `command` for mpv (sent at once when connected).
    func send(_ command: AudioCommand) { send(line: MpvProtocol.line(for: command)) }

    /// The messages that arrived since the last call, in order.
    func takeMessages() -> [Message] {
        shared.withLock { state in
            let taken = state.messages
            state.messages.removeAll(keepingCapacity: true)
            return taken
        }
    }

    /// Asks mpv to quit, lets go of the guard and waits (up to 2 s) for it to have stopped mpv and
    /// cleaned up, so that nothing is left once karaoke exits.
    func stop() {
        send(line: MpvProtocol.quit)
        shared.withLock { state in
            state.closing = true
            if state.socket >= 0 { shutdown(state.socket, Int32(SHUT_RDWR)) }
        }
        close(lifeline)
        var status: Int32 = 0
        // waitpid has no deadline of its own; this runs once, as karaoke is leaving, and mostly not past
        // the first tries (the guard ends as soon as mpv has quit).
        for _ in 0..<200 {
            let result = waitpid(guardProcess, &status, WNOHANG)
            if result != 0 { return }
            usleep(10_000)
        }
        kill(guardProcess, SIGKILL)
        _ = waitpid(guardProcess, &status, 0)
    }

    private func send(line: String) {
        shared.withLock { state in
            guard !state.closing else { return }
            if state.socket >= 0 {
                MpvPlayer.write(line + "\n", to: state.socket)
            } else {
                state.pending.append(line)
            }
        }
    }

    /// The reader thread: connects (mpv makes the socket while it starts), then reads lines until EOF.
    private func readLoop() {
        let deadline = monotonicSeconds() + 10
        var socket: Int32 = -1
        while socket < 0 {
            if shared.withLock({ $0.closing }) { return }
            socket = MpvPlayer.connect(to: socketPath)
            if socket >= 0 { break }
            // An mpv that quit before it could be reached (a bad option, a file it could not open) is told at
            // once, not at the deadline: its guard ends with it.
            if hasEnded(guardProcess) {
                post(.gone("mpv quit as it started; playing without sound"))
                return
            }
            if monotonicSeconds() > deadline {
                post(.gone("mpv did not start; playing without sound"))
                return
            }
            // A short sleep between tries, kept on purpose: mpv announces its socket to nobody. inotify on the
            // private folder would say when the file appears, but mpv binds (making the file) before it
            // listens, so a connect could still be refused after that event and need a try again; this runs
            // only while mpv starts, a few tries at most.
            usleep(20_000)
        }
        let connected: Bool = shared.withLock { state in
            guard !state.closing else { return false }
            state.socket = socket
            for line in MpvProtocol.greeting + state.pending { MpvPlayer.write(line + "\n", to: socket) }
            state.pending.removeAll()
            return true
        }
        guard connected else { close(socket); return }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            let now = monotonicSeconds()
            buffer.append(contentsOf: chunk[0..<count])
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if let event = MpvProtocol.event(from: line) { post(.event(event, at: now)) }
            }
        }
        let closing = shared.withLock { state in
            state.socket = -1
            return state.closing
        }
        close(socket)
        if !closing { post(.gone("mpv stopped; playing without sound")) }
    }

    private func post(_ message: Message) {
        shared.withLock { $0.messages.append(message) }
        wake?.post()
    }

    // MARK: - System calls

    /// mpv on PATH, or nil.
    static func find() -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/mpv"
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }

    /// Whether `process`, a child, has ended, leaving it to be reaped by `stop`.
    private func hasEnded(_ process: pid_t) -> Bool {
        var info = siginfo_t()
        return waitid(P_PID, id_t(process), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._kill.si_pid != 0
    }

    private static func temporaryFolder() -> String {
        for name in ["XDG_RUNTIME_DIR", "TMPDIR"] {
            if let value = getenv(name).map({ String(cString: $0) }), value.hasPrefix("/"), access(value, W_OK) == 0 {
                return value.hasSuffix("/") && value.count > 1 ? String(value.dropLast()) : value
            }
        }
        return "/tmp"
    }

    private static func connect(to path: String) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { close(fd); return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result != 0 { close(fd); return -1 }
        return fd
    }

    private static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            bytes = bytes.dropFirst(count)
        }
    }

    private static func environment() -> [String] {
        var result: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            result.append(String(cString: entry))
            pointer += 1
        }
        return result
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R)
        -> R
    {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
