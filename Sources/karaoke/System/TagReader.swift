import Glibc
import KaraokeCore
import KaraokeDriver

/// Reads an audio file's tags by running `karaoke-tags` beside the karaoke binary (DESIGN §10.2).
///
/// TagLib lives in that helper, not here: karaoke never links it, so start-up does not pay for it, and a
/// hostile tag that crashes TagLib ends the helper, not the player or the terminal. The helper is run
/// without a shell, with a 10 s deadline and its output capped; its JSON is read by the core.
enum TagReader {
    /// Why the tags could not be read; `message` is the text after `karaoke: `.
    struct Failure: Error, Equatable {
        /// What went wrong.
        enum Kind: Equatable {
            /// `karaoke-tags` is not beside karaoke, or cannot be run.
            case helperMissing
            /// The file cannot be opened.
            case unreadable
            /// The file is not audio TagLib reads.
            case notAudio
            /// The helper crashed, timed out, printed too much or printed what is not tags.
            case helperFailed
        }

        /// What went wrong.
        var kind: Kind
        /// The whole message, without the leading `karaoke: `.
        var message: String
    }

    /// The helper's output is refused past this size (it caps its own at 16 MB).
    static let maximumOutput = 17 * 1024 * 1024
    /// The helper is stopped after this many seconds.
    static let timeout = 10.0
    /// The helper's name, beside the karaoke binary.
    static let helperName = "karaoke-tags"

    /// The tags of the audio file at `path`.
    ///
    /// `helper` and `timeout` are for tests; by default the helper is `karaoke-tags` in the folder of the
    /// running binary (`/proc/self/exe`, so a symbolic link to karaoke still finds it).
    static func read(_ path: String, helper: String? = nil, timeout: Double = TagReader.timeout)
        -> Result<AudioTags, Failure>
    {
        let shown = ControlCharacters.strip(path)
        guard let helperPath = helper ?? besideExecutable() else {
            return .failure(
                Failure(
                    kind: .helperMissing,
                    message: "reading tags needs \(helperName) beside karaoke (the binary's folder is unknown)"))
        }
        guard access(helperPath, X_OK) == 0 else {
            return .failure(
                Failure(
                    kind: .helperMissing,
                    message:
                        "reading tags needs \(helperName) beside karaoke (\(ControlCharacters.strip(helperPath)) is missing)"
                )
            )
        }
        let run: HelperRun
        switch HelperRun.start(helperPath, arguments: [path], timeout: timeout, maximumOutput: maximumOutput) {
        case .success(let finished): run = finished
        case .failure(let failure):
            return .failure(
                Failure(
                    kind: .helperMissing,
                    message:
                        "reading tags needs \(helperName) beside karaoke (\(String(cString: strerror(failure.errorNumber))))"
                ))
        }
        let failed = { (reason: String) in
            Result<AudioTags, Failure>.failure(
                Failure(kind: .helperFailed, message: "\(shown): could not read its tags (\(reason))"))
        }
        if run.timedOut { return failed("\(helperName) took longer than \(Int(timeout)) s") }
        if run.outputTooLarge { return failed("\(helperName) printed more than \(maximumOutput >> 20) MB") }
        if let signal = run.signal { return failed("\(helperName) was ended by signal \(signal)") }
        let said = run.firstErrorLine.map { ControlCharacters.strip($0) } ?? ""
        switch run.status {
        case 0:
            do {
                return .success(try AudioTags(json: run.output))
            } catch {
                return failed("\(helperName) printed \(error.reason)")
            }
        case 3:
            let reason = said.split(separator: ":").last.map { $0.drop { $0 == " " } } ?? "cannot be opened"
            return .failure(Failure(kind: .unreadable, message: "\(shown): \(reason.lowercased())"))
        case 4:
            return .failure(Failure(kind: .notAudio, message: "\(shown): not an audio file karaoke can read tags from"))
        default:
            return failed("\(helperName) exited with status \(run.status)\(said.isEmpty ? "" : ": \(said)")")
        }
    }

