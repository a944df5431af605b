/// What a key asks of `karaoke follow` (DESIGN §12): the player's own keys go to the player, the rest
/// change only karaoke's view.
public enum FollowAction: Sendable, Equatable, OverlayActions {
    /// Ask the player to do this.
    case player(PlayerCommand)
    /// Ask the player to go to the start of the previous or next lyric line.
    case previousLine, nextLine
    /// Change the overlay: the user offset (positive = lyrics earlier), reduce motion or the help
    /// (`.adjustOffset`, `.toggleReduceMotion`, `.toggleHelp`).
    case overlay(Overlay.Change)
    /// Step the lyrics' size: auto, 1, 2, 3, 4, auto (DESIGN §23).
    case stepSize
    /// Quit karaoke; the player plays on.
    case quit

    /// How far ← and → seek, in seconds.
    public static let seekStep = 5.0

    /// The action bound to `key`, or nil for keys that do nothing. With the help shown, Esc closes it.
    public static func bound(to key: Key, helpShown: Bool = false) -> FollowAction? {
        // Esc closes the help before it quits.
        if let change = Overlay.change(boundTo: key, helpShown: helpShown) { return .overlay(change) }
        switch key {
        case .character(" "), .character("p"), .character("P"): return .player(.playPause)
        case .left: return .player(.jump(by: -seekStep))
        case .right: return .player(.jump(by: seekStep))
        case .home, .character("g"): return .player(.seek(to: 0))
        case .character("n"): return .player(.next)
        case .character("N"): return .player(.previous)
        case .up, .character("k"): return .previousLine
        case .down, .character("j"): return .nextLine
        case .character("q"), .character("Q"), .escape: return .quit
        case .character("z"), .character("Z"): return .stepSize
        default: return nil
        }
    }

    /// The keys the help overlay lists under `follow`, as (keys, what they do).
    public static let help: [(keys: String, meaning: String)] = [
        ("space, p", "the player: pause / play"),
        ("← / →", "the player: seek 5 s back / forward"),
        ("↑, k / ↓, j", "the player: previous / next lyric line"),
        ("Home, g", "the player: back to the start"),
        ("n / N", "the player: next / previous track"),
        ("+ / −", "offset ±0.1 s (+ shows lyrics earlier)"),
        ("r", "reduce motion on / off"),
        ("t", "romanized rows on / off"),
        ("z", "lyrics size: auto, 1, 2, 3, 4"),
        ("?", "this help"),
        ("q, Esc", "quit karaoke (the player plays on)"),
    ]
}
