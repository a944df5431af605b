import Glibc
import KaraokeCore

/// Follows MPD over its text protocol, by TCP or a Unix socket (DESIGN §12.3); `PlayerConnectionRunner`
/// runs it.
///
/// One connection: connect, send the password, learn the music folder, then loop: `status` and `currentsong`
/// make a report, and `idle player` sleeps until MPD says playback changed (a play, pause, stop, seek or
/// track change). While MPD plays, the idle ends after `rereadInterval` anyway, to re-read the position and
/// bound any drift. Commands interrupt the idle through the runner's pipe (`noidle`).
public struct MPDSession: PlayerSession {
    /// How long to wait for a connection to be accepted.
    static let connectTimeout = 3.0
    /// How long to wait for an answer before taking MPD for gone.
    static let answerTimeout = 5.0
    /// While playing, the position is re-read this often even when MPD says nothing.
    static let rereadInterval = 10.0

    /// Between tries while MPD is away.
    public let retryInterval = 1.0
    private let address: MPDAddress
    /// `--music-dir`, without trailing slashes; nil asks MPD.
    private let musicDirectory: String?

    /// A session with MPD at `address`, its files under `musicDirectory` (nil: asks MPD when it can).
    public init(address: MPDAddress, musicDirectory: String?) {
        self.address = address
        var folder = musicDirectory
        while let text = folder, text.count > 1, text.hasSuffix("/") { folder = String(text.dropLast()) }
        self.musicDirectory = folder
    }

    public func follow(through link: PlayerLink) -> PlayerSessionEnd {
        do {
            try connectAndFollow(link)
        } catch {
            return error
        }
    }

    /// One connection, from the greeting until it fails or `stop()`; it never ends without throwing.
    private func connectAndFollow(_ link: PlayerLink) throws(PlayerSessionEnd) -> Never {
        let socket: MPDSocket
        do {
            // A command that comes meanwhile does not end the connect: it waits, and is sent after the first report.
            socket = try MPDSocket.connect(
                to: address.endpoint, interrupt: link.interrupt, timeout: MPDSession.connectTimeout,
                keepsConnecting: link.deferCommands)
        } catch .interrupted {
            throw .stopped
        } catch {
            throw waiting
        }
        let registered = link.hold(socket: socket.descriptor)
        defer {
            link.releaseSocket()
            socket.close()
        }
        guard registered else { throw .stopped }
        var conversation = Conversation(socket: socket, place: address.description)
        try conversation.greet()
        if let password = address.password {
            // MPDAddress.resolve lets no line break into a password.
            guard let line = MPDProtocol.command("password", [password]) else { throw .stopped }
            if case .refused(let refusal) = try conversation.exchange(line) {
                throw .lost("MPD at \(address.description) refused the password (\(refusal.text)); trying again…")
            }
        }
        var folder = musicDirectory
        if folder == nil, address.isLocalSocket, case .ok(let fields) = try conversation.exchange("config\n") {
            folder = MPDProtocol.musicDirectory(fromConfig: fields)
        }
        var playback = FollowedPlayback.stopped
        var lastReport: PlayerReport?
        while true {
            let statusFields = try conversation.fields(of: "status\n")
            guard let status = MPDStatus(fields: statusFields) else {
                throw .lost("\(address.description): MPD's status has no state; trying again…")
            }
            let at = conversation.lastArrival
            let songFields = try conversation.fields(of: "currentsong\n")
            let track = MPDProtocol.track(fromCurrentSong: songFields, musicDirectory: folder)
            let report = status.report(track: track)
            // A command's own change wakes the idle that follows it: the same paused state again tells nothing.
            if report != lastReport || report.playback == .playing || link.hasSaidGone {
                link.post(.report(report, at: at))
            }
            lastReport = report
            playback = status.playback
            // A command that came meanwhile is done before idling, then the state is read again.
            if try runCommands(conversation: &conversation, playback: playback, link: link) { continue }
            try conversation.idle(until: playback == .playing ? monotonicSeconds() + MPDSession.rereadInterval : nil)
            if link.isClosing { throw .stopped }
            _ = try runCommands(conversation: &conversation, playback: playback, link: link)
        }
    }

    /// The usual wording of MPD being away.
    private var waiting: PlayerSessionEnd { .lost("waiting for MPD at \(address.description)…") }

    /// Sends the queued commands, each as MPD's command for it; a refusal becomes a notice. True when there
    /// were any.
    private func runCommands(
        conversation: inout Conversation, playback: FollowedPlayback, link: PlayerLink
    ) throws(PlayerSessionEnd) -> Bool {
        let commands = link.takeCommands()
        if link.isClosing { throw .stopped }
        var playback = playback
        for command in commands {
            if case .refused(let refusal) = try conversation.exchange(
                MPDProtocol.line(for: command, playback: playback))
            {
                link.post(.notice(refusal.text))
            } else if command == .playPause {
                // Two presses before the next status: the second undoes the first.
                playback = playback == .playing ? .paused : .playing
            }
        }
        return !commands.isEmpty
    }

    /// One connection's request-and-answer exchanges.
    private struct Conversation {
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
        mutating func greet() throws(PlayerSessionEnd) {
            let deadline = monotonicSeconds() + MPDSession.answerTimeout
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
        mutating func fields(of line: String) throws(PlayerSessionEnd) -> [MPDField] {
            switch try exchange(line) {
            case .ok(let fields): return fields
            case .refused(let refusal): throw .lost("\(place): \(refusal.text); trying again…")
            }
        }

        /// Sends `line` and returns MPD's answer.
        mutating func exchange(_ line: String) throws(PlayerSessionEnd) -> MPDResponse {
            let deadline = monotonicSeconds() + MPDSession.answerTimeout
            do {
                try socket.send(line, timeout: MPDSession.answerTimeout)
                return try answer(until: deadline)
            } catch let error as PlayerSessionEnd {
                throw error
            } catch {
                throw lost(error)
            }
        }

        /// Sends `idle player` and waits for MPD's answer until `deadline` (nil: as long as it takes) or an
        /// interruption, then ends the idle with `noidle` if it is still on.
        mutating func idle(until deadline: Double?) throws(PlayerSessionEnd) {
            do {
                try socket.send("idle player\n", timeout: MPDSession.answerTimeout)
                while true {
                    if try reader.nextResponse() != nil { return }
                    try socket.receive(into: &reader, until: deadline, interruptible: true)
                }
            } catch MPDSocket.Interruption.interrupted {
            } catch MPDSocket.Interruption.timedOut {
            } catch let error as PlayerSessionEnd {
                throw error
            } catch {
                throw lost(error)
            }
            // MPD answers `noidle` with the idle's own answer (with or without `changed:` lines).
            _ = try exchange("noidle\n")
        }

        /// Reads until a whole answer has come.
        private mutating func answer(until deadline: Double) throws(PlayerSessionEnd) -> MPDResponse {
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
        func lost(_ error: any Error) -> PlayerSessionEnd {
            switch error {
            case let end as PlayerSessionEnd: return end
            case let problem as MPDProtocolError: return .lost("\(place): \(problem.text); trying again…")
            default: return .lost("waiting for MPD at \(place)…")
            }
        }
    }
}
