import Glibc
import KaraokeCore

/// The connection to the player `karaoke follow` follows (DESIGN §12): one runner for every kind of player.
///
/// It owns what every player needs alike: the thread (`BackgroundThread`), the queue of commands from the
/// screen, the mailbox of `FollowMessage`s that wakes the follow loop, the stop with a deadline, and the
/// policy while the player is away (say `.gone` once, answer commands with a notice, try again). The
/// `PlayerSession` it runs knows only its protocol: MPRIS over D-Bus (`MPRISSession`), MPD over its socket
/// (`MPDSession`).
public final class PlayerConnectionRunner: Sendable {
    /// How long `stop()` waits for the thread before leaving it to end with the process.
    public static let stopDeadline = 2.0

    /// Why following could not start.
    public struct Failure: Error {
        /// The text after `karaoke: `.
        public var message: String

        /// A failure saying `message`.
        public init(message: String) {
            self.message = message
        }

        /// The system's words for `code`, lower-cased as karaoke's messages are.
        static func describe(_ code: Int32) -> String { String(cString: strerror(code)).lowercased() }
    }

    /// What the screen's thread and the connection's thread share.
    private struct Shared {
        var commands: [PlayerCommand] = []
        var closing = false
        /// The session's socket while connected, so `stop()` can shut it down under a thread blocked on it.
        var socket: Int32 = -1
        /// The thread, until `stop()` has joined or left it.
        var thread: BackgroundThread?
    }

    private let shared = PthreadLock(Shared())
    /// What the session says, for the follow loop.
    private let messages: Mailbox<FollowMessage>
    /// Written to by `send` and `stop`; the session polls it beside the player's socket.
    fileprivate let interrupt: WakePipe
    /// Written to by the thread as it ends, so `stop()` can wait for it with a deadline.
    private let finished: WakePipe

    /// Starts running `session` on a thread of its own; its messages wake `wake`.
    public init(running session: some PlayerSession, wake: WakePipe) throws(Failure) {
        guard let interrupt = WakePipe(), let finished = WakePipe() else {
            throw Failure(message: "cannot make a pipe: \(Failure.describe(errno))")
        }
        self.interrupt = interrupt
        self.finished = finished
        messages = Mailbox(waking: wake)
        // A thread of its own: the session blocks in poll(2), or in a call to the player, for as long as
        // karaoke follows.
        do {
            let thread = try BackgroundThread.start { [self] in
                run(session)
                self.finished.post()
            }
            shared.withLock { $0.thread = thread }
        } catch {
            throw Failure(
                message: "cannot start a thread for the player's connection: \(Failure.describe(error.code))")
        }
    }

    /// The messages posted since the last call, in order.
    public func takeMessages() -> [FollowMessage] {
        messages.take()
    }

    /// Asks the player to do `command` (queued; the answer, if the player refuses, is a `.notice`).
    public func send(_ command: PlayerCommand) {
        shared.withLock { $0.commands.append(command) }
        interrupt.post()
    }

    /// Closes the connection and ends its thread, waiting for it `stopDeadline` at most: the session may be
    /// inside a call nothing can interrupt (`getaddrinfo` with a silent name server), and quitting should not
    /// wait on it. The player is left as it is (playing on). Safe to call again.
    public func stop() {
        let thread: BackgroundThread? = shared.withLock { state in
            state.closing = true
            // Under the lock: the thread closes the socket only after taking it back under the lock.
            if state.socket >= 0 { shutdown(state.socket, Int32(SHUT_RDWR)) }
            defer { state.thread = nil }
            return state.thread
        }
        interrupt.post()
        guard let thread else { return }
        var end = pollfd(fd: finished.readDescriptor, events: Int16(POLLIN), revents: 0)
        let deadline = monotonicSeconds() + PlayerConnectionRunner.stopDeadline
        while end.revents == 0, monotonicSeconds() < deadline {
            _ = poll(&end, 1, PollWaiter.milliseconds(until: deadline, from: monotonicSeconds()))
        }
        if end.revents != 0 { thread.join() } else { thread.detach() }
    }

    // MARK: - The thread

    /// Runs `session` until `stop()`: each time the player goes away, says so (once while the reason stays
    /// the same), waits the session's `retryInterval`, and connects again.
    private func run(_ session: some PlayerSession) {
        let link = PlayerLink(runner: self)
        while !isClosing {
            guard case .lost(let reason) = session.follow(through: link), !isClosing else { return }
            link.post(.gone(reason))
            awaitRetry(until: monotonicSeconds() + session.retryInterval, link: link)
        }
    }

