import Foundation

/// One connection of the test's own to a test `MPDServer`, speaking MPD's protocol directly, so the moment a
/// command took effect is known to a millisecond (an `mpc` run costs a process start either side).
final class MPDControl {
    private let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to `server`'s TCP port and reads the greeting.
    init(_ server: MPDServer) throws {
        guard let port = server.port else { throw MPDServer.StartFailure(description: "MPDControl needs a TCP port") }
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        // No close here: every property is set, so the throw runs deinit, which closes the socket (as MpvConnection).
        guard connected, let greeting = readLine(), greeting.hasPrefix("OK MPD") else {
            throw MPDServer.StartFailure(description: "cannot talk to mpd on port \(port)")
        }
    }

    deinit { close(fd) }

    /// Sends `command` and reads its answer up to `OK`; the answer's `key: value` lines, and the monotonic time
    /// the `OK` came (the command has taken effect by then).
    @discardableResult
    func send(_ command: String) throws -> (fields: [String: String], done: Double) {
        let bytes = Array((command + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var fields: [String: String] = [:]
        while let line = readLine() {
            if line == "OK" { return (fields, FollowProcess.now()) }
            if line.hasPrefix("ACK") { throw MPDServer.StartFailure(description: "mpd refused '\(command)': \(line)") }
            if let colon = line.range(of: ": ") {
                fields[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...])
            }
        }
        throw MPDServer.StartFailure(description: "no answer from mpd to '\(command)'")
    }

    /// mpd's `elapsed` now.
    func elapsed() throws -> Double { Double(try send("status").fields["elapsed"] ?? "") ?? 0 }

    private func readLine() -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer += chunk[0..<count]
        }
    }
}