    /// `karaoke-tags` in the folder of the running binary, or nil when `/proc/self/exe` cannot be read.
    static func besideExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let executable = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        return String(executable[...slash]) + helperName
    }
}

/// One finished run of a helper process: its stdout, the first line of its stderr, how it ended.
struct HelperRun {
    /// Why the helper could not be started: the errno of pipe or posix_spawn.
    struct StartFailure: Error {
        /// The error number.
        var errorNumber: Int32
    }

    /// What it printed on stdout, up to the cap.
    var output: [UInt8] = []
    /// The first line it printed on stderr, if any.
    var firstErrorLine: String?
    /// Its exit status, when it exited.
    var status: Int32 = -1
    /// The signal that ended it, when one did.
    var signal: Int32?
    /// Whether it was stopped at the deadline.
    var timedOut = false
    /// Whether it was stopped for printing more than the cap.
    var outputTooLarge = false

    /// Runs `path` with `arguments` (no shell, stdin from /dev/null), reading stdout and stderr until it
    /// ends; stops it with SIGKILL at the deadline or past the cap. Fails with errno when it cannot start.
    static func start(_ path: String, arguments: [String], timeout: Double, maximumOutput: Int)
        -> Result<HelperRun, StartFailure>
    {
        var outPipe: [Int32] = [-1, -1], errPipe: [Int32] = [-1, -1]
        guard pipe(&outPipe) == 0 else { return .failure(StartFailure(errorNumber: errno)) }
        guard pipe(&errPipe) == 0 else {
            close(outPipe[0]); close(outPipe[1])
            return .failure(StartFailure(errorNumber: errno))
        }
        // Close-on-exec, so that no other child karaoke starts (mpv) holds these pipes open.
        for fd in outPipe + errPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        // The player blocks or catches signals of its own; the helper starts with none blocked and the
        // defaults, so that a SIGPIPE or SIGTERM ends it as it would any program.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), defaults = sigset_t()
        sigemptyset(&empty)
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGPIPE, SIGQUIT] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // The helper links the Swift runtime, whose crash handler would spend a second writing a backtrace
        // nobody reads; a crash is reported by its signal.
        var environment: [UnsafeMutablePointer<CChar>?] = [strdup("SWIFT_BACKTRACE=enable=no")]
        var index = 0
        while let entry = environ[index] {
            if strncmp(entry, "SWIFT_BACKTRACE=", 16) != 0 { environment.append(strdup(entry)) }
            index += 1
        }
        environment.append(nil)
        defer { for pointer in environment { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, path, &actions, &attributes, argv, environment)
        close(outPipe[1])
        close(errPipe[1])
        guard started == 0 else {
            close(outPipe[0]); close(errPipe[0])
            return .failure(StartFailure(errorNumber: started))
        }
        var run = HelperRun()
        var errorBytes: [UInt8] = []
        var open = [outPipe[0], errPipe[0]]
        let deadline = monotonicSeconds() + timeout
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let left = deadline - monotonicSeconds()
            if left <= 0 { run.timedOut = true; break }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(left, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { break }
            for entry in fds where entry.revents != 0 {
                let count = chunk.withUnsafeMutableBytes { Glibc.read(entry.fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                } else if entry.fd == outPipe[0] {
                    run.output.append(contentsOf: chunk[0..<count])
                    if run.output.count > maximumOutput { run.outputTooLarge = true }
                } else if errorBytes.count < 4096 {
                    errorBytes.append(contentsOf: chunk[0..<min(count, 4096 - errorBytes.count)])
                }
            }
            if run.outputTooLarge { break }
        }
        for fd in open { close(fd) }
        if run.timedOut || run.outputTooLarge { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WTERMSIG are macros Swift does not import: the low 7 bits are the signal, 0 for an exit.
        if status & 0x7F == 0 {
            run.status = (status >> 8) & 0xFF
        } else {
            run.signal = status & 0x7F
        }
        if let line = errorBytes.split(separator: 0x0A).first {
            run.firstErrorLine = String(decoding: line, as: UTF8.self)
        }
        return .success(run)
    }
}
