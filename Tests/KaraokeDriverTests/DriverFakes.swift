import KaraokeCore
import KaraokeDriver

/// A screen that records what the driver does to it, and hands out scripted keys.
final class RecordingScreen: Screen {
    var size: (columns: Int, rows: Int)
    /// Every frame painted, in order.
    private(set) var frames: [Frame] = []
    /// What happened to the terminal besides paints: `invalidate`, `suspend`, `resume`.
    private(set) var calls: [String] = []
    /// Input waiting to be read, in order.
    var input: [ScreenInput] = []

    init(columns: Int, rows: Int) {
        size = (columns, rows)
    }

    func paint(_ frame: Frame) { frames.append(frame) }
    func invalidate() { calls.append("invalidate") }
    func readInput() -> ScreenInput { input.isEmpty ? .none : input.removeFirst() }
    func suspend() { calls.append("suspend") }
    func resume() { calls.append("resume") }
}

/// A waiter on a fake clock: each wait jumps the clock to the next scripted happening or to the deadline,
/// whichever comes first, and never sleeps.
final class ScriptedWaiter: EventWaiter {
    /// What happens at a moment of the fake clock.
    enum Happening {
        /// A key (or resize) arrives on the terminal.
        case input(ScreenInput)
        /// A source posts; the driver then takes the source's events.
        case post
        /// A signal is caught.
        case signal(TerminalSignal)
    }

    private(set) var clock: Double
    /// The happenings still to come, by time.
    private var script: [(at: Double, happening: Happening)]
    /// The screen keys are delivered to.
    private let screen: RecordingScreen
    /// Every wait: when it started and its deadline.
    private(set) var waits: [(at: Double, until: Double?)] = []
    private var pendingSignal: TerminalSignal?
    /// How many times the process was stopped.
    private(set) var suspensions = 0
    /// The longest the fake clock runs; a wait with no deadline and nothing to come ends the test here.
    let end: Double

    init(start: Double, end: Double, screen: RecordingScreen, script: [(at: Double, happening: Happening)]) {
        clock = start
        self.end = end
        self.screen = screen
        self.script = script.sorted { $0.at < $1.at }
    }

    func now() -> Double { clock }

    func wait(until deadline: Double?) -> Wake {
        waits.append((clock, deadline))
        let next = script.first
        if let next, next.at <= (deadline ?? .infinity) {
            script.removeFirst()
            clock = max(clock, next.at)
            switch next.happening {
            case .input(let input):
                screen.input.append(input)
                return .input
            case .post: return .posted
            case .signal(let signal):
                pendingSignal = signal
                return .signal
            }
        }
        guard let deadline else {
            // Nothing will ever come: the run ends as a hang-up would.
            clock = max(clock, end)
            pendingSignal = .hangup
            return .signal
        }
        clock = max(clock, deadline)
        return .deadline
    }

    func takeSignal() -> TerminalSignal? {
        defer { pendingSignal = nil }
        return pendingSignal
    }

    func suspendProcess() { suspensions += 1 }
}
