import Foundation

/// A real `mpd --no-daemon` of the test's own, in a temporary folder, on a free port of 127.0.0.1 or on a Unix
/// socket, with a null audio output and a music folder of three generated, tagged 30-second tracks; `mpc` drives
/// it from outside. Never the machine's own MPD: nothing here uses port 6600 or the system's configuration.
final class MPDServer {
    /// Whether mpd, mpc and ffmpeg are on PATH.
    static let isAvailable: Bool = ["mpd", "mpc", "ffmpeg"].allSatisfy { executable($0) != nil }

    /// The tracks in the music folder, in queue order: file name, title, artist.
    static let tracks = [
        ("1 Lantern River.flac", "Lantern River", "The Karaoke Band"),
        ("2 Paper Boats.flac", "Paper Boats", "The Karaoke Band"),
        ("3 Desert Stars.ogg", "Desert Stars", "Night Choir"),
    ]

    /// The test's folder (config, database, state, log, music).
    let folder: URL
    /// The TCP port, or nil when MPD listens on `socketPath` only.
    private(set) var port: Int?
    /// The Unix socket, when MPD listens on one.
    let socketPath: String?
    /// The password with every permission, when MPD wants one.
    let password: String?
    /// mpd's process id; 0 while stopped.
    private(set) var pid: pid_t = 0

