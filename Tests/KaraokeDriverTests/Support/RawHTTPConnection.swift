import Foundation

/// A TCP connection to a server on 127.0.0.1 that sends exactly the bytes it is given: for the requests no
/// well-behaved client sends (half a request, a broken request line, a hundred at once).
final class RawHTTPConnection {
    /// How reading what the server sent ended.
    enum Ending: Equatable {
        /// The server closed the connection.
        case closed
        /// The server reset the connection.
        case reset
        /// The deadline passed with the connection still open.
        case timedOut
    }

    private let socket: Int32

    /// Connects to `port` on 127.0.0.1; nil when the connection was refused (the `errno` says why).
    init?(port: Int) {
        let made = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard made >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(made, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let reason = errno
            close(made)
            errno = reason
            return nil
        }
        socket = made
    }

    deinit {
        close(socket)
    }

    /// Sends `text`'s bytes; false when the server had already closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Sends `bytes`; false when the server had already closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            // MSG_NOSIGNAL: a server that closed first makes an error here, not a SIGPIPE that ends the tests.
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Everything the server sends until it closes the connection, or until `seconds` have passed.
    func receive(for seconds: Double) -> (bytes: [UInt8], ending: Ending) {
        let deadline = Date().addingTimeInterval(seconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return (received, .timedOut) }
            var ready = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(left * 1000) + 1) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[..<count]
            } else if count == 0 {
                return (received, .closed)
            } else if errno != EINTR && errno != EAGAIN {
                return (received, .reset)
            }
        }
    }

    /// The status code of the first response in `bytes` (`HTTP/1.1 200 OK…`), or nil when there is none.
    static func status(of bytes: [UInt8]) -> Int? {
        let head = String(decoding: bytes.prefix(12), as: UTF8.self)
        guard head.hasPrefix("HTTP/1."), head.count >= 12 else { return nil }
        return Int(head.dropFirst(9).prefix(3))
    }
}
