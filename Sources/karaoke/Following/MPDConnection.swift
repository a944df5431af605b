import Glibc
import KaraokeCore
import KaraokeDriver

/// Follows MPD over its text protocol, by TCP or a Unix socket (DESIGN §12.3).
///
/// A thread of its own connects, sends the password, learns the music folder, then loops: `status` and
/// `currentsong` make a report, and `idle player` sleeps until MPD says playback changed (a play, pause, stop,
/// seek or track change). While MPD plays, the idle ends after `rereadInterval` anyway, to re-read the
/// position and bound any drift. Commands from `send` interrupt the idle through a pipe (`noidle`). When MPD
/// is away the thread says so once and tries again every second, sleeping in `poll` in between.
final class MPDConnection: FollowedPlayerConnection {
    /// How long to wait for a connection to be accepted.
    static let connectTimeout = 3.0
    /// How long to wait for an answer before taking MPD for gone.
    static let answerTimeout = 5.0
    /// Between tries while MPD is away.
    static let retryInterval = 1.0
    /// While playing, the position is re-read this often even when MPD says nothing.
    static let rereadInterval = 10.0

    /// What the caller's thread and the connection's thread share.
    private struct Shared {
        var messages: [FollowMessage] = []
        var commands: [PlayerCommand] = []
        var closing = false
        /// The socket while connected, so `stop()` can shut it down under a thread blocked on it.
        var socket: Int32 = -1
        var thread: pthread_t?
    }

    private let shared = PthreadLock(Shared())
    private let wake: WakePipe
    /// Written to by `send` and `stop`; the thread polls it beside the socket.
    private let interrupt: WakePipe
    /// Written to by the thread as it ends, so `stop()` can wait for it with a deadline.
    private let finished: WakePipe
    private let address: MPDAddress
    /// `--music-dir`, without trailing slashes; nil asks MPD.
    private let musicDirectory: String?

    /// Why following could not start.
    struct Failure: Error {
        var message: String
    }

    /// Starts following MPD at `address`; messages are queued and announced on `wake`.
    init(address: MPDAddress, musicDirectory: String?, wake: WakePipe) throws(Failure) {
        guard let interrupt = WakePipe(), let finished = WakePipe() else {
            throw Failure(message: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        self.interrupt = interrupt
        self.finished = finished
        self.address = address
        self.wake = wake
        var folder = musicDirectory
        while let text = folder, text.count > 1, text.hasSuffix("/") { folder = String(text.dropLast()) }
        self.musicDirectory = folder
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                let connection = Unmanaged<MPDConnection>.fromOpaque(context!).takeRetainedValue()
                connection.run()
                connection.finished.post()
                return nil
            }, box)
        guard started == 0 else {
            Unmanaged<MPDConnection>.fromOpaque(box).release()
            throw Failure(message: "cannot start a thread: \(String(cString: strerror(started)))")
        }
        shared.withLock { $0.thread = thread }
    }

    func takeMessages() -> [FollowMessage] {
        shared.withLock { state in
            let taken = state.messages
            state.messages.removeAll(keepingCapacity: true)
            return taken
        }
    }

    func send(_ command: PlayerCommand) {
        shared.withLock { $0.commands.append(command) }
        interrupt.post()
    }

    func stop() {
        let thread: pthread_t? = shared.withLock { state in
            state.closing = true
            if state.socket >= 0 { shutdown(state.socket, Int32(SHUT_RDWR)) }
            defer { state.thread = nil }
            return state.thread
        }
        interrupt.post()
        guard let thread else { return }
        // The thread may be inside getaddrinfo, which nothing can interrupt (a name server that does not
        // answer): quitting waits for it 2 s at most, then leaves it to end with the process.
        var end = pollfd(fd: finished.readDescriptor, events: Int16(POLLIN), revents: 0)
        let deadline = monotonicSeconds() + 2
        while end.revents == 0, case let left = deadline - monotonicSeconds(), left > 0 {
            _ = poll(&end, 1, Int32(left * 1000) + 1)
        }
        if end.revents != 0 { pthread_join(thread, nil) } else { pthread_detach(thread) }
    }

    // MARK: - The thread

    /// Why one connection's session ended.
    private enum End: Error {
        /// `stop()` was called.
        case closing
        /// MPD went away or could not be reached; the text is for the screen, nil for the usual wording.
        case lost(String?)
    }

    /// Connects, follows, and reconnects until `stop()`.
    private func run() {
        var saidGone = false
        while !isClosing {
            let reason: String?
            do {
                try follow(saidGone: &saidGone)
                return
            } catch {
                guard case .lost(let text) = error else { return }
                reason = text
            }
            if isClosing { return }
            if !saidGone {
                post(.gone(reason ?? "waiting for MPD at \(address.description)…"))
                saidGone = true
            }
            // Commands for a player that is not there are dropped; the pipe is polled only to see `stop()`.
            _ = try? MPDSocket.wait(
                -1, for: 0, interrupt: interrupt.readDescriptor, until: monotonicSeconds() + MPDConnection.retryInterval
            )
            interrupt.drain()
            shared.withLock { $0.commands.removeAll() }
        }
    }

