/// A key as the player sees it, after the terminal edge has decoded it.
public enum Key: Sendable, Equatable {
    /// A text key: letters, digits, space, punctuation.
    case character(Character)
    case up, down, left, right, home, end, escape
    /// Backspace (or Delete as a terminal sends it for Backspace); only `sync` binds it (DESIGN §13.1).
    case backspace
}

/// What a key asks the player to do (DESIGN §6).
public enum PlayerAction: Sendable, Equatable, OverlayActions {
    case togglePause
    /// Seek by seconds (negative = back).
    case seek(Double)
    case previousLine, nextLine
    case restart
    /// Change the overlay: the user offset (positive = lyrics earlier), reduce motion or the help
    /// (`.adjustOffset`, `.toggleReduceMotion`, `.toggleHelp`).
    case overlay(Overlay.Change)
    case quit
    /// Change the audio's volume by percent.
    case changeVolume(Int)
    case toggleMute
    /// Write the user offset into the lyric file (DESIGN §13.2).
    case saveOffset
    /// Step the lead vocal's guide level down, 100 → 50 → 0 → 100 percent (DESIGN §14.1).
    case stepVocals
    /// Move the key by semitones, the tempo kept (DESIGN §14.1).
    case changeKey(Int)
    /// Move the tempo by percent, the pitch kept (DESIGN §14.1).
    case changeTempo(Int)
    /// Go to the next / previous song of a queue (DESIGN §14.2); nothing when one song plays.
    case nextSong, previousSong
    /// Step the lyrics' size: auto, 1, 2, 3, 4, auto (DESIGN §23).
    case stepSize
    /// Turn the monitor (the microphone to the speakers, `--monitor`) on or off (DESIGN §24).
    case toggleMonitor

    /// The action bound to `key`, or nil for keys that do nothing. With the help shown, Esc closes it.
    public static func bound(to key: Key, helpShown: Bool = false) -> PlayerAction? {
        // Esc closes the help before it quits.
        if let change = Overlay.change(boundTo: key, helpShown: helpShown) { return .overlay(change) }
        switch key {
        case .character(" "), .character("p"), .character("P"): return .togglePause
        case .left: return .seek(-5)
        case .right: return .seek(5)
        case .up, .character("k"): return .previousLine
        case .down, .character("j"): return .nextLine
        case .home, .character("g"): return .restart
        case .character("q"), .character("Q"), .escape: return .quit
        case .character("9"), .character("/"): return .changeVolume(-PlayerState.volumeStep)
        case .character("0"), .character("*"): return .changeVolume(PlayerState.volumeStep)
        case .character("m"), .character("M"): return .toggleMute
        case .character("s"), .character("S"): return .saveOffset
        case .character("v"), .character("V"): return .stepVocals
        case .character("<"), .character(","): return .changeKey(-1)
        case .character(">"), .character("."): return .changeKey(1)
        case .character("["): return .changeTempo(-SingingSettings.tempoStep)
        case .character("]"): return .changeTempo(SingingSettings.tempoStep)
        case .character("e"), .character("E"): return .toggleMonitor
        case .character("n"): return .nextSong
        case .character("N"): return .previousSong
        case .character("z"), .character("Z"): return .stepSize
        default: return nil
        }
    }

    /// The keys the help overlay lists, as (keys, what they do).
    public static let help: [(keys: String, meaning: String)] = [
        ("space, p", "pause / resume"),
        ("← / →", "seek 5 s back / forward"),
        ("↑, k / ↓, j", "previous / next lyric line"),
        ("Home, g", "back to the start"),
        ("+ / −", "offset ±0.1 s (+ shows lyrics earlier)"),
        ("s", "save the offset into the lyric file"),
        ("9 / 0", "volume down / up"),
        ("m", "mute / unmute"),
        ("v", "vocals 100/50/0 %"),
        ("< / >", "key down / up a semitone"),
        ("[ / ]", "tempo −0.05× / +0.05×"),
        ("r", "reduce motion on / off"),
        ("t", "romanized rows on / off"),
        ("z", "lyrics size: auto, 1, 2, 3, 4"),
        ("e", "hear yourself (the monitor) on / off"),
        ("n / N", "next / previous song of a queue"),
        ("?", "this help"),
        ("q, Esc", "quit"),
    ]
}
