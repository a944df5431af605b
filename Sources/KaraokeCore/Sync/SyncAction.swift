/// What a key asks of `karaoke sync` (DESIGN §13.1): space is the stamp key here, so `p` pauses.
public enum SyncAction: Sendable, Equatable {
    /// Stamp the next line (line mode) or the next word (word mode) at the audio's time.
    case stamp
    /// Line mode: the same as `stamp`; word mode: close the line being stamped (a closing word tag).
    case enter
    /// Stamp an end marker: the line last stamped ends here (an instrumental break follows).
    case endMarker
    /// Remove the last stamp and seek to 2 s before it.
    case undo
    /// Select the line above or below (by -1 or +1).
    case select(Int)
    /// Move the selected line's stamps by milliseconds.
    case nudge(Int)
    /// Seek by seconds (negative = back).
    case seek(Double)
    case togglePause
    /// One step slower (-1) or faster (+1) in `SyncSession.speeds`.
    case changeSpeed(Int)
    case save
    case toggleHelp
    /// Show the help box's next page, or close it after the last.
    case turnHelpPage
    case quit

    /// The action bound to `key`, or nil for keys that do nothing. With the help shown, ?, h and Esc close
    /// it, q quits and any other key turns its page, as on the other screens (`Overlay.change`).
    public static func bound(to key: Key, helpShown: Bool = false) -> SyncAction? {
        if helpShown, let change = Overlay.change(boundTo: key, helpShown: true) {
            return change == .turnHelpPage ? .turnHelpPage : .toggleHelp
        }
        switch key {
        case .character(" "): return .stamp
        case .character("\n"), .character("\r"), .character("\r\n"): return .enter
        case .character("e"), .character("E"): return .endMarker
        case .backspace: return .undo
        case .up: return .select(-1)
        case .down: return .select(1)
        case .character(","): return .nudge(-50)
        case .character("."): return .nudge(50)
        case .character("<"): return .nudge(-500)
        case .character(">"): return .nudge(500)
        case .left: return .seek(-5)
        case .right: return .seek(5)
        case .character("p"), .character("P"): return .togglePause
        case .character("["): return .changeSpeed(-1)
        case .character("]"): return .changeSpeed(1)
        case .character("s"), .character("S"): return .save
        case .character("?"), .character("h"): return .toggleHelp
        case .character("q"), .character("Q"): return .quit
        default: return nil
        }
    }

    /// The keys the help overlay lists under `sync`, as (keys, what they do).
    public static let help: [(keys: String, meaning: String)] = [
        ("space", "stamp the next line (word mode: the next word)"),
        ("Enter", "as space (word mode: close the line)"),
        ("e", "end marker: the last line ends here"),
        ("Backspace", "remove the last stamp, back 2 s"),
        ("↑ / ↓", "select a stamped line"),
        (", / .", "selected line ∓50 ms"),
        ("< / >", "selected line ∓500 ms"),
        ("← / →", "seek 5 s back / forward"),
        ("p", "pause / resume"),
        ("[ / ]", "slower / faster (0.5× to 1×, pitch kept)"),
        ("s", "save"),
        ("?", "this help"),
        ("q", "quit (asks when stamps are unsaved)"),
    ]
}
