import Glibc
import KaraokeCore
import KaraokeDriver

/// `karaoke follow`: the lyrics of what another player plays, on that player's clock (DESIGN §12).
enum FollowCommand {
    static func run(_ request: FollowRequest) -> Int32 {
        if !request.prints {
            guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
                StandardStreams.err(
                    "karaoke: follow needs a terminal on stdin and stdout; "
                        + "to print the player's state without one, use 'karaoke follow --print'")
                return 2
            }
        }
        // The screen's waiter before any thread starts: the threads wake it, and signals come only to its wait.
        if let form = request.print, form != .json {
            // The current line for a status bar (DESIGN §28): a waiter for a command without a screen.
            guard let waiter = PollWaiter.forCommand() else { return 1 }
            let connection: PlayerConnectionRunner
            switch connect(request, wake: waiter.wake) {
            case .success(let opened): connection = opened
            case .failure(let failure):
                StandardStreams.err("karaoke: \(failure.message)")
                return 1
            }
            defer { connection.stop() }
            return printStatusLines(request, form: form, connection: connection, waiter: waiter)
        }
        let waiter: PollWaiter?
        if request.prints {
            waiter = nil
        } else {
            guard let made = PollWaiter.forTerminal() else { return 1 }
            waiter = made
        }
        guard let wake = waiter?.wake ?? WakePipe.openOrExplain() else { return 1 }
        let connection: PlayerConnectionRunner
        switch connect(request, wake: wake) {
        case .success(let opened): connection = opened
        case .failure(let failure):
            StandardStreams.err("karaoke: \(failure.message)")
            return 1
        }
        defer { connection.stop() }
        guard let waiter else { return printMessages(from: connection, wake: wake) }
        return showScreen(request, connection: connection, waiter: waiter)
    }

    /// The follow screen, until q or a signal.
    static func showScreen(
        _ request: FollowRequest, connection: PlayerConnectionRunner, waiter: PollWaiter
    ) -> Int32 {
        var options = ScreenOptions.of(request.display)
        let colors = request.display.color != .never && !TerminalInfo.noColorRequested
        var clockLog: Int32 = -1
        if let path = request.clockLog {
            clockLog = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard clockLog >= 0 else {
                StandardStreams.err("karaoke: \(ControlCharacters.strip(path)): \(LyricFile.describe(errno))")
                return 1
            }
        }
        defer { if clockLog >= 0 { close(clockLog) } }
        guard let screen = NCursesScreen.openOrExplain(colors: colors, graphemes: request.display.graphemes) else {
            return 2
        }
        options.graphemes = screen.graphemes
        let size = screen.size
        var session = FollowSession(
            screen: screen, waiter: waiter, connection: connection,
            worker: LyricsWorker(request: request, wake: waiter.wake),
            loop: FollowLoop(
                options: options, columns: size.columns, rows: size.rows,
                framesPerSecond: request.display.framesPerSecond, logsClock: clockLog >= 0, now: monotonicSeconds()),
            clockLog: clockLog)
        let status = session.run()
        screen.close()
        ScreenOptions.reportRomanizationFailure()
        return status
    }

    /// Why following could not start.
    struct Failure: Error {
        var message: String
    }

    /// Opens the connection `--player` asks for.
    static func connect(_ request: FollowRequest, wake: WakePipe) -> Result<PlayerConnectionRunner, Failure> {
        switch request.player {
        case .automatic:
            var chosen = request
            chosen.player = automaticChoice()
            return connect(chosen, wake: wake)
        case .mpris(let name):
            do throws(PlayerConnectionRunner.Failure) {
                return .success(try PlayerConnectionRunner(running: try MPRISSession(wanted: name), wake: wake))
            } catch {
                return .failure(Failure(message: error.message))
            }
        case .mpd(let host, let port):
            let environment = { (name: String) -> String? in getenv(name).map { String(cString: $0) } }
            switch MPDAddress.resolve(
                host: host, port: port, environmentHost: environment("MPD_HOST"),
                environmentPort: environment("MPD_PORT"))
            {
            case .failure(let problem): return .failure(Failure(message: problem.text))
            case .success(let address):
                do {
                    return .success(
                        try PlayerConnectionRunner(
                            running: MPDSession(address: address, musicDirectory: request.musicDirectory), wake: wake))
                } catch {
                    return .failure(Failure(message: error.message))
                }
            }
        }
    }

    /// What `--player auto` follows (`PlayerChoice.automatic`, DESIGN §12): an MPRIS player that plays; else
    /// MPD when it answers at `$MPD_HOST`/`$MPD_PORT` (or localhost:6600) within 0.5 s; else MPRIS when the
    /// session bus can be reached, waiting for a player to come; else MPD, waiting for it.
    static func automaticChoice() -> PlayerChoice {
        let bus = MPRISSession.lookAtBus()
        return PlayerChoice.automatic(mprisPlays: bus.somethingPlays, busReachable: bus.reachable) {
            let environment = { (name: String) -> String? in getenv(name).map { String(cString: $0) } }
            guard
                case .success(let address) = MPDAddress.resolve(
                    host: nil, port: nil, environmentHost: environment("MPD_HOST"),
                    environmentPort: environment("MPD_PORT")),
                let wake = WakePipe(),
                let socket = try? MPDSocket.connect(to: address.endpoint, interrupt: wake.readDescriptor, timeout: 0.5)
            else { return false }
            socket.close()
            return true
        }
    }

    /// `--print`: each message as a JSON line, until stdout closes or a signal ends the process; lines on
    /// stdin are commands for the player (`play-pause`, `seek +5`, `seek 30`, `next`, `previous`), so a
    /// script (or a test) can drive the player through karaoke's connection.
    static func printMessages(from connection: PlayerConnectionRunner, wake: WakePipe) -> Int32 {
        var input: [UInt8] = []
        var inputOpen = true
        while true {
            var descriptors = [
                pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: inputOpen ? STDIN_FILENO : -1, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno != EINTR { return 1 }
            if descriptors[1].revents != 0 {
                inputOpen = readCommands(into: &input, connection: connection)
            }
            wake.drain()
            var lines = ""
            for message in connection.takeMessages() { lines += message.jsonLine() + "\n" }
            guard !lines.isEmpty else { continue }
            let written = lines.withUTF8 { StandardStreams.writeAll(UnsafeRawBufferPointer($0), to: STDOUT_FILENO) }
            // stdout closed (the reader went away): nothing more to do.
            if !written { return 0 }
        }
    }

    /// Reads what stdin has, sends each whole line's command; false once stdin is closed.
    private static func readCommands(into input: inout [UInt8], connection: PlayerConnectionRunner) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(STDIN_FILENO, &buffer, buffer.count)
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return true }
        guard count > 0 else { return false }
        input += buffer[0..<count]
        while let end = input.firstIndex(of: 10) {
            let line = String(decoding: input[..<end], as: UTF8.self)
            input.removeSubrange(...end)
            if let command = PlayerCommand(parsing: line) {
                connection.send(command)
            } else if line.contains(where: { $0 != " " && $0 != "\t" && $0 != "\r" }) {
                StandardStreams.err(
                    "karaoke: unknown command '\(ControlCharacters.strip(String(line.prefix(40))))'; "
                        + "expected play-pause, seek +S, seek -S, seek S, next or previous")
            }
        }
        // A line longer than any command is not one: drop it rather than grow without end.
        if input.count > 4096 { input.removeAll() }
        return true
    }
}
