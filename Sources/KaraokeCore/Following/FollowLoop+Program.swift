extension FollowLoop: TerminalProgram {
    /// The follow loop's event for one the screen reports.
    public static func event(_ screen: ScreenEvent) -> Event {
        switch screen {
        case .tick: .tick
        case .key(let key): .key(key)
        case .signal(let signal): .signal(signal)
        case .resize(let columns, let rows): .resize(columns: columns, rows: rows)
        }
    }

    /// The screen's part of `effect`; nil for the player's commands, the lookups and the clock log, which
    /// `follow` carries out itself.
    public static func screenEffect(_ effect: Effect) -> ScreenEffect? {
        switch effect {
        case .paint(let frame): .paint(frame)
        case .wait(let until): .wait(until: until)
        case .suspend: .suspend
        case .exit(let status): .exit(status)
        case .command, .lookUp, .log: nil
        }
    }
}
