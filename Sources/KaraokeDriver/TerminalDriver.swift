import KaraokeCore

/// Runs a `TerminalProgram` on a screen (DESIGN §17.3): carries out the screen's effects, hands the
/// program its events in order (a pending signal, then the sources' events, then keys), sleeps in one
/// place until the program's next deadline, and leaves the program's own effects to its command.
///
/// It reads no clock and no terminal of its own: the screen and the waiter are given, so a test drives
/// a program through the same loop with a recording screen, a scripted waiter and fake sources.
public struct TerminalDriver<Program: TerminalProgram> {
    /// What the command did with one of the program's own effects.
    public enum Outcome {
        /// Carried out; nothing to report.
        case done
        /// Carried out; these events report how it went, and go to the program before anything else.
        case report([Program.Event])
        /// The run ends here, on this effect (another song, say).
        case stop
    }

    /// How a run ended.
    public enum Ending {
        /// The program asked to exit with this status.
        case exit(Int32)
        /// The command stopped the run on this effect of the program's.
        case stopped(Program.Effect)
    }

    /// The terminal.
    public let screen: any Screen
    /// The clock, and where the loop sleeps.
    public let waiter: any EventWaiter
    /// The event sources, each taking what its background thread posted since the last call.
    public var sources: [() -> [Program.Event]] = []
    /// How many times the loop slept and woke (for the tests and the bench).
    public var wakeUps = 0

    /// A driver on `screen`, sleeping and reading the time through `waiter`.
    public init(screen: any Screen, waiter: any EventWaiter) {
        self.screen = screen
        self.waiter = waiter
    }

    /// Runs `program` until it exits or `perform` stops it on one of the program's own effects; `perform`
    /// sees the program as it is when the effect is carried out.
    // Inlinable, so the executable specializes the loop for its program: a generic loop across the module
    // boundary looks up metadata and witness tables at every frame.
    @inlinable
    public mutating func run(
        _ program: inout Program, perform: (Program.Effect, Program) -> Outcome
    ) -> Ending {
        var effects = program.start(at: waiter.now())
        var deadline: Double?
        // ncurses may hold keys already read from the terminal, so the first round looks.
        var inputMayWait = true
        while true {
            var reports: [Program.Event] = []
            var resumed = false
            for effect in effects {
                guard let screenEffect = Program.screenEffect(effect) else {
                    switch perform(effect, program) {
                    case .done: break
                    case .report(let events): reports += events
                    case .stop: return .stopped(effect)
                    }
                    continue
                }
                switch screenEffect {
                case .paint(let frame): screen.paint(frame)
                case .wait(let until): deadline = until
                case .exit(let status): return .exit(status)
                case .suspend:
                    screen.suspend()
                    waiter.suspendProcess()
                    screen.resume()
                    resumed = true
                }
                if resumed { break }
            }
            // The frame just painted is let go before the program composes the next, so the rows the
            // composer keeps are its own again and are changed in place (FrameComposer.lastLyricRows).
            effects = []
            if resumed {
                effects = program.handle(Program.event(.signal(.resumed)), at: waiter.now())
                continue
            }
            // What is already there goes first, in this order; each answer is carried out before the next look.
            if !reports.isEmpty {
                effects = handle(reports, in: &program)
                continue
            }
            if let signal = waiter.takeSignal() {
                effects = program.handle(Program.event(.signal(signal)), at: waiter.now())
                continue
            }
            let posted = sources.flatMap { $0() }
            if !posted.isEmpty {
                effects = handle(posted, in: &program)
                continue
            }
            if inputMayWait {
                inputMayWait = false
                effects = readInput(into: &program)
                if !effects.isEmpty {
                    inputMayWait = true
                    continue
                }
            }
            if let due = deadline, waiter.now() >= due {
                deadline = nil
                effects = program.handle(Program.event(.tick), at: waiter.now())
                continue
            }
            let woke = waiter.wait(until: deadline)
            wakeUps += 1
            inputMayWait = woke.contains(.input) || woke.contains(.signal)
            effects = []
        }
    }

    /// Hands `events` to the program one by one; their answers in order.
    @inlinable
    func handle(_ events: [Program.Event], in program: inout Program) -> [Program.Effect] {
        var effects: [Program.Effect] = []
        for event in events { effects += program.handle(event, at: waiter.now()) }
        return effects
    }

    /// Every key and resize the screen has, without waiting, handed to the program.
    @inlinable
    func readInput(into program: inout Program) -> [Program.Effect] {
        var effects: [Program.Effect] = []
        while true {
            switch screen.readInput() {
            case .key(let key):
                effects += program.handle(Program.event(.key(key)), at: waiter.now())
            case .resize:
                screen.invalidate()
                let size = screen.size
                effects += program.handle(
                    Program.event(.resize(columns: size.columns, rows: size.rows)), at: waiter.now())
            case .none:
                return effects
            }
        }
    }
}
