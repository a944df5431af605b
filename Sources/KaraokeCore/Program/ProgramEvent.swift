/// A program's event type that carries the screen's events in one case, `.screen` (DESIGN §17.1).
///
/// An enum's `case screen(ScreenEvent)` satisfies the requirement, so each program lists only its own
/// sources' events beside it, and the screen's spellings (`.tick`, `.key(k)`, `.signal(s)`,
/// `.resize(columns:rows:)`) and the driver's mapping are written once, here, for every program.
public protocol ProgramEvent {
    /// The program's event for one the screen reports.
    static func screen(_ event: ScreenEvent) -> Self
}

extension ProgramEvent {
    /// The wait ended with nothing else to report: its deadline passed.
    public static var tick: Self { .screen(.tick) }

    /// A key was read.
    public static func key(_ key: Key) -> Self { .screen(.key(key)) }

    /// A signal was caught, or the process was continued after a suspension.
    public static func signal(_ signal: TerminalSignal) -> Self { .screen(.signal(signal)) }

    /// The terminal is now `columns` × `rows` cells.
    public static func resize(columns: Int, rows: Int) -> Self { .screen(.resize(columns: columns, rows: rows)) }
}

extension TerminalProgram where Event: ProgramEvent {
    /// A screen event is the program's `.screen` case.
    public static func event(_ screen: ScreenEvent) -> Event { .screen(screen) }
}

extension TerminalProgram where Event == ScreenEvent {
    /// A program that has no sources of its own takes the screen's events as they are.
    public static func event(_ screen: ScreenEvent) -> ScreenEvent { screen }
}
