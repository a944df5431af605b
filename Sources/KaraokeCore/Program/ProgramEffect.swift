/// A program's effect type that carries the screen's effects in one case, `.screen` (DESIGN §17.1).
///
/// An enum's `case screen(ScreenEffect)` satisfies the first requirement; the second reads it back, so
/// the driver's mapping and the spellings `.paint(frame)`, `.wait(until:)`, `.suspend` and `.exit(status)`
/// are written once, here, for every program.
public protocol ProgramEffect {
    /// The program's effect for one the screen carries out.
    static func screen(_ effect: ScreenEffect) -> Self

    /// The screen's part of this effect; nil when it is the program's own (its owner carries it out).
    var screenEffect: ScreenEffect? { get }
}

extension ProgramEffect {
    /// Paint this frame.
    public static func paint(_ frame: Frame) -> Self { .screen(.paint(frame)) }

    /// Wait for a key, a resize, a signal or a source until this monotonic time (nil: until one comes), then
    /// report `.tick`.
    public static func wait(until deadline: Double?) -> Self { .screen(.wait(until: deadline)) }

    /// Give the terminal back and stop the process; once continued, report `.signal(.resumed)`.
    public static var suspend: Self { .screen(.suspend) }

    /// Restore the terminal and end with this status.
    public static func exit(_ status: Int32) -> Self { .screen(.exit(status)) }

    /// The frame this effect paints, nil for any other effect.
    public var paintedFrame: Frame? {
        if case .paint(let frame)? = screenEffect { return frame }
        return nil
    }

    /// The deadline this effect waits for (`.some(nil)`: a wait without end), nil for any other effect.
    public var waitDeadline: Double?? {
        if case .wait(let deadline)? = screenEffect { return deadline }
        return nil
    }
}

extension TerminalProgram where Effect: ProgramEffect {
    /// The screen's part of `effect`, as the effect itself says.
    public static func screenEffect(_ effect: Effect) -> ScreenEffect? { effect.screenEffect }
}
