import Glibc
import Synchronization

/// Signals caught for the play loop: the handler only records the number; the loop acts on it.
///
/// Installed before `newterm`, so ncurses leaves SIGINT/SIGTERM/SIGTSTP to us (it installs its own only
/// where the disposition is the default) and our clean-up runs: endwin, BDSM reset, then 128 + N.
enum Signals {
    /// The last signal caught and not yet taken, or 0.
    private static let pending = Atomic<Int32>(0)

    /// The signals the player handles.
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGTSTP]

    /// Installs the recording handler, without SA_RESTART so a blocking key read returns at once.
    static func install() {
        for number in handled { setHandler(number) }
    }

    static func setHandler(_ number: Int32) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { caught in Signals.pending.store(caught, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(number, &action, nil)
    }

    /// The signal caught since the last call, if any.
    static func take() -> Int32? {
        let number = pending.exchange(0, ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// Stops the process as Ctrl-Z would, returning when it is continued (`fg`).
    static func suspendSelf() {
        signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        setHandler(SIGTSTP)
    }
}

/// Monotonic seconds (CLOCK_MONOTONIC): unaffected by wall-clock changes.
func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