    /// Sleeps until `deadline` or `stop()`; a command meanwhile is answered with a notice, as there is no
    /// player to send it to.
    private func awaitRetry(until deadline: Double, link: PlayerLink) {
        var descriptor = pollfd(fd: interrupt.readDescriptor, events: Int16(POLLIN), revents: 0)
        while !isClosing, monotonicSeconds() < deadline {
            descriptor.revents = 0
            _ = poll(&descriptor, 1, PollWaiter.milliseconds(until: deadline, from: monotonicSeconds()))
            if !link.takeCommands().isEmpty { link.post(.notice("no player to send the command to")) }
        }
    }

    /// Whether `stop()` was called.
    fileprivate var isClosing: Bool { shared.withLock { $0.closing } }

    /// The commands queued since the last call; empties the interrupt pipe first, so a command queued after
    /// this wakes the next poll.
    fileprivate func takeCommands() -> [PlayerCommand] {
        interrupt.drain()
        return shared.withLock { state in
            defer { state.commands.removeAll() }
            return state.commands
        }
    }

    /// Empties the interrupt pipe without taking the commands; false when `stop()` was called.
    fileprivate func deferCommands() -> Bool {
        // Emptied before looking: a stop() after the look writes to the pipe again, so it is never missed.
        interrupt.drain()
        return !isClosing
    }

    /// Registers `descriptor` for `stop()` to shut down; false when stopping already.
    fileprivate func hold(socket descriptor: Int32) -> Bool {
        shared.withLock { state in
            guard !state.closing else { return false }
            state.socket = descriptor
            return true
        }
    }

    /// Takes the socket back before the session closes it.
    fileprivate func releaseSocket() {
        shared.withLock { $0.socket = -1 }
    }

    /// Hands `message` to the follow loop and wakes it.
    fileprivate func post(_ message: FollowMessage) {
        messages.post(message)
    }
}

/// The part of a followed player's connection that knows its protocol: it connects once and follows the
/// player until the player (or the bus, or the socket) goes away or the runner stops it.
public protocol PlayerSession: Sendable {
    /// How long to wait between tries while the player is away.
    var retryInterval: Double { get }
    /// Connects once and follows the player, posting through `link`, until it is lost or `link.isClosing`.
    func follow(through link: PlayerLink) -> PlayerSessionEnd
}

/// Why one connection of a `PlayerSession` ended.
public enum PlayerSessionEnd: Error {
    /// `stop()` was called.
    case stopped
    /// The player went away or could not be reached; the text is for the screen.
    case lost(String)
}

/// What a session sees of its runner, on the connection's thread alone: its commands, its interrupt,
/// whether to stop, and where messages go.
public final class PlayerLink {
    private let runner: PlayerConnectionRunner
    /// The last `.gone` posted since the last report, so a lasting absence is said once.
    private var lastGone: String?

    fileprivate init(runner: PlayerConnectionRunner) {
        self.runner = runner
    }

    /// Readable when a command is queued or the runner stops: poll it beside the player's socket.
    public var interrupt: Int32 { runner.interrupt.readDescriptor }

    /// Whether the runner is stopping: the session returns `.stopped` as soon as it sees it.
    public var isClosing: Bool { runner.isClosing }

    /// Whether the last thing said was that the player is gone (so the next report says it is back).
    public var hasSaidGone: Bool { lastGone != nil }

    /// The commands queued since the last call.
    public func takeCommands() -> [PlayerCommand] { runner.takeCommands() }

    /// For a session that cannot send commands yet (it is connecting): empties the interrupt and leaves the
    /// commands queued for `takeCommands`, so its wait goes on; false when the runner is stopping instead.
    public func deferCommands() -> Bool { runner.deferCommands() }

    /// Hands `message` to the follow loop, except a `.gone` that repeats the last one.
    public func post(_ message: FollowMessage) {
        switch message {
        case .gone(let reason):
            guard reason != lastGone else { return }
            lastGone = reason
        case .report: lastGone = nil
        case .notice: break
        }
        runner.post(message)
    }

    /// Lets `stop()` shut `descriptor` down under a blocked call; false when stopping already.
    public func hold(socket descriptor: Int32) -> Bool { runner.hold(socket: descriptor) }

    /// Takes the held socket back, before closing it.
    public func releaseSocket() { runner.releaseSocket() }
}
