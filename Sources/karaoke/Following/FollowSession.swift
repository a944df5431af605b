import CProcess
import Glibc
import KaraokeCore

/// One run of `karaoke follow`'s screen: the core's `FollowLoop` decides, this carries its effects out on
/// the terminal, the player's connection and the lyrics worker (DESIGN §12).
///
/// It sleeps in one `ppoll` on the terminal and the wake pipe (the connection's and the worker's), with
/// the handled signals unblocked only during that wait, so nothing pending is slept through and a paused
/// player under reduce motion costs no wake-ups at all.
struct FollowSession {
    let screen: NCursesScreen
    let connection: FollowedPlayerConnection
    let worker: LyricsWorker
    let wake: WakePipe
    var loop: FollowLoop
    /// The mask to wait with: the caller's, which leaves the handled signals deliverable.
    var waitMask: sigset_t
    /// The clock log's descriptor, or -1.
    var clockLog: Int32 = -1

    /// Runs until q or a signal; returns the exit status.
    mutating func run() -> Int32 {
        var effects = loop.start(at: monotonicSeconds())
        events: while true {
            var deadline: Double? = nil
            for effect in effects {
                switch effect {
                case .paint(let frame): screen.paint(frame)
                case .command(let command): connection.send(command)
                case .lookUp(let track): worker.lookUp(track)
                case .log(let line): StandardStreams.write(line + "\n", to: clockLog)
                case .wait(let until): deadline = until
                case .exit(let status): return status
                case .suspend:
                    screen.suspend()
                    withSignalsUnblocked { Signals.suspendSelf() }
                    screen.resume()
                    effects = loop.handle(.signal(.resumed), at: monotonicSeconds())
                    continue events
                }
            }
            if let number = Signals.take() {
                effects = loop.handle(.signal(PlaySession.signal(number)), at: monotonicSeconds())
                continue
            }
            effects = []
            for message in connection.takeMessages() {
                effects += loop.handle(.player(message), at: monotonicSeconds())
            }
            for (track, answer) in worker.takeAnswers() {
                effects += loop.handle(
                    .lyrics(answer.content, title: answer.title, notice: answer.notice, for: track),
                    at: monotonicSeconds())
            }
            effects += readKeys()
            if !effects.isEmpty { continue }
            waitForSomething(until: deadline)
            wake.drain()
            effects = readKeys()
            if effects.isEmpty, deadline.map({ monotonicSeconds() >= $0 }) ?? false {
                effects = loop.handle(.tick, at: monotonicSeconds())
            }
            // Nothing yet: the next round takes what woke the wait (a message, an answer, a signal).
            if effects.isEmpty { effects = [.wait(until: deadline)] }
        }
    }

    /// Every key (and resize) curses has, without waiting.
    private mutating func readKeys() -> [FollowLoop.Effect] {
        var effects: [FollowLoop.Effect] = []
        while true {
            switch screen.readInput(timeout: 0) {
            case .key(let key):
                effects += loop.handle(.key(key), at: monotonicSeconds())
            case .resize:
                screen.invalidate()
                let size = screen.size
                effects += loop.handle(.resize(columns: size.columns, rows: size.rows), at: monotonicSeconds())
            case .none:
                return effects
            }
        }
    }

    /// Sleeps until the terminal has input, the wake pipe is written, a signal comes, or `deadline`.
    private mutating func waitForSomething(until deadline: Double?) {
        var descriptors = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds = deadline.map { PlayLoop.milliseconds(until: $0, from: monotonicSeconds()) } ?? -1
        _ = kk_poll_with_mask(&descriptors, 2, Int32(milliseconds), &waitMask)
        if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            // The terminal went away without a SIGHUP reaching us (see NCursesScreen.readInput).
            raise(SIGHUP)
            _ = kk_poll_with_mask(&descriptors, 0, 0, &waitMask)
        }
    }

    /// Runs `body` with the handled signals deliverable (Ctrl-Z stops the process inside it).
    private mutating func withSignalsUnblocked(_ body: () -> Void) {
        var blocked = sigset_t()
        pthread_sigmask(SIG_SETMASK, &waitMask, &blocked)
        body()
        pthread_sigmask(SIG_SETMASK, &blocked, nil)
    }

    /// Blocks the handled signals on this thread (and on every thread it starts from now on, which
    /// inherit the mask, so they are always delivered here); returns the mask to wait with.
    static func blockSignals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in Signals.handled { sigaddset(&set, number) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &previous)
        return previous
    }
}
