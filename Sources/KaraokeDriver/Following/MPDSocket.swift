import Glibc
import KaraokeCore

/// One non-blocking stream socket to MPD, by TCP (IPv4 or IPv6) or a Unix socket (DESIGN §12.3).
///
/// Every wait is a `poll` on the socket together with `interrupt` (the connection thread's command pipe), with
/// a deadline: nothing blocks for good, nothing spins, and a command or `stop()` is seen at once.
public struct MPDSocket {
    /// Why a socket operation ended early.
    public enum Interruption: Error {
        /// `interrupt` became readable: something for the thread to look at.
        case interrupted
        /// Not connected, refused, closed or broken; the text says which, for messages.
        case failed(String)
        /// The deadline passed.
        case timedOut
    }

    /// The descriptor.
    public let descriptor: Int32
    /// The descriptor that interrupts every wait.
    let interrupt: Int32

    /// Connects to `endpoint` within `timeout` seconds. When `interrupt` becomes readable meanwhile,
    /// `keepsConnecting` says what it meant: true (it has emptied the pipe) goes on waiting, as for a command
    /// that can wait for the connection; false ends the connect with `.interrupted`, as for a stop.
    public static func connect(
        to endpoint: MPDAddress.Endpoint, interrupt: Int32, timeout: Double,
        keepsConnecting: () -> Bool = { false }
    ) throws(Interruption) -> MPDSocket {
        switch endpoint {
        case .network(let host, let port):
            return try connectNetwork(
                host: host, port: port, interrupt: interrupt, timeout: timeout, keepsConnecting: keepsConnecting)
        case .socket(let path):
            return try connectLocal(
                name: Array(path.utf8), abstract: false, interrupt: interrupt, timeout: timeout,
                keepsConnecting: keepsConnecting)
        case .abstractSocket(let name):
            return try connectLocal(
                name: Array(name.utf8), abstract: true, interrupt: interrupt, timeout: timeout,
                keepsConnecting: keepsConnecting)
        }
    }

    /// Closes the descriptor.
    public func close() { _ = Glibc.close(descriptor) }

    /// Sends all of `text`.
    func send(_ text: String, timeout: Double) throws(Interruption) {
        let bytes = Array(text.utf8)
        var offset = 0
        let deadline = monotonicSeconds() + timeout
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                try wait(for: Int16(POLLOUT), until: deadline, interruptible: false)
            } else {
                throw .failed(MPDSocket.errorText())
            }
        }
    }

    /// Reads what has come into `reader`, waiting until `deadline` (nil: no deadline) for at least one byte.
    func receive(into reader: inout MPDResponseReader, until deadline: Double?, interruptible: Bool)
        throws(Interruption)
    {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                reader.append(chunk[0..<count])
                return
            }
            if count == 0 { throw .failed("MPD closed the connection") }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else { throw .failed(MPDSocket.errorText()) }
            try wait(for: Int16(POLLIN), until: deadline, interruptible: interruptible)
        }
    }

    /// Waits until the socket is ready for `events`, `interrupt` is readable (when `interruptible`), or the
    /// deadline passes.
    func wait(for events: Int16, until deadline: Double?, interruptible: Bool) throws(Interruption) {
        try MPDSocket.wait(descriptor, for: events, interrupt: interruptible ? interrupt : -1, until: deadline)
    }

    /// Waits on `descriptor` for `events` and on `interrupt` (ignored when negative) for input, until
    /// `deadline` (monotonic seconds; nil waits as long as it takes).
    static func wait(_ descriptor: Int32, for events: Int16, interrupt: Int32, until deadline: Double?)
        throws(Interruption)
    {
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let left = deadline - monotonicSeconds()
                if left <= 0 { throw .timedOut }
                milliseconds = Int32(min(left * 1000 + 1, 3_600_000))
            }
            var descriptors = [
                pollfd(fd: descriptor, events: events, revents: 0),
                pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .failed(errorText())
            }
            if descriptors[1].revents != 0 { throw .interrupted }
            // An error or hang-up is ready too: the read or write that follows says what it was.
            if descriptors[0].revents != 0 { return }
        }
    }

    private static func connectNetwork(
        host: String, port: Int, interrupt: Int32, timeout: Double, keepsConnecting: () -> Bool
    ) throws(Interruption) -> MPDSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .failed("cannot find '\(Diagnostic.visible(host))': \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        let deadline = monotonicSeconds() + timeout
        var failure = Interruption.failed("no address")
        var entry: UnsafeMutablePointer<addrinfo>? = first
        // Each address in turn (IPv6 and IPv4 for `localhost`), until one answers.
        while let current = entry {
            entry = current.pointee.ai_next
            do {
                return try connectAddress(
                    family: current.pointee.ai_family, address: current.pointee.ai_addr,
                    length: current.pointee.ai_addrlen, interrupt: interrupt, deadline: deadline,
                    keepsConnecting: keepsConnecting)
            } catch {
                if case .interrupted = error { throw error }
                failure = error
            }
        }
        throw failure
    }

    private static func connectLocal(
        name: [UInt8], abstract: Bool, interrupt: Int32, timeout: Double, keepsConnecting: () -> Bool
    ) throws(Interruption) -> MPDSocket {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // An abstract name starts with a NUL byte and is not NUL-terminated; a path is.
        let bytes = abstract ? [0] + name : name + [0]
        guard bytes.count <= MemoryLayout.size(ofValue: address.sun_path) else {
            throw .failed("the socket's name is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count - (abstract ? 0 : 1))
        return try withUnsafePointer(to: &address) { pointer throws(Interruption) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw throws(Interruption) in
                try connectAddress(
                    family: AF_UNIX, address: raw, length: length, interrupt: interrupt,
                    deadline: monotonicSeconds() + timeout, keepsConnecting: keepsConnecting)
            }
        }
    }

    private static func connectAddress(
        family: Int32, address: UnsafePointer<sockaddr>?, length: socklen_t, interrupt: Int32, deadline: Double,
        keepsConnecting: () -> Bool
    ) throws(Interruption) -> MPDSocket {
        let descriptor = socket(
            family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard descriptor >= 0 else { throw .failed(errorText()) }
        if Glibc.connect(descriptor, address, length) != 0 {
            guard errno == EINPROGRESS || errno == EAGAIN || errno == EINTR else {
                let failure = Interruption.failed(errorText())
                _ = Glibc.close(descriptor)
                throw failure
            }
            do {
                while true {
                    do throws(Interruption) {
                        try wait(descriptor, for: Int16(POLLOUT), interrupt: interrupt, until: deadline)
                        break
                    } catch .interrupted where keepsConnecting() {
                        // A command: it waits for the connection, which goes on.
                        continue
                    }
                }
            } catch {
                _ = Glibc.close(descriptor)
                throw error
            }
            var problem: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &problem, &size)
            if problem != 0 {
                _ = Glibc.close(descriptor)
                throw .failed(String(cString: strerror(problem)))
            }
        }
        return MPDSocket(descriptor: descriptor, interrupt: interrupt)
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
