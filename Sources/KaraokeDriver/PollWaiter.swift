import CProcess
import Glibc
import KaraokeCore

/// The real waiter: one `ppoll` on the terminal and the wake pipe, with the screen's signals unblocked
/// only during it (DESIGN §17.3), so nothing that happens is slept through and nothing wakes the process
/// that does not need to. A command without a screen (`mic`, `calibrate`) waits on the wake pipe alone.
public final class PollWaiter: EventWaiter {
    /// The pipe every source's mailbox wakes.
    public let wake: WakePipe
    /// The mask to wait with: the caller's, which lets the screen's signals through.
    private var waitMask: sigset_t
    /// The terminal polled for keys (stdin), or -1 for a command that never reads it: there a key typed, or
    /// stdin at its end, would end every wait at once.
    private let terminal: Int32

    /// A waiter for `terminal` (stdin; -1: none) and `wake`; the signals to wait for are blocked already
    /// (`Signals.install()`, `Signals.block`), and `waitMask` lets them through.
    public init(wake: WakePipe, waitMask: sigset_t, terminal: Int32 = STDIN_FILENO) {
        self.wake = wake
        self.waitMask = waitMask
        self.terminal = terminal
    }

    /// Installs the screen's signal handlers, blocks them outside the wait, and makes the wake pipe: before
    /// the terminal is taken and before any thread starts. Nil, after saying why, when no pipe can be made.
    public static func forTerminal() -> PollWaiter? {
        guard let wake = WakePipe.openOrExplain() else { return nil }
        return PollWaiter(wake: wake, waitMask: Signals.install())
    }

    /// A waiter for a command without a screen: the wake pipe alone, and SIGINT, SIGTERM and SIGHUP recorded
    /// and delivered only inside the wait (Ctrl-Z keeps its default: the command just stops). Nil, after
    /// saying why, when no pipe can be made.
    public static func forCommand() -> PollWaiter? {
        guard let wake = WakePipe.openOrExplain() else { return nil }
        let ending = [SIGINT, SIGTERM, SIGHUP]
        for number in ending { Signals.setHandler(number) }
        return PollWaiter(wake: wake, waitMask: Signals.block(ending), terminal: -1)
    }

    public func now() -> Double { monotonicSeconds() }

    public func wait(until deadline: Double?) -> Wake {
        var descriptors = [
            // poll skips a negative descriptor: a command without a screen leaves the terminal out.
            pollfd(fd: terminal, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        let milliseconds = deadline.map { PollWaiter.milliseconds(until: $0, from: monotonicSeconds()) } ?? -1
        let ready = kk_poll_with_mask(&descriptors, 2, milliseconds, &waitMask)
        var woke: Wake = []
        if ready < 0 && errno == EINTR { woke.insert(.signal) }
        if ready == 0 { woke.insert(.deadline) }
        if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            // The terminal went away but no SIGHUP came: the session's shell ignores it (nohup, `trap ''
            // HUP`), so the kernel told only that shell. Every wait would now end at once and the loop
            // would spin a core; raising SIGHUP ends the screen the way the kernel's would have.
            raise(SIGHUP)
            _ = kk_poll_with_mask(&descriptors, 0, 0, &waitMask)
            woke.insert(.signal)
        } else if descriptors[0].revents != 0 {
            woke.insert(.input)
        }
        if descriptors[1].revents != 0 {
            wake.drain()
            woke.insert(.posted)
        }
        return woke
    }

    public func takeSignal() -> TerminalSignal? {
        Signals.take().map(Signals.terminalSignal)
    }

    public func suspendProcess() {
        var blocked = sigset_t()
        pthread_sigmask(SIG_SETMASK, &waitMask, &blocked)
        Signals.suspendSelf()
        pthread_sigmask(SIG_SETMASK, &blocked, nil)
    }

    /// The whole milliseconds from `now` to `deadline` for `ppoll`: rounded up, so the wake is never early
    /// and a frame due at the deadline is painted on the first wake.
    public static func milliseconds(until deadline: Double, from now: Double) -> Int32 {
        let milliseconds = ((deadline - now) * 1000).rounded(.up)
        guard milliseconds.isFinite else { return milliseconds > 0 ? Int32.max : 0 }
        return Int32(max(0, min(milliseconds, Double(Int32.max))))
    }
}
