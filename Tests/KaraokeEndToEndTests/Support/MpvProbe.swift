import Foundation

/// Finds the mpv that a karaoke run started and asks it things over its own IPC socket, as a second
/// client: an observer independent of karaoke.
struct MpvProbe {
    let pid: Int32
    let arguments: [String]

    static var isAvailable: Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/mpv") }
    }

    /// The mpv processes whose command line mentions `text` (each test's files live in their own folder).
    static func all(mentioning text: String) -> [MpvProbe] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !data.isEmpty
            else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard arguments.first == "mpv", arguments.contains(where: { $0.contains(text) }) else { return nil }
            // A zombie still has its entry until reaped; it is not a running player.
            if let status = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                status.contains(") Z ")
            {
                return nil
            }
            return MpvProbe(pid: pid, arguments: arguments)
        }
    }

    /// Waits up to `timeout` seconds for an mpv playing `file`.
    static func waitFor(playing file: String, timeout: Double = 10) -> MpvProbe? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let probe = all(mentioning: file).first, probe.arguments.last == file,
                FileManager.default.fileExists(atPath: probe.socketPath)
            {
                return probe
            }
            usleep(50_000)
        } while Date() < deadline
        return nil
    }

    /// The IPC socket karaoke gave it.
    var socketPath: String {
        arguments.first { $0.hasPrefix("--input-ipc-server=") }.map { String($0.dropFirst(19)) } ?? ""
    }

    /// A connection to the socket.
    func connect() throws -> MpvConnection { try MpvConnection(path: socketPath) }
}

/// One IPC client connection: requests with replies, and observed property changes with arrival times.
final class MpvConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var requestID = 0

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        // No close here: every property is set, so the throw runs deinit, which closes it. Closing it twice
        // once closed another thread's pipe that had taken the number in between (a CI run crashed on EBADF).
        guard result == 0 else { throw CocoaError(.fileReadNoSuchFile) }
    }

    deinit { close(fd) }

    /// Sends a command and returns the reply's `data` (nil on error).
    func request(_ command: [Any]) throws -> Any? {
        requestID += 1
        let id = requestID
        try send(["command": command, "request_id": id])
        while let message = try readMessage() {
            if message["request_id"] as? Int == id {
                return message["error"] as? String == "success" ? message["data"] : nil
            }
        }
        return nil
    }

    /// A property's value.
    func property(_ name: String) throws -> Any? { try request(["get_property", name]) }

    /// Observes `name` for `seconds`, returning each numeric change with the CLOCK_MONOTONIC time it arrived.
    func observe(_ name: String, for seconds: Double) throws -> [(time: Double, value: Double)] {
        try send(["command": ["observe_property", 77, name]])
        var changes: [(time: Double, value: Double)] = []
        let end = MpvConnection.monotonic() + seconds
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        while MpvConnection.monotonic() < end {
            guard let message = try readMessage(untilEOF: false) else { continue }
            if message["event"] as? String == "property-change", message["id"] as? Int == 77,
                let value = message["data"] as? Double
            {
                changes.append((MpvConnection.monotonic(), value))
            }
        }
        return changes
    }

    static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private func send(_ object: [String: Any]) throws {
        var data = try JSONSerialization.data(withJSONObject: object)
        data.append(0x0A)
        _ = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next message; nil at end of file (or, with `untilEOF` false, when the read timed out).
    private func readMessage(untilEOF: Bool = true) throws -> [String: Any]? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Data(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] { return object }
                continue
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 {
                if count < 0 && (errno == EAGAIN || errno == EINTR) && !untilEOF { return nil }
                if count < 0 && errno == EINTR { continue }
                return nil
            }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}

/// A WAV file of a quiet sine tone, written by the test itself (no audio from elsewhere).
enum ToneFile {
    static func write(to path: String, seconds: Double, rate: Int = 8000) throws {
        let samples = Int(Double(rate) * seconds)
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + samples * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(1))
        append(UInt32(rate)); append(UInt32(rate * 2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples * 2))
        for index in 0..<samples {
            append(Int16(2000 * sin(2 * Double.pi * 440 * Double(index) / Double(rate))))
        }
        try data.write(to: URL(fileURLWithPath: path))
    }
}
