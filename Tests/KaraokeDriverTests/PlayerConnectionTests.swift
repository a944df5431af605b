import Glibc
import KaraokeCore
import KaraokeDriver
import Testing

/// A scripted MPD on 127.0.0.1 that is slow to accept, for one client.
///
/// Its listen queue holds one connection, and a connection of its own fills it: a client's SYN is dropped, so
/// the client's `connect` stays in progress until the server takes that one off the queue (`delay` seconds
/// on; nil: never) and the kernel sends the client's SYN again (about 1 s after the first). It then plays
/// MPD: a track playing, `OK` to every other command, an `idle` that answers only `noidle`; each line is kept,
/// in order.
final class SlowMPD: Sendable {
    /// The port it listens on.
    let port: Int
    private let listener: Int32
    private let filler: Int32
    private let state = PthreadLock(State())
    private let thread: PthreadLock<BackgroundThread?> = PthreadLock(nil)

    private struct State {
        var lines: [String] = []
        var client: Int32 = -1
    }

    /// Starts listening, fills the queue, and serves on a thread of its own.
    init(delay: Double?) throws {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        // A backlog of 0 holds one connection that is not yet accepted.
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
            throw SetUpFailure.cannotListen
        }
        listener = fd
        filler = other
        port = Int(UInt16(bigEndian: address.sin_port))
        guard let delay else { return }
        let started = try BackgroundThread.start { [self] in serve(after: delay) }
        thread.withLock { $0 = started }
    }

    /// Why the server could not start.
    enum SetUpFailure: Error {
        case cannotListen
    }

    /// Every command line received so far, in order.
    var lines: [String] { state.withLock { $0.lines } }

    /// Stops serving (whatever the thread is blocked in) and waits for the thread.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        state.withLock { if $0.client >= 0 { shutdown($0.client, Int32(SHUT_RDWR)) } }
        thread.withLock { $0 }?.join()
        thread.withLock { $0 = nil }
        close(listener)
        close(filler)
        state.withLock { if $0.client >= 0 { close($0.client) } }
    }

    private func serve(after delay: Double) {
        // Slow: the queue stays full for `delay` seconds.
        usleep(UInt32(delay * 1_000_000))
        let queued = accept(listener, nil, nil)
        guard queued >= 0 else { return }
        close(queued)
        let client = accept(listener, nil, nil)
        guard client >= 0 else { return }
        state.withLock { $0.client = client }
        reply("OK MPD 0.23.5\n", to: client)
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(client, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            pending += chunk[0..<count]
            while let end = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                state.withLock { $0.lines.append(line) }
                switch line {
                case "status": reply("state: play\nelapsed: 1.000\nduration: 100.000\nsongid: 1\nOK\n", to: client)
                case "currentsong": reply("file: a.flac\nTitle: Song\nArtist: Band\nId: 1\nOK\n", to: client)
                // MPD answers an idle only when something changes, or at `noidle`.
                case "idle player": break
                default: reply("OK\n", to: client)
                }
            }
        }
    }

    private func reply(_ text: String, to client: Int32) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }
}

@Suite("The player connection runs MPD's session in-process against a scripted MPD")
struct PlayerConnectionTests {
    /// Waits on `wake` until `done` holds, `seconds` at most; true when it did.
    static func waitFor(_ wake: WakePipe, seconds: Double = 5, _ done: () -> Bool) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while !done() {
            let left = deadline - monotonicSeconds()
            guard left > 0 else { return false }
            var descriptor = pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0)
            // The mailbox wakes the pipe; the server's lines do not, so it is looked at every 20 ms too.
            _ = poll(&descriptor, 1, Int32(min(left, 0.02) * 1000) + 1)
            wake.drain()
        }
        return true
    }

    @Test("commands sent while the connection is being made wait for it and are sent in order; no 'gone' is said")
    func commandsWhileConnecting() throws {
        let server = try SlowMPD(delay: 0.3)
        defer { server.stop() }
        let wake = try #require(WakePipe())
        let runner = try PlayerConnectionRunner(
            running: MPDSession(
                address: MPDAddress(endpoint: .network(host: "127.0.0.1", port: server.port)), musicDirectory: nil),
            wake: wake)
        defer { runner.stop() }
        // At once: the connect is still waiting for the server to take it.
        runner.send(.seek(to: 50))
        runner.send(.next)
        var messages: [FollowMessage] = []
        let served = Self.waitFor(wake) {
            messages += runner.takeMessages()
            return server.lines.contains("next")
        }
        #expect(served, "the commands never reached the server: \(server.lines), \(messages)")
        #expect(Array(server.lines.prefix(4)) == ["status", "currentsong", "seekcur \"50.000\"", "next"])
        messages += runner.takeMessages()
        #expect(messages.contains { if case .report = $0 { true } else { false } }, "\(messages)")
        #expect(!messages.contains { if case .gone = $0 { true } else { false } }, "\(messages)")
        #expect(!messages.contains { if case .notice = $0 { true } else { false } }, "\(messages)")
    }

    @Test("a stop while the connection is being made, after a command, ends the connection at once")
    func stopWhileConnecting() throws {
        let server = try SlowMPD(delay: nil)
        defer { server.stop() }
        let wake = try #require(WakePipe())
        let runner = try PlayerConnectionRunner(
            running: MPDSession(
                address: MPDAddress(endpoint: .network(host: "127.0.0.1", port: server.port)), musicDirectory: nil),
            wake: wake)
        runner.send(.next)
        // The command is set aside and the connect goes on; the stop must still end it.
        _ = Self.waitFor(wake, seconds: 0.3) { false }
        let asked = monotonicSeconds()
        runner.stop()
        #expect(monotonicSeconds() - asked < 0.5)
        #expect(server.lines.isEmpty)
        #expect(runner.takeMessages().isEmpty)
    }
}
