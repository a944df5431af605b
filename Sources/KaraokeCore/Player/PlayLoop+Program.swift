extension PlayLoop: TerminalProgram {
    /// The play loop's event for one the screen reports.
    public static func event(_ screen: ScreenEvent) -> Event {
        switch screen {
        case .tick: .tick
        case .key(let key): .key(key)
        case .signal(let signal): .signal(signal)
        case .resize(let columns, let rows): .resize(columns: columns, rows: rows)
        }
    }

    /// The screen's part of `effect`; nil for mpv's commands, the clock log, the offset's save and the
    /// queue's moves, which `play` carries out itself.
    public static func screenEffect(_ effect: Effect) -> ScreenEffect? {
        switch effect {
        case .paint(let frame): .paint(frame)
        case .wait(let until): .wait(until: until)
        case .suspend: .suspend
        case .exit(let status): .exit(status)
        case .send, .log, .saveOffset, .nextSong, .previousSong: nil
        }
    }
}
