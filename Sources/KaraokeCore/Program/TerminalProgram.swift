/// A screen's logic as a value: it takes what happens and says what to do, and one driver at the edge
/// runs every such program on the terminal (DESIGN §17).
///
/// `play`, `sync`, `follow`, the queue's card and the score card are each one. A program never reads a
/// clock, a key or a socket: the driver tells it the time with every event and carries out its effects.
/// Each program keeps its own event and effect types (its own sources and effects, such as mpv's messages
/// or a save); the two static functions say which of them are the screen's, so the driver needs to know
/// nothing else about it.
public protocol TerminalProgram {
    /// What can happen to the program: the screen's events and its own sources' events.
    associatedtype Event
    /// What the program asks for: the screen's effects and its own.
    associatedtype Effect

    /// The first frame and the first wait, at monotonic time `now`.
    mutating func start(at now: Double) -> [Effect]

    /// Takes `event`, which happened at monotonic time `now`, and returns what to do about it, in order.
    mutating func handle(_ event: Event, at now: Double) -> [Effect]

    /// The program's event for one the screen reports.
    static func event(_ screen: ScreenEvent) -> Event

    /// The screen's part of `effect`, or nil when it is the program's own (the driver's owner carries it out).
    static func screenEffect(_ effect: Effect) -> ScreenEffect?
}

/// What the terminal and the process report to every program.
public enum ScreenEvent: Sendable, Equatable {
    /// The wait ended with nothing else to report: its deadline passed.
    case tick
    /// A key was read.
    case key(Key)
    /// A signal was caught, or the process was continued after a suspension.
    case signal(TerminalSignal)
    /// The terminal is now `columns` × `rows` cells.
    case resize(columns: Int, rows: Int)
}

/// What every program may ask of the driver; each answer of a program ends with `.wait`, `.suspend` or `.exit`
/// (or, for a program that hands over to another, with one of its own effects that ends the run).
public enum ScreenEffect: Sendable, Equatable {
    /// Paint this frame.
    case paint(Frame)
    /// Sleep until this monotonic time (nil: until something happens), then report `.tick` if nothing
    /// else came first.
    case wait(until: Double?)
    /// Give the terminal back and stop the process; once it is continued, take the terminal back and
    /// report `.signal(.resumed)`.
    case suspend
    /// Restore the terminal and end with this status.
    case exit(Int32)
}

/// The signals a screen acts on, and the continuation after a suspension.
public enum TerminalSignal: Sendable, Equatable {
    /// SIGHUP: the terminal went away.
    case hangup
    /// SIGINT: Ctrl-C.
    case interrupt
    /// SIGTERM: asked to end.
    case terminate
    /// SIGTSTP: Ctrl-Z.
    case suspend
    /// The process was continued (`fg`) after the program's `.suspend` effect stopped it.
    case resumed

    /// The signal's number, for the exit status 128 + N of the signals that end a screen; nil for the
    /// others. POSIX fixes these three numbers, so the core needs no system header for them.
    public var number: Int32? {
        switch self {
        case .hangup: 1
        case .interrupt: 2
        case .terminate: 15
        case .suspend, .resumed: nil
        }
    }

    /// The exit status of a signal that ends a screen: 128 + its number.
    public var exitStatus: Int32 { 128 + (number ?? 0) }
}
