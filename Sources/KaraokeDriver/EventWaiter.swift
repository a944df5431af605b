import KaraokeCore

/// The one place a screen sleeps, and its clock (DESIGN §17.3): `PollWaiter` for real, a scripted one in
/// tests.
public protocol EventWaiter: AnyObject {
    /// The monotonic time now, in seconds.
    func now() -> Double
    /// Sleeps until the terminal has input, a source posts, a signal comes, or `deadline` (nil: no
    /// deadline); says what ended the sleep.
    func wait(until deadline: Double?) -> Wake
    /// The signal caught since the last call, if any.
    func takeSignal() -> TerminalSignal?
    /// Stops the process as Ctrl-Z would, returning once it is continued.
    func suspendProcess()
}

/// What ended a wait; a wait may end for several reasons at once.
public struct Wake: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The terminal has input (a key, or the hang-up that ends it).
    public static let input = Wake(rawValue: 1)
    /// A source posted something.
    public static let posted = Wake(rawValue: 2)
    /// A signal came (which may be a resize, for the key read to report).
    public static let signal = Wake(rawValue: 4)
    /// The deadline passed.
    public static let deadline = Wake(rawValue: 8)
}
