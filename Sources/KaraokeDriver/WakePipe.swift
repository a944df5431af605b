import Glibc

/// A pipe a thread writes to so that another, asleep in `poll`, wakes up: the driver polls the terminal
/// and this pipe's read end together (DESIGN §17.3).
public final class WakePipe: Sendable {
    /// The end to poll for reading.
    public let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// A new pipe, both ends non-blocking and closed on exec; nil when the system has no descriptors left.
    public init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    /// A new pipe, or nil after saying on stderr why none could be made.
    public static func openOrExplain() -> WakePipe? {
        guard let pipe = WakePipe() else {
            let reason = String(cString: strerror(errno))
            _ = "karaoke: cannot make a pipe: \(reason)\n".withCString { write(STDERR_FILENO, $0, strlen($0)) }
            return nil
        }
        return pipe
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Wakes the poller. A full pipe already holds a wake-up, so a write that would block is dropped.
    public func post() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Empties the pipe after a wake-up, so the next poll sleeps again.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(readDescriptor, &buffer, buffer.count) > 0 {}
    }
}
