import Glibc
import KaraokeCore
import Synchronization

/// Signals caught for a screen: the handler only records the number; the program acts on it.
///
/// Installed before `newterm`, so ncurses leaves SIGINT/SIGTERM/SIGTSTP to us (it installs its own only
/// where the disposition is the default) and our clean-up runs: endwin, BDSM reset, then 128 + N.
/// `install` also blocks them, with SIGWINCH, on the calling thread: they are delivered only while the
/// driver sleeps in `ppoll` with them unblocked, so one that comes between two waits is never slept
/// through (DESIGN §17.3).
public enum Signals {
    /// The last signal caught and not yet taken, or 0.
    private static let pending = Atomic<Int32>(0)

    /// The signals a screen handles.
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGTSTP]

    /// The signals blocked outside the driver's wait: the handled ones, and the terminal's resize
    /// (ncurses' handler turns it into KEY_RESIZE, which only a key read after the wait sees).
    static let blockedOutsideWait: [Int32] = handled + [SIGWINCH]

    /// Installs the recording handler, without SA_RESTART so a wait returns at once, and blocks the
    /// signals on this thread; returns the mask to wait with (the one before, which lets them through).
    @discardableResult
    public static func install() -> sigset_t {
        for number in handled { setHandler(number) }
        return block(blockedOutsideWait)
    }

    /// Blocks `numbers` on the calling thread; returns the mask to wait with (the one before, with `numbers`
    /// let through), for a `ppoll` that is the only place they are delivered.
    public static func block(_ numbers: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &set, &previous)
        for number in numbers { sigdelset(&previous, number) }
        return previous
    }

    /// Records `number` when it comes, without stopping, ending or restarting anything.
    public static func setHandler(_ number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { caught in Signals.pending.store(caught, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(number, &action, nil)
    }

    /// The signal caught since the last call, if any.
    public static func take() -> Int32? {
        let number = pending.exchange(0, ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// The screen's name for a caught signal (only those `handled` lists arrive).
    public static func terminalSignal(_ number: Int32) -> TerminalSignal {
        switch number {
        case SIGTSTP: .suspend
        case SIGHUP: .hangup
        case SIGTERM: .terminate
        default: .interrupt
        }
    }

    /// Stops the process as Ctrl-Z would, returning when it is continued (`fg`).
    public static func suspendSelf() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        setHandler(SIGTSTP)
    }
}

/// Monotonic seconds (CLOCK_MONOTONIC): unaffected by wall-clock changes.
public func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
