import Glibc
import KaraokeCore

/// `karaoke follow`: the lyrics of what another player plays, on that player's clock (DESIGN §12).
enum FollowCommand {
    static func run(_ request: FollowRequest) -> Int32 {
        guard let wake = WakePipe() else {
            StandardStreams.err("karaoke: cannot make a pipe: \(String(cString: strerror(errno)))")
            return 1
        }
        let connection: FollowedPlayerConnection
        switch connect(request, wake: wake) {
        case .success(let opened): connection = opened
        case .failure(let failure):
            StandardStreams.err("karaoke: \(failure.message)")
            return 1
        }
        defer { connection.stop() }
        guard request.prints else {
            StandardStreams.err("karaoke: follow shows its screen in a later change; use --print for now")
            return 2
        }
        return printMessages(from: connection, wake: wake)
    }

    /// Why following could not start.
    struct Failure: Error {
        var message: String
    }

    /// Opens the connection `--player` asks for.
    static func connect(_ request: FollowRequest, wake: WakePipe) -> Result<FollowedPlayerConnection, Failure> {
        switch request.player {
        case .automatic, .mpris:
            return .failure(Failure(message: "following MPRIS players is not built yet"))
        case .mpd:
            return .failure(Failure(message: "following MPD is not built yet"))
        }
    }

    /// `--print`: each message as a JSON line, until stdout closes or a signal ends the process.
    static func printMessages(from connection: FollowedPlayerConnection, wake: WakePipe) -> Int32 {
        while true {
            var descriptor = pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, -1)
            if ready < 0 && errno != EINTR { return 1 }
            wake.drain()
            var lines = ""
            for message in connection.takeMessages() { lines += message.jsonLine() + "\n" }
            guard !lines.isEmpty else { continue }
            var text = lines
            let written = text.withUTF8 { StandardStreams.writeAll(UnsafeRawBufferPointer($0), to: STDOUT_FILENO) }
            // stdout closed (the reader went away): nothing more to do.
            if !written { return 0 }
        }
    }
}