    /// Why the server could not start.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
        /// Whether mpd itself ended (it could not bind, say), rather than never answering.
        var exited = false
    }

    /// The music folder.
    var musicFolder: URL { folder.appendingPathComponent("music") }

    /// The path of a track in the music folder.
    func trackPath(_ index: Int) -> String { musicFolder.appendingPathComponent(MPDServer.tracks[index].0).path }

    /// `--player` for karaoke: `mpd:127.0.0.1:PORT` or `mpd:SOCKET`.
    var player: String { port.map { "mpd:127.0.0.1:\($0)" } ?? "mpd:\(socketPath!)" }

    /// Whether this machine has an IPv6 loopback address to listen on.
    static let hasIPv6Loopback: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr.__in6_u.__u6_addr8.15 = 1
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }()

    /// Whether mpd listens on ::1 too.
    let listensOnIPv6: Bool

    /// Makes the folder and tracks, starts mpd, fills its queue with the tracks and plays the first.
    init(unixSocket: Bool = false, password: String? = nil, ipv6: Bool = false) throws {
        listensOnIPv6 = ipv6
        port = unixSocket ? nil : try MPDServer.freePort()
        folder = try KaraokeProcess.temporaryFolder()
        socketPath = unixSocket ? folder.appendingPathComponent("mpd.sock").path : nil
        self.password = password
        do {
            try makeTracks()
            // The port was free when picked, but another test's outgoing connection may take it as its own
            // (the same range): mpd then cannot bind and exits, and another free port is tried.
            for attempt in 1...3 {
                try writeConfiguration()
                do {
                    try start()
                    break
                } catch let failure as StartFailure where failure.exited && port != nil && attempt < 3 {
                    port = try MPDServer.freePort()
                }
            }
            _ = try mpc(["update", "--wait"])
            _ = try mpc(["add", "/"])
            _ = try mpc(["play", "1"])
        } catch {
            stop()
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts mpd on the configuration (again, after `stop()`: it restores its queue and plays on) and waits
    /// until it accepts connections.
    func start() throws {
        guard pid == 0 else { return }
        pid = try MPDServer.spawn(
            "mpd", ["--no-daemon", folder.appendingPathComponent("mpd.conf").path],
            output: folder.appendingPathComponent("mpd.out").path)
        // Generous: with a dozen suites starting players at once (check-tsan), an mpd once took more than 15 s
        // to answer its first status.
        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline {
            if (try? mpc(["status"]))?.status == 0 { return }
            if waitpid(pid, nil, WNOHANG) == pid {
                pid = 0
                throw StartFailure(description: "mpd ended as it started: \(log())", exited: true)
            }
            usleep(50_000)
        }
        throw StartFailure(description: "mpd did not start: \(log())")
    }

    /// Stops mpd (SIGTERM, then SIGKILL after 5 s) and waits for it; it saves its state for `start()`.
    func stop() {
        guard pid != 0 else { return }
        kill(pid, SIGTERM)
        for _ in 0..<500 {
            if waitpid(pid, nil, WNOHANG) != 0 {
                pid = 0
                return
            }
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, nil, 0)
        pid = 0
    }

    /// Runs `mpc ARGUMENTS` against this server.
    @discardableResult
    func mpc(_ arguments: [String]) throws -> KaraokeProcess.Output {
        var host = socketPath ?? "127.0.0.1"
        if let password { host = "\(password)@\(host)" }
        var options = ["-h", host]
        if let port { options += ["-p", String(port)] }
        let raw = try KaraokeProcess.runRaw(
            options + arguments, executable: MPDServer.executable("mpc")!,
            environment: ["MPD_HOST": "", "MPD_PORT": ""],
            timeout: 20)
        return KaraokeProcess.Output(
            status: raw.status, stdout: String(decoding: raw.stdout, as: UTF8.self),
            stderr: String(decoding: raw.stderr, as: UTF8.self))
    }

    /// mpc's own view: `playing`, `paused` or nil (stopped), the elapsed whole seconds, and the title.
    func state() throws -> (state: String?, elapsed: Double, title: String) {
        let words = try mpc(["status", "%state% %currenttime%"]).stdout.split(whereSeparator: \.isWhitespace)
        let title = try mpc(["current", "-f", "%title%"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard words.count == 2 else { return (nil, 0, title) }
        let clock = words[1].split(separator: ":").compactMap { Double($0) }
        let elapsed = clock.count == 2 ? clock[0] * 60 + clock[1] : 0
        return (words[0] == "stopped" ? nil : String(words[0]), elapsed, title)
    }

    /// The end of mpd's log, for failure messages.
    func log() -> String {
        let text = ["mpd.out", "mpd.log"].map {
            (try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) ?? ""
        }.joined(separator: "\n")
        return String(text.suffix(900))
    }

    // MARK: Set-up

    /// One ffmpeg writes every track (a run of its own for each cost a start-up each, for every server).
    private func makeTracks() throws {
        try FileManager.default.createDirectory(at: musicFolder, withIntermediateDirectories: true)
        var arguments = ["-nostdin", "-loglevel", "error", "-y"]
        for index in MPDServer.tracks.indices {
            arguments += ["-f", "lavfi", "-i", "sine=frequency=\(330 + 110 * index):duration=30"]
        }
        for (index, (name, title, artist)) in MPDServer.tracks.enumerated() {
            arguments += [
                "-map", "\(index)", "-ac", "1", "-ar", "22050",
                "-metadata", "title=\(title)", "-metadata", "artist=\(artist)", "-metadata", "album=Test Album",
                musicFolder.appendingPathComponent(name).path,
            ]
        }
        let raw = try KaraokeProcess.runRaw(arguments, executable: MPDServer.executable("ffmpeg")!, timeout: 60)
        guard raw.status == 0 else {
            throw StartFailure(description: "ffmpeg failed: \(String(decoding: raw.stderr, as: UTF8.self))")
        }
    }

    private func writeConfiguration() throws {
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        var lines = [
            "music_directory \"\(musicFolder.path)\"", "db_file \"\(path("database"))\"",
            "state_file \"\(path("state"))\"", "pid_file \"\(path("pid"))\"", "log_file \"\(path("mpd.log"))\"",
            "auto_update \"no\"", "zeroconf_enabled \"no\"",
            "audio_output {", "    type \"null\"", "    name \"null\"", "}",
        ]
        if let port {
            lines += ["bind_to_address \"127.0.0.1\"", "port \"\(port)\""]
            if listensOnIPv6 { lines.append("bind_to_address \"::1\"") }
        }
        if let socketPath { lines.append("bind_to_address \"\(socketPath)\"") }
        if let password { lines.append("password \"\(password)@read,add,control,admin\"") }
        try (lines.joined(separator: "\n") + "\n").write(
            to: folder.appendingPathComponent("mpd.conf"), atomically: true, encoding: .utf8)
    }

    // MARK: Processes

    /// `name` on PATH, or nil.
    static func executable(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// A port of 127.0.0.1 that nothing listens on now (the kernel's pick for port 0).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw StartFailure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts `name` (from PATH) with `arguments`, stdin from /dev/null and its output to the file `output`,
    /// with no signal blocked (the test's threads block some, and a child would keep the mask).
    static func spawn(_ name: String, _ arguments: [String], output: String) throws -> pid_t {
        guard let path = executable(name) else { throw StartFailure(description: "\(name) is not on PATH") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var argv: [UnsafeMutablePointer<CChar>?] = ([name] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, path, &actions, &attributes, &argv, environ)
        guard spawned == 0 else {
            throw StartFailure(description: "cannot start \(name): \(String(cString: strerror(spawned)))")
        }
        return child
    }
}

/// A TCP server on 127.0.0.1 that plays a broken or hostile MPD: it answers each connection with `greeting`,
/// then, once karaoke has sent something, with `flood` bytes over and over (up to `floodLimit`), then hangs up.
final class HostileMPDServer: @unchecked Sendable {
    /// The port it listens on.
    let port: Int
    private let listener: Int32
    private let greeting: [UInt8]
    private let flood: [UInt8]
    /// Bytes of flood sent to one connection at most.
    let floodLimit = 8 * 1024 * 1024
    private let done = DispatchSemaphore(value: 0)

    /// Starts listening and serving on a thread of its own.
    init(greeting: String, flood: String) throws {
        self.greeting = Array(greeting.utf8)
        self.flood = Array(String(repeating: flood, count: max(1, 65536 / max(1, flood.utf8.count))).utf8)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && listen(fd, 4) == 0
            }
        }
        listener = fd
        guard listening else {
            close(fd)
            throw MPDServer.StartFailure(description: "cannot listen")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in serve() }.start()
    }

    /// Stops listening and waits for the serving thread to end.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        done.wait()
        close(listener)
    }

    private func serve() {
        defer { done.signal() }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { return }
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            _ = greeting.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            var request = [UInt8](repeating: 0, count: 512)
            if !flood.isEmpty, recv(connection, &request, request.count, 0) > 0 {
                var sent = 0
                while sent < floodLimit {
                    let count = flood.withUnsafeBytes {
                        send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                    }
                    if count <= 0 { break }
                    sent += count
                }
            } else {
                // Not MPD: keep the line open until karaoke hangs up (or 2 s pass).
                _ = recv(connection, &request, request.count, 0)
            }
            close(connection)
        }
    }
}

/// A door to a real MPD that is slow to open: a port of 127.0.0.1 whose listen queue (of one) holds a
/// connection of its own, so a client's connect stays in progress (its SYN is dropped, and sent again about
/// 1 s later) until the door takes that one off the queue, `delay` seconds on. The next connection is then
/// relayed both ways to MPD at `target`, until either end hangs up.
final class SlowDoor: @unchecked Sendable {
    /// The port it listens on.
    let port: Int
    private let listener: Int32
    private let filler: Int32
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    /// The relayed connection's two sockets, for `stop()` to shut down.
    private var relayed: [Int32] = []

    /// Starts listening, fills the queue, and opens the door `delay` seconds later on a thread of its own.
    init(to target: Int, delay: Double) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        // A backlog of 0 holds one connection that is not yet accepted: the filler's.
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 && listen(fd, 0) == 0
            }
        }
        let other = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let filled =
            listening
            && withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(other, $0, length) == 0 }
            }
        guard filled else {
            close(fd)
            close(other)
            throw MPDServer.StartFailure(description: "cannot listen")
        }
        listener = fd
        filler = other
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in serve(target: target, delay: delay) }.start()
    }

    /// Stops listening and relaying, and waits for the thread to end.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        lock.withLock { for fd in relayed { shutdown(fd, Int32(SHUT_RDWR)) } }
        done.wait()
        close(listener)
        close(filler)
        lock.withLock {
            for fd in relayed { close(fd) }
            relayed = []
        }
    }

    private func serve(target: Int, delay: Double) {
        defer { done.signal() }
        usleep(UInt32(delay * 1_000_000))
        let queued = accept(listener, nil, nil)
        guard queued >= 0 else { return }
        close(queued)
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        lock.withLock { relayed = [client, upstream] }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(target).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return }
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var descriptors = [
                pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                pollfd(fd: upstream, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&descriptors, 2, -1) > 0 else {
                if errno == EINTR { continue }
                return
            }
            for (from, to) in [(0, 1), (1, 0)] where descriptors[from].revents != 0 {
                let count = read(descriptors[from].fd, &chunk, chunk.count)
                guard count > 0 else { return }
                guard send(descriptors[to].fd, chunk, count, Int32(MSG_NOSIGNAL)) == count else { return }
            }
        }
    }
}