    /// One connection, from the greeting until it fails or `stop()`.
    private func follow(saidGone: inout Bool) throws(End) {
        let socket: MPDSocket
        do {
            socket = try MPDSocket.connect(
                to: address.endpoint, interrupt: interrupt.readDescriptor, timeout: MPDConnection.connectTimeout)
        } catch .interrupted {
            throw isClosing ? .closing : .lost(nil)
        } catch {
            throw .lost(nil)
        }
        let registered = shared.withLock { state in
            guard !state.closing else { return false }
            state.socket = socket.descriptor
            return true
        }
        defer {
            shared.withLock { $0.socket = -1 }
            socket.close()
        }
        guard registered else { throw .closing }
        var session = Session(socket: socket, place: address.description)
        try session.greet()
        if let password = address.password {
            // MPDAddress.resolve lets no line break into a password.
            guard let line = MPDProtocol.command("password", [password]) else { throw .closing }
            if case .refused(let refusal) = try session.exchange(line) {
                throw .lost("MPD at \(address.description) refused the password (\(refusal.text)); trying again…")
            }
        }
        var folder = musicDirectory
        if folder == nil, address.isLocalSocket, case .ok(let fields) = try session.exchange("config\n") {
            folder = MPDProtocol.musicDirectory(fromConfig: fields)
        }
        var playback = FollowedPlayback.stopped
        var lastReport: PlayerReport?
        while true {
            let statusFields = try session.fields(of: "status\n")
            guard let status = MPDStatus(fields: statusFields) else {
                throw .lost("\(address.description): MPD's status has no state; trying again…")
            }
            let at = session.lastArrival
            let songFields = try session.fields(of: "currentsong\n")
            let track = MPDProtocol.track(fromCurrentSong: songFields, musicDirectory: folder)
            let report = status.report(track: track)
            // A command's own change wakes the idle that follows it: the same paused state again tells nothing.
            if report != lastReport || report.playback == .playing || saidGone {
                post(.report(report, at: at))
            }
            lastReport = report
            saidGone = false
            playback = status.playback
            // A command that came meanwhile is done before idling, then the state is read again.
            interrupt.drain()
            if try runCommands(session: &session, playback: playback) { continue }
            try session.idle(until: playback == .playing ? monotonicSeconds() + MPDConnection.rereadInterval : nil)
            if isClosing { throw .closing }
            _ = try runCommands(session: &session, playback: playback)
        }
    }

    /// Sends the queued commands, each as MPD's command for it; a refusal becomes a notice. True when there
    /// were any.
    private func runCommands(session: inout Session, playback: FollowedPlayback) throws(End) -> Bool {
        let commands: [PlayerCommand] = shared.withLock { state in
            defer { state.commands.removeAll() }
            return state.commands
        }
        if isClosing { throw .closing }
        var playback = playback
        for command in commands {
            if case .refused(let refusal) = try session.exchange(MPDProtocol.line(for: command, playback: playback)) {
                post(.notice(refusal.text))
            } else if command == .playPause {
                // Two presses before the next status: the second undoes the first.
                playback = playback == .playing ? .paused : .playing
            }
        }
        return !commands.isEmpty
    }

    private var isClosing: Bool { shared.withLock { $0.closing } }

    private func post(_ message: FollowMessage) {
        shared.withLock { $0.messages.append(message) }
        wake.post()
    }

    /// One connection's request-and-answer exchanges.
    private struct Session {
        let socket: MPDSocket
        /// Where MPD is, for messages.
        let place: String
        var reader = MPDResponseReader()
        /// When the last answer was complete (monotonic seconds): the moment its numbers belong to.
        var lastArrival = 0.0

        init(socket: MPDSocket, place: String) {
            self.socket = socket
            self.place = place
        }

        /// Reads the greeting `OK MPD x.y.z`.
        mutating func greet() throws(End) {
            let deadline = monotonicSeconds() + MPDConnection.answerTimeout
            do {
                while try reader.greeting() == nil {
                    try socket.receive(into: &reader, until: deadline, interruptible: false)
                }
            } catch {
                throw lost(error)
            }
        }

        /// Sends `line` and returns the fields of MPD's answer; a refusal (no permission, say, without the
        /// password) ends the session with MPD's words.
        mutating func fields(of line: String) throws(End) -> [MPDField] {
            switch try exchange(line) {
            case .ok(let fields): return fields
            case .refused(let refusal): throw .lost("\(place): \(refusal.text); trying again…")
            }
        }

        /// Sends `line` and returns MPD's answer.
        mutating func exchange(_ line: String) throws(End) -> MPDResponse {
            let deadline = monotonicSeconds() + MPDConnection.answerTimeout
            do {
                try socket.send(line, timeout: MPDConnection.answerTimeout)
                return try answer(until: deadline)
            } catch let error as End {
                throw error
            } catch {
                throw lost(error)
            }
        }

        /// Sends `idle player` and waits for MPD's answer until `deadline` (nil: as long as it takes) or an
        /// interruption, then ends the idle with `noidle` if it is still on.
        mutating func idle(until deadline: Double?) throws(End) {
            do {
                try socket.send("idle player\n", timeout: MPDConnection.answerTimeout)
                while true {
                    if try reader.nextResponse() != nil { return }
                    try socket.receive(into: &reader, until: deadline, interruptible: true)
                }
            } catch MPDSocket.Interruption.interrupted {
            } catch MPDSocket.Interruption.timedOut {
            } catch let error as End {
                throw error
            } catch {
                throw lost(error)
            }
            // MPD answers `noidle` with the idle's own answer (with or without `changed:` lines).
            _ = try exchange("noidle\n")
        }

        /// Reads until a whole answer has come.
        private mutating func answer(until deadline: Double) throws(End) -> MPDResponse {
            do {
                while true {
                    if let response = try reader.nextResponse() {
                        lastArrival = monotonicSeconds()
                        return response
                    }
                    try socket.receive(into: &reader, until: deadline, interruptible: false)
                }
            } catch {
                throw lost(error)
            }
        }

        /// The end a socket or protocol error means.
        func lost(_ error: any Error) -> End {
            switch error {
            case let end as End: return end
            case let problem as MPDProtocolError: return .lost("\(place): \(problem.text); trying again…")
            default: return .lost(nil)
            }
        }
    }
}
